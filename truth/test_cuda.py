"""CUDA against ptxas (skipped, with the reason, when ptxas is absent): every arch of the table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tcfg_cuda.probes import Ptxas, find_ptxas

sys.path.insert(0, str(Path(__file__).resolve().parent))  # truth/ modules (pytest runs with --import-mode=importlib)
import cuda_sweep


@pytest.fixture(scope="module")
def ptxas() -> Ptxas:
    found = find_ptxas()
    if found is None:
        pytest.skip("ptxas not found (CUDA toolkit on PATH or in /usr/local/cuda/bin)")
    return found


def test_sm_88_minimum_ptx_isa_is_what_ptxas_accepts(ptxas: Ptxas) -> None:
    """tcfg says 7.3 (the PTX ISA document lists sm_88 under 9.0): ptxas takes 7.3 and refuses 7.2."""
    checks, wrong = cuda_sweep.check_arch(ptxas, "sm_88")
    assert wrong == [] and checks > 10
    assert ptxas.accepts("sm_88", "7.3") and not ptxas.accepts("sm_88", "7.2")


def test_the_checker_reports_a_wrong_feature(ptxas: Ptxas, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that claimed bf16 on sm_75 would be caught by the bf16 probe."""
    import tcfg_cuda.kind

    real = tcfg_cuda.kind._arch_facts

    def lying(name: str, threads: int):  # type: ignore[no-untyped-def]
        facts = real(name, threads)
        return facts._replace(features={**facts.features, "bf16": True}) if name == "sm_75" else facts

    monkeypatch.setattr(tcfg_cuda.kind, "_arch_facts", lying)
    cuda_sweep.registry.cache_clear()
    try:
        _, wrong = cuda_sweep.check_arch(ptxas, "sm_75")
    finally:
        cuda_sweep.registry.cache_clear()
    assert any("bf16: tcfg True, ptxas" in line for line in wrong)


def test_every_arch_agrees_with_ptxas(ptxas: Ptxas) -> None:
    result = cuda_sweep.sweep("cuda", workers=2)
    print(result.summary())
    assert result.skipped is None
    assert result.disagreements == []
    assert result.checks >= result.cpus * 12
