"""What the facts tests share: how a fact tcfg answers differently on purpose is marked."""

from __future__ import annotations

from typing import Any

import pytest

#: Why tcfg answers a TVM fact differently, by short name (docs/from-tvm.md lists each).
REASONS = {
    "llvm-removed": "LLVM 19 removed the feature (Xeon Phi's AVX-512ER/PF); LLVM 22, whose facts tcfg keeps, "
    "does not know it",
    "soft-float": "an arm triple without hf is a soft-float ABI; clang-22 turns the FPU and NEON off for it, "
    "and tcfg follows clang (TVM asks LLVM's CPU table alone)",
    "rv32-64bit": "+64bit on a riscv32 triple: llc-22 refuses it, so tcfg does too",
    "unknown-feature": "-mattr=+woof: not a feature LLVM 22 knows; tcfg refuses it with the valid choices",
    "x86-width": "LLVM 22's preferred vector width for the CPU (tcfg's codegen fact), not TVM's fixed 512 "
    "for every x86_64",
    "wider-than-cpu": "-vector-width must be a width the CPU's vectors have: 128 bits on the generic x86-64 CPU "
    "(the host here), and no x86 vector is 1024 bits",
    "cpu-host": "a cuda target's host runs its host code: it must be a CPU target, not another GPU",
    "neon-on-x86": "llvm without -mtriple is this machine (x86_64 here); +neon is not an x86 feature",
    "unknown-cpu": "-mcpu=dummy is not a CPU LLVM 22 knows: tcfg refuses it with the closest names, where TVM "
    "warns and compiles for the generic CPU",
    "cblas": "cblas is not a library any plugin registers for llvm (openblas, mkl, acl, dnnl are)",
}


def fact(*values: Any, differs: str | None = None, id: str | None = None) -> Any:
    """One fact's parameters; ``differs`` names the reason tcfg answers it differently on purpose."""
    if differs is None:
        return pytest.param(*values, id=id)
    return pytest.param(*values, id=id, marks=pytest.mark.xfail(strict=True, reason=REASONS[differs]))
