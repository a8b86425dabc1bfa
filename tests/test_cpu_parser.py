"""The core's CPU parser: which sub-parser claims an llvm/c target, and what happens without one."""

from __future__ import annotations

import pytest

import tcfg
from tcfg._model.cpu import arch_family, host_triple
from tests.fake_plugins import ToyCpuParser, ToyCpuPlugin, plugin_with


@pytest.mark.parametrize(
    ("triple", "family"),
    [
        ("aarch64-linux-gnu", "aarch64"),
        ("arm64-apple-macosx14.0", "aarch64"),
        ("arm64e-apple-ios", "aarch64"),
        ("armv7a-linux-gnueabihf", "arm"),
        ("thumbv8.1m.main-none-eabihf", "arm"),
        ("x86_64-pc-linux-gnu", "x86_64"),
        ("AMD64-pc-windows-msvc", "x86_64"),
        ("i686-linux-gnu", "x86"),
        ("riscv64-unknown-linux-gnu", "riscv64"),
    ],
)
def test_arch_family_normalises_aliases(triple: str, family: str) -> None:
    assert arch_family(triple) == family


def test_host_triple_names_this_machine() -> None:
    triple = host_triple()
    assert triple.count("-") >= 2
    assert arch_family(triple) in {"x86_64", "aarch64", "arm", "x86"} or triple


@pytest.fixture
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[ToyCpuPlugin()], autoload=False)


def test_triple_decides_first(reg: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=riscv64-linux-gnu -mcpu=toy-v", registry=reg)
    assert t.keys == ("toy_cpu", "cpu") and t.features.toy_vector is True
    other = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -mcpu=toy-v", registry=reg)
    assert other.keys == ("cpu",) and other.features.toy_vector is False


def test_without_triple_the_cpu_name_decides_and_the_parser_fills_the_triple(reg: tcfg.Registry) -> None:
    t = tcfg.Target("c -mcpu=toy-v", registry=reg)
    assert t.attrs["mtriple"] == "riscv64-unknown-linux-gnu"
    assert tcfg.Target(str(t), registry=reg) == t


def test_unknown_cpu_without_triple_is_an_error_when_parsers_are_installed(
    reg: tcfg.Registry, core: tcfg.Registry
) -> None:
    with pytest.raises(tcfg.AttributeValueError, match=r"not a CPU .* did you mean 'toy-v'\?.*give -mtriple"):
        tcfg.Target("c -mcpu=tyo-v", registry=reg)
    assert tcfg.Target("c -mcpu=tyo-v -mtriple=sparc", registry=reg).keys == ("cpu",)
    assert tcfg.Target("c -mcpu=generic", registry=reg).keys == ("cpu",)
    assert tcfg.Target("c -mcpu=tyo-v", registry=core).keys == ("cpu",)


def test_sub_parser_errors_quote_the_input(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.AttributeValueError, match=r"target 'llvm -mtriple=riscv64 -mcpu=toy-x'.*unknown toy CPU"):
        tcfg.Target("llvm -mtriple=riscv64 -mcpu=toy-x", registry=reg)


def test_two_claimants_are_ambiguous() -> None:
    class Other(ToyCpuParser):
        name = "other"
        arches = ("riscv32",)

    other = plugin_with("other", tcfg_register_cpu_parsers=lambda register: register(Other()))
    reg = tcfg.Registry(plugins=[ToyCpuPlugin(), other], autoload=False)
    with pytest.raises(tcfg.AttributeValueError, match="claimed by several CPU parsers"):
        tcfg.Target("llvm -mcpu=toy-v", registry=reg)
    assert tcfg.Target("llvm -mcpu=toy-v -mtriple=riscv32", registry=reg).keys == ("toy_cpu", "cpu")


def test_native_without_a_plugin_for_this_machine_is_an_error(core: tcfg.Registry) -> None:
    with pytest.raises(tcfg.AttributeValueError, match="-mcpu=native needs a CPU plugin"):
        tcfg.Target("llvm -mcpu=native", registry=core)


def test_generic_codegen_passes_attributes_through(core: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-u74 -mattr=+m,+a -opt-level=3", registry=core)
    cg = t.codegen().to_dict()
    assert cg["triple"] == "riscv64-linux-gnu" and cg["cpu"] == "sifive-u74"
    assert cg["features"] == "+m,+a" and cg["opt_level"] == 3
    assert cg["llc"] == ["-mtriple=riscv64-linux-gnu", "-mcpu=sifive-u74", "-mattr=+m,+a", "-O=3"]
    assert "--target=riscv64-linux-gnu" in cg["clang"]


def test_plugin_codegen_comes_before_the_generic_one(reg: tcfg.Registry) -> None:
    cg = tcfg.Target("llvm -mtriple=riscv64-linux-gnu -mcpu=toy-v", registry=reg).codegen()
    assert cg.to_dict()["notes"] == []
