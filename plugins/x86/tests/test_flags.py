"""``t.codegen().flags(compiler, version)`` for x86: ``-march=CPU`` with ``-mFEATURE``/``-mno-FEATURE``.

Pinned outputs of the generated tables (no tool runs here); ``truth/test_compilers.py``
compiles them with every clang and gcc installed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import tcfg

Make = Callable[[object], tcfg.Target]
X64 = "llvm -mtriple=x86_64-linux-gnu"


def test_clang_gets_driver_options_not_target_feature_pairs(make: Make) -> None:
    cg = make(f"{X64} -mcpu=skylake -mattr=+avx512f,-avx2").codegen()
    assert cg.flags("clang") == ["--target=x86_64-linux-gnu", "-march=skylake", "-mavx512f", "-mno-avx2"]
    # -mattr=-avx2 also removes what implies AVX2 (LLVM's rule), AVX-512F with it: gcc need not add it
    assert cg.flags("gcc", 12) == ["-march=skylake", "-mno-avx2"]
    assert cg.flags("llc") == ["-mtriple=x86_64-linux-gnu", "-mcpu=skylake", "-mattr=+sgx,+avx512f,-avx2"]


def test_gcc_turns_off_what_its_cpu_has_beyond_llvms(make: Make) -> None:
    """gcc's -march=skylake-avx512 has SGX, LLVM's does not (gcc -Q --help=target, in the table)."""
    assert "-mno-sgx" in make(f"{X64} -mcpu=skylake-avx512").codegen().flags("gcc", 12)


def test_a_cpu_gcc_lacks_names_nothing_it_cannot(make: Make) -> None:
    with pytest.raises(tcfg.TargetError, match=r"gcc 12 does not know -march=znver4; no gcc tcfg knows of does"):
        make(f"{X64} -mcpu=znver4").codegen().flags("gcc", 12)


def test_no_optimisation_level_unless_asked(make: Make) -> None:
    cg = make(f"{X64} -mcpu=haswell").codegen()
    assert not any(flag.startswith("-O") for flag in cg.flags("clang") + cg.flags("gcc") + cg.flags("llc"))
    assert cg.flags("gcc", opt_level=2)[-1] == "-O2"
