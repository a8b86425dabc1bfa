"""TVM's attribute spellings: each accepted, each read as one canonical form, so round trips stay exact.

TVM 0.27's llvm/c option names and the common ones come from ``core/tcfg/data/tvm_kinds.json``
(written by ``interop/scripts/tvm_kinds.py`` from the installed TVM, and checked against
it by ``interop/test_tvm.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import tcfg
from tcfg._services.to_tvm import tvm_kinds
from tcfg.plugin import Attr, String, TargetKind, hookimpl


def roundtrip(t: tcfg.Target) -> None:
    for form in (str(t), t.export(), t.to_json()):
        again = tcfg.Target(form, registry=t.registry)
        assert again == t and str(again) == str(t)


def test_llvm_and_c_have_every_option_tvm_gives_them(core: tcfg.Registry) -> None:
    tvm = {name: kind["options"] for name, kind in tvm_kinds()["kinds"].items()}
    for kind in ("llvm", "c"):
        missing = set(tvm[kind]) - {"kind"} - set(core.get_kind(kind).table)
        assert not missing, (kind, missing)
    common = set.intersection(*(set(options) for options in tvm.values())) - {"kind"}
    assert common <= set(core.get_kind("composite").table)


@pytest.mark.parametrize(
    ("tvm", "canonical"),
    [
        ("llvm -mtriple=x86_64-linux-gnu -fast-math=1", "llvm -mtriple=x86_64-linux-gnu -fast-math"),
        ("llvm -mtriple=x86_64-linux-gnu -fast-math=0", "llvm -mtriple=x86_64-linux-gnu"),
        ("llvm -mtriple=x86_64-linux-gnu -fast-math-nnan=1", "llvm -mtriple=x86_64-linux-gnu -fast-math-nnan"),
        ("llvm -mtriple=x86_64-linux-gnu -fast-math-ninf=true", "llvm -mtriple=x86_64-linux-gnu -fast-math-ninf"),
        ("llvm -mtriple=x86_64-linux-gnu -opt-level=3", "llvm -mtriple=x86_64-linux-gnu -opt-level=3"),
        ("llvm -mtriple=x86_64-linux-gnu -jit=orcjit", "llvm -mtriple=x86_64-linux-gnu -jit=orcjit"),
        ("llvm -mtriple=x86_64-linux-gnu -from_device=0", "llvm -mtriple=x86_64-linux-gnu -from_device=0"),
        ("c -target_device_type=1", "c -target_device_type=1"),
    ],
)
def test_tvm_spellings_read_as_one_canonical_form(core: tcfg.Registry, tvm: str, canonical: str) -> None:
    t = tcfg.Target(tvm, registry=core)
    assert str(t) == canonical and t == tcfg.Target(canonical, registry=core)
    roundtrip(t)


@pytest.mark.parametrize("flag", ["nnan", "ninf", "nsz", "arcp", "contract", "reassoc"])
def test_each_fast_math_flag(core: tcfg.Registry, flag: str) -> None:
    t = tcfg.Target(f"llvm -mtriple=aarch64-linux-gnu -fast-math-{flag}", registry=core)
    assert t.attrs[f"fast-math-{flag}"] is True and t.export()[f"fast-math-{flag}"] is True
    assert tcfg.Target({"kind": "llvm", "mtriple": "aarch64-linux-gnu", f"fast-math-{flag}": True}, registry=core) == t
    roundtrip(t)


def test_cl_opt_is_a_list_of_llvm_options(core: tcfg.Registry) -> None:
    t = tcfg.Target(
        "llvm -mtriple=x86_64-linux-gnu -cl-opt=unroll-threshold:uint=100,x86-asm-syntax=intel", registry=core
    )
    assert t.attrs["cl-opt"] == ("unroll-threshold:uint=100", "x86-asm-syntax=intel")
    assert t.export()["cl-opt"] == ["unroll-threshold:uint=100", "x86-asm-syntax=intel"]
    roundtrip(t)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("llvm -fast-math=2", "expects a boolean"),
        ("llvm -fast-math=yes", "expects a boolean"),
        ({"kind": "llvm", "fast-math": 1}, "expects a boolean"),  # dict input is typed: 1 is not a boolean
        ("llvm -jit=lazy", "one of 'mcjit', 'orcjit'"),
        ("llvm -opt-level=4", "<= 3"),
        ("llvm -cl-opt=' bad'", "an LLVM option"),
        ("llvm -target_device_type=5", "one of 1 \\(cpu\\), 2 \\(cuda\\)"),
        ({"kind": "c", "target_device_type": "cuda"}, "one of 1 \\(cpu\\)"),
        ("llvm -from_device=-1", ">= 0"),
    ],
)
def test_bad_tvm_values(core: tcfg.Registry, spec: Any, message: str) -> None:
    with pytest.raises(tcfg.AttributeValueError, match=message):
        tcfg.Target(spec, registry=core)


def test_booleans_of_executors_take_1_and_0(core: tcfg.Registry) -> None:
    one = tcfg.Target("composite -devices=c -executor='aot -unpacked-api=1 -link-params=0'", registry=core)
    assert one == tcfg.Target("composite -devices=c -executor='aot -unpacked-api'", registry=core)
    roundtrip(one)


class AliasPlugin:
    """A kind with an aliased attribute (as the cuda plugin's -mcpu for -arch), without the cuda plugin."""

    tcfg_plugin_name = "alias"

    @hookimpl
    def tcfg_register_kinds(self, register: Callable[[TargetKind], None]) -> None:
        register(TargetKind("gpu9", "gpu9", attrs=(Attr("arch", String(r"g[0-9]+", "g<N>"), aliases=("mcpu", "gen")),)))


@pytest.fixture
def aliased() -> tcfg.Registry:
    return tcfg.Registry(plugins=[AliasPlugin()], autoload=False)


@pytest.mark.parametrize(
    "spec",
    [
        "gpu9 -mcpu=g3",
        "gpu9 --gen g3",
        "gpu9 -arch=g3 -mcpu=g3",
        {"kind": "gpu9", "mcpu": "g3"},
        '{"kind":"gpu9","gen":"g3"}',
    ],
)
def test_an_alias_is_read_as_its_attribute(aliased: tcfg.Registry, spec: Any) -> None:
    t = tcfg.Target(spec, registry=aliased)
    assert str(t) == "gpu9 -arch=g3" and t.export() == {"kind": "gpu9", "arch": "g3"} and t.attrs["arch"] == "g3"
    roundtrip(t)


def test_an_alias_and_its_attribute_must_agree(aliased: tcfg.Registry) -> None:
    with pytest.raises(tcfg.AttributeValueError, match=r"'gpu9 -arch=g3 -mcpu=g4'.*-arch and -mcpu name the same"):
        tcfg.Target("gpu9 -arch=g3 -mcpu=g4", registry=aliased)
    with pytest.raises(tcfg.AttributeValueError, match="-mcpu expects a string \\(g<N>\\)"):
        tcfg.Target("gpu9 -mcpu=x", registry=aliased)
    table = aliased.get_kind("gpu9").table
    assert "arch" in table and "mcpu" not in table and "gen" not in table


def test_aliases_that_clash_are_refused_when_the_kind_is_made() -> None:
    with pytest.raises(ValueError, match=r"redeclares common attributes \['libs'\]"):
        TargetKind("bad", "bad", attrs=(Attr("x", String(), aliases=("libs",)),))
    with pytest.raises(ValueError, match="declared twice"):
        TargetKind("bad", "bad", attrs=(Attr("x", String(), aliases=("y",)), Attr("y", String())))
