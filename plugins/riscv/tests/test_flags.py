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
