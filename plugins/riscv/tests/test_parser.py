"""The RISC-V sub-parser and tags: TVM's tags, -mattr semantics, ABIs, errors, round trips, composites."""

from __future__ import annotations

import json
from typing import Any

import pytest

import tcfg
import tcfg_riscv.plugin
from tcfg.testing import check_plugin, registry_with


def _tvm_attrs(export: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in export.items() if k not in ("kind", "tag", "keys")}


def test_every_tvm_riscv_tag_resolves_to_the_same_device(reg: tcfg.Registry, tvm: dict[str, Any]) -> None:
    assert len(tvm["tags"]) == 6
    assert set(tvm["tags"]) == set(reg.list_tags("riscv/"))
    for name, theirs in tvm["tags"].items():
        t = tcfg.Target(name, registry=reg)
        assert t.kind.name == theirs["export"]["kind"]
        ours = {k: v for k, v in t.attrs.items() if k not in ("tag", "fast-math")}
        assert ours == _tvm_attrs(theirs["export"]), name
        assert t.keys == tuple(theirs["keys"]), name


@pytest.mark.parametrize("name", registry_with(tcfg_riscv.plugin).list_tags("riscv/"))
def test_tag_round_trips_and_cites(reg: tcfg.Registry, name: str) -> None:
    t = tcfg.Target(name, registry=reg)
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t
    assert "TVM 0.27" in reg.tag_entry(name).source and "2026" in reg.tag_entry(name).source


def test_vector_tags(reg: tcfg.Registry) -> None:
    for name in ("riscv/licheepi3a", "riscv/spacemit-k3"):
        t = tcfg.Target(name, registry=reg)
        assert t.features.rvv is True and t.features.has_rvv is True and t.features.v is True
        assert t.features.vlen_bits == 256 and t.features.zvfh is True and t.features.xsmtvdot is True
    assert tcfg.Target("riscv/sifive-u74", registry=reg).features.rvv is False
    assert tcfg.Target("riscv/sifive-e31", registry=reg).features.xlen == 32


def test_mattr_follows_llvm_implications(reg: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=riscv64 -mcpu=sifive-u74 -mattr=+zvfh", registry=reg)
    assert t.features.zvfh and t.features.zve32f and t.features.zfhmin and t.features.vlen_bits == 32
    assert t.features.v is False  # zvfh needs only Zve32f
    assert "implied by -mattr=+zvfh" in t.features.explain("zve32f")
    off = tcfg.Target("llvm -mtriple=riscv64 -mcpu=sifive-x280 -mattr=-f", registry=reg)
    assert not off.features.d and not off.features.v and not off.features.zvfh and off.features.zve64x
    assert "needs f" in off.features.explain("d")
    assert tcfg.Target("llvm -mtriple=riscv64 -mcpu=sifive-u74", registry=reg).keys == ("riscv_cpu", "cpu")


def test_cpu_without_triple(reg: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mcpu=sifive-x280", registry=reg)
    assert t.keys == ("riscv_cpu", "cpu") and t.features.vlen_bits == 512
    assert t.codegen().to_dict()["triple"] == "riscv64"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("llvm -mtriple=riscv64 -mcpu=sifive-u75", "did you mean 'sifive-u74'"),
        ("llvm -mcpu=sifive-x28", "did you mean 'sifive-x280'"),
        ("llvm -mtriple=riscv64 -mattr=+zvfhh", "did you mean 'zvfh'"),
        ("llvm -mtriple=riscv64 -mattr=+zicfilp", "experimental-zicfilp"),
        ("llvm -mtriple=riscv64 -mcpu=sifive-e31", "RV32 CPU"),
        ("llvm -mtriple=riscv32 -mcpu=sifive-u74", "RV64 CPU"),
        ("llvm -mtriple=riscv64 -mattr=+zilsd", "RV64"),
        ("llvm -mtriple=riscv32 -mattr=+64bit", "RV32"),
        ("llvm -mtriple=riscv64 -mabi=lp64d", "lacks the D extension"),
        ("llvm -mtriple=riscv64 -mcpu=sifive-u74 -mabi=ilp32d", "'lp64d'"),
        ("llvm -mtriple=riscv64 -mcpu=sifive-u74 -mabi=lp64 -mfloat-abi=hard", "hard-float ABI"),
        ("llvm -mtriple=riscv64 -mcpu=sifive-u74 -mabi=lp64d -mfloat-abi=soft", "contradicts"),
        ("llvm -mtriple=riscv64 -mfloat-abi=softfp", "Arm ABI"),
        ("llvm -mtriple=riscv64 -mcpu=rocket", "tuning-only"),
        ("llvm -mtriple=riscv64 -march=rv64gcv", "-mcpu and -mattr"),
        ("riscv/sifive-u75", "did you mean"),
    ],
)
def test_bad_input(reg: tcfg.Registry, spec: Any, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        tcfg.Target(spec, registry=reg)


def test_codegen_flags(reg: tcfg.Registry) -> None:
    cg = tcfg.Target("riscv/spacemit-k3", registry=reg).codegen().to_dict()
    assert "-mcpu=generic-rv64" in cg["llc"] and "-target-abi=lp64d" in cg["llc"]
    assert "-mabi=lp64d" in cg["clang"] and not any(f.startswith("-mfloat-abi") for f in cg["clang"])
    assert any("spacemit-x100" in note for note in cg["notes"]) and cg["vlen_bits"] == 256
    x390 = tcfg.Target("llvm -mtriple=riscv64 -mcpu=sifive-x390", registry=reg).codegen()
    assert "-menable-experimental-extensions" in x390.clang_flags()


def test_riscv_host_in_a_composite(reg: tcfg.Registry) -> None:
    system = tcfg.Target(
        {"kind": "composite", "host": "riscv/spacemit-k3", "devices": ["llvm -mtriple=riscv64 -mcpu=sifive-x280"]},
        registry=reg,
    )
    assert tcfg.Target(str(system), registry=reg) == system
    assert tcfg.Target(json.loads(system.to_json()), registry=reg) == system


def test_entry_point_loads_the_plugin() -> None:
    loaded = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "riscv"})
    assert "riscv/sifive-u74" in loaded.list_tags("riscv/")


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk: each kind's default target, every tag and variant, no PluginWarning."""
    check_plugin(tcfg_riscv.plugin)
