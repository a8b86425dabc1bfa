"""The portable vocabulary against the real tools (each family skips, with the reason, when its tool is absent).

clang-22's predefined macros for every CPU the aarch64, x86 and riscv plugins know (and every
Hexagon CPU and HVX configuration, under tcfg's clang flags); ptxas for
every CUDA arch; llvm-mc-22 for every AMDGPU processor; vulkaninfo on this machine's Vulkan
device (Mesa llvmpipe in CI). Each sweep must find zero disagreements, and each checker must
report an answer that is made wrong.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tcfg

sys.path.insert(0, str(Path(__file__).resolve().parent))  # truth/ modules (pytest runs with --import-mode=importlib)
import llvm
import portable_sweep
from sweep import SweepResult


def _sweep(family: str) -> SweepResult:
    result = portable_sweep.sweep(family, workers=2)
    print(result.summary())
    if result.skipped is not None:
        pytest.skip(result.skipped)
    return result


@pytest.mark.parametrize(
    "family", ["portable-cpu", "portable-hexagon", "portable-cuda", "portable-amdgpu", "portable-vulkan"]
)
def test_every_answer_agrees_with_the_tool(family: str) -> None:
    result = _sweep(family)
    assert result.disagreements == []
    assert result.checks >= result.cpus * min(result.features, 6) > 0


def _lie(monkeypatch: pytest.MonkeyPatch, module: str, name: str, value: bool | int | str) -> None:
    """Make the portable function of ``module`` answer ``name`` = ``value``."""
    import importlib

    from tcfg.plugin import Answer

    target_module = importlib.import_module(module)
    real = target_module.portable

    def lying(target):  # type: ignore[no-untyped-def]
        return {**real(target), name: Answer(value, "a lie")}

    monkeypatch.setattr(target_module, "portable", lying)


def test_the_cpu_checker_reports_a_wrong_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    clang = llvm.find("clang-22")
    if clang is None:
        pytest.skip("clang-22 not found")
    _lie(monkeypatch, "tcfg_aarch64.portable", "bf16", True)
    checks, wrong = portable_sweep._check_cpu(
        clang, ("arm", "aarch64-unknown-linux-gnu", "cortex-a53"), tcfg.Registry()
    )
    assert checks >= 8 and any("bf16: tcfg True, clang-22 macros say False" in line for line in wrong)


def test_a_fixed_sve_length_is_checked_with_msve_vector_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    clang = llvm.find("clang-22")
    if clang is None:
        pytest.skip("clang-22 not found")
    _, wrong = portable_sweep._check_cpu(clang, ("arm", "aarch64-unknown-linux-gnu", "neoverse-v1"), tcfg.Registry())
    assert wrong == []
    _lie(monkeypatch, "tcfg_aarch64.portable", "vector_bits", 384)  # not a power of two: no SVE length
    _, wrong = portable_sweep._check_cpu(clang, ("arm", "aarch64-unknown-linux-gnu", "neoverse-v1"), tcfg.Registry())
    assert any("vector_bits 384" in line for line in wrong)


def test_the_cuda_checker_reports_a_wrong_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    from tcfg_cuda.probes import find_ptxas

    ptxas = find_ptxas()
    if ptxas is None:
        pytest.skip("ptxas not found (CUDA toolkit on PATH or in /usr/local/cuda/bin)")
    _lie(monkeypatch, "tcfg_cuda.portable", "fp8_e4m3", True)  # sm_80 has no fp8 mma
    _, wrong = portable_sweep._check_arch(ptxas, "sm_80", tcfg.Registry())
    assert any("fp8_e4m3: tcfg True" in line for line in wrong)


def test_the_amdgpu_checker_reports_a_wrong_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    mc = llvm.find("llvm-mc-22")
    if mc is None:
        pytest.skip("llvm-mc-22 not found")
    assert portable_sweep.amdgpu_truth(mc, "gfx942")["bf16"] is True  # MFMA bf16
    _lie(monkeypatch, "tcfg_rocm.portable", "matrix_formats", "fp16,bf16,int8,int4")  # gfx942 has no int4 MFMA
    _, wrong = portable_sweep._check_processor(mc, "gfx942", tcfg.Registry())
    assert any("matrix_formats" in line for line in wrong)
