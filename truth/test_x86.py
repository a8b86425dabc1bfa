"""x86 against clang-22, opt-22 and llc-22 (skipped, with the reason, when they are absent).

The full sweep (every CPU clang-22 lists x every variant) runs in ``python truth/sweep.py
x86`` (the tox env runs it after these); here the probes are shown to discriminate, the
CPUs the issue names and a sample are checked under every variant, and the checker is
shown to report a wrong target.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # truth/ modules (pytest runs with --import-mode=importlib)
import x86_sweep

ROWS = (
    "skylake",  # sgx: clang's table has it, llc's skylake does not
    "tigerlake",  # kl, widekl
    "knl",  # invpcid
    "sapphirerapids",
    "znver4",  # cmov: llc's table has it, clang's does not
    "amdfam10",  # mmx
    "pentium4",  # sse2 (32-bit)
    "generic",
    "skylake_avx512",  # clang refuses -march=skylake_avx512
    "i386",
    "x86-64-v4",
)


@pytest.fixture(scope="module")
def tools() -> x86_sweep.Tools:
    found = x86_sweep.tools()
    if isinstance(found, str):
        pytest.skip(found)
    return found


def test_probes_discriminate(tools: x86_sweep.Tools) -> None:
    assert x86_sweep.check_probes(tools) == []


@pytest.mark.parametrize("cpu", ROWS)
def test_cpu_agrees_with_clang_and_llc(tools: x86_sweep.Tools, cpu: str) -> None:
    checks, wrong = x86_sweep.check_cpu(tools, cpu)
    assert wrong == []
    assert checks > len(x86_sweep.VARIANTS) * len(x86_sweep.isa_features()) * 3


def test_the_checker_reports_a_wrong_target(tools: x86_sweep.Tools, monkeypatch: pytest.MonkeyPatch) -> None:
    """tcfg without the frontend/backend split fix (skylake without sgx, llc not told +sgx) is caught."""
    real = x86_sweep.tcfg_case

    def old(cpu: str, variant: str, triple: str) -> x86_sweep.Case:
        case = real(cpu, variant, triple)
        assert case.have is not None
        return replace(case, have=case.have - {"sgx"}, llc_flags=tuple(f for f in case.llc_flags if f != "-mattr=+sgx"))

    monkeypatch.setattr(x86_sweep, "tcfg_case", old)
    _, wrong = x86_sweep.check_cpu(tools, "skylake", variants=("",))
    assert any("sgx: tcfg False, clang-22 reference" in line for line in wrong)
    assert any("sgx: tcfg False, clang-22 with tcfg's clang flags" in line for line in wrong)
