"""RISC-V flags for older compilers: the CPU's meaning there, measured (``data/compilers.json``), is made up for."""

from __future__ import annotations

import pytest

import tcfg
from tcfg.plugin import compiler_drift


def test_a_cpu_whose_meaning_differs_gets_the_difference_undone(reg: tcfg.Registry) -> None:
    """clang-19's sifive-u74 lacks Zaamo, Zalrsc, Zca and Zcd (22 derives them from A and C): it is told to add them."""
    assert compiler_drift("clang", "riscv64", "cpus", "sifive-u74", 19) == ("-zaamo", "-zalrsc", "-zca", "-zcd")
    cg = tcfg.Target("riscv/sifive-u74", registry=reg).codegen()
    flags = cg.flags("clang", 19)
    assert flags[:2] == ["--target=riscv64-unknown-linux-gnu", "-mcpu=sifive-u74"] and flags[-1] == "-mabi=lp64d"
    items = [flags[i + 2] for i, flag in enumerate(flags) if flag == "-target-feature"]
    assert items == ["+zaamo", "+zalrsc", "+zca", "+zcd"]
    assert cg.flags("clang", 22) == ["--target=riscv64-unknown-linux-gnu", "-mcpu=sifive-u74", "-mabi=lp64d"]


def test_a_cpu_an_older_clang_lacks_names_the_first_that_has_it(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match=r"clang 16 .* does not know cpu 'spacemit-x60'; clang 19 is the first"):
        tcfg.Target("riscv/licheepi3a", registry=reg).codegen().flags("clang", 16)


@pytest.mark.parametrize(
    ("spec", "gcc"),
    [
        # F implies Zicsr, A Zaamo/Zalrsc, C with D Zca/Zcd (which gcc 12 has no names for): left to gcc
        ("riscv/sifive-u74", ["-march=rv64imafdc_zifencei", "-mabi=lp64d", "-mtune=sifive-u74"]),
        ("riscv/sifive-e31", ["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-mtune=sifive-e31"]),
        # generic-rv64 is RV64I to clang's driver: no -mabi given means lp64 there, so here too
        (
            "llvm -mtriple=riscv64-linux-gnu -mattr=+m,+a,+f,+d,+c,+v,+zba,+zbb,+zbs",
            ["-march=rv64imafdcv_zba_zbb_zbs", "-mabi=lp64"],
        ),
        (
            "llvm -mtriple=riscv64-linux-gnu -mattr=+m,+a,+f,+d,+c,+b -mabi=lp64d",
            ["-march=rv64imafdc_zba_zbb_zbs", "-mabi=lp64d"],
        ),
    ],
)
def test_gcc_spellings(reg: tcfg.Registry, spec: str, gcc: list[str]) -> None:
    cg = tcfg.Target(spec, registry=reg).codegen()
    assert cg.flags("gcc", 12) == gcc
    assert cg.flags("gcc", 12, opt_level=3)[-1] == "-O3"


def test_isa_strings_are_in_canonical_order() -> None:
    from tcfg_riscv.gcc import isa_string

    assert isa_string(64, {"c", "a", "i", "m", "v", "xsfvcp", "sstc", "zbb", "zba"}) == "rv64imacv_zba_zbb_sstc_xsfvcp"
    assert isa_string(32, {"e", "c", "m"}) == "rv32emc"


@pytest.mark.parametrize(
    ("spec", "version", "message"),
    [
        (
            "llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-x280",
            12,
            r"gcc 12 cannot express this RISC-V target exactly: it does not know the extension\(s\) zfh, zfhmin, "
            r"zvfh, zvfhmin .*; no gcc tcfg knows of does; use clang or llc",
        ),
        # Debian ships no gcc-11 for RISC-V: the table has no names for it, and says so
        ("riscv/sifive-u74", 11, r"tcfg has no RISC-V names for gcc 11 .*: gcc 12 can express this target"),
    ],
)
def test_gcc_refusals(reg: tcfg.Registry, spec: str, version: int, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        tcfg.Target(spec, registry=reg).codegen().flags("gcc", version)
