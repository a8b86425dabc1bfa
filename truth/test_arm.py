"""32-bit Arm (A, R and M profile) against clang-22, opt-22 and llc-22 (skipped when absent).

The full sweep runs in ``python truth/sweep.py arm``; here the rows the issue names and
a sample of each profile, plus a check that the checker reports a wrong target.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # truth/ modules (pytest runs with --import-mode=importlib)
import arm_sweep

ROWS = (
    "generic",
    "cortex-a7",
    "cortex-a9",
    "cortex-a15",
    "cortex-a53",
    "cortex-a55",
    "cortex-m0",
    "cortex-m4",
    "cortex-m7",
    "cortex-m55",
    "cortex-m85",
    "cortex-r5",
    "cortex-r52",
    "armv7-a",
    "armv8.2-a",
    "armv8.1-m.main",
    "armv7e-m",
    "armv8-r",
)


@pytest.fixture(scope="module")
def tools() -> arm_sweep._Tools:
    found = arm_sweep._tools("arm")
    if isinstance(found, str):
        pytest.skip(found)
    return found


def test_issue_rows_agree_with_llvm(tools: arm_sweep._Tools) -> None:
    result = arm_sweep.sweep("arm", limit=ROWS)
    assert result.cpus == len(ROWS) and result.checks > 10_000
    assert result.disagreements == []


def test_the_checker_reports_a_wrong_target(tools: arm_sweep._Tools) -> None:
    # tcfg's cortex-m4 is not LLVM's cortex-m7 (no double precision)
    case = arm_sweep.Case(
        "arm",
        "x",
        "x",
        "llvm -mtriple=thumbv7em-none-eabihf -mcpu=cortex-m4",
        "thumbv7em-none-eabihf",
        ("-mcpu=cortex-m7",),
    )
    checks, problems = arm_sweep.check_cases(tools, [case])
    assert checks > 100 and any("fp64" in p for p in problems)


def test_probes_discriminate(tools: arm_sweep._Tools) -> None:
    # (NEON's probe also assembles as MVE with every other feature on, so NEON is judged
    # by q-register use instead)
    assert {"fp64", "d32", "dotprod", "i8mm", "aes"} <= set(tools.probes_for("armv8a-none-eabihf", "generic"))
    assert {"mve", "dsp", "lob"} <= set(tools.probes_for("thumbv8.1m.main-none-eabihf", "generic"))
