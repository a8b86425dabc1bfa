"""AArch64 against clang-22, opt-22 and llc-22 (skipped, with the reason, when they are absent).

The full sweep (every CPU clang lists, every variant) runs in ``python truth/sweep.py
aarch64``; here the rows the issue names and a sample, plus a check that the checker
itself reports a wrong target.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # truth/ modules (pytest runs with --import-mode=importlib)
import arm_sweep

ROWS = (
    "generic",
    "neoverse-v2",
    "ampere1",
    "ampere1a",
    "oryon-1",
    "apple-m1",
    "apple-m4",
    "cortex-x4",
    "cortex-x925",
    "cortex-a720",
    "neoverse-n3",
    "cortex-a72",
    "cortex-r82",
    "a64fx",
    "armv8.2-a",
    "armv8.4-a",
    "armv9-a",
    "armv9.5-a",
)


@pytest.fixture(scope="module")
def tools() -> arm_sweep._Tools:
    found = arm_sweep._tools("aarch64")
    if isinstance(found, str):
        pytest.skip(found)
    return found


def test_issue_rows_agree_with_llvm(tools: arm_sweep._Tools) -> None:
    result = arm_sweep.sweep("aarch64", limit=ROWS)
    assert result.cpus == len(ROWS) and result.checks > 10_000
    assert result.disagreements == []


@pytest.mark.parametrize(
    ("target", "clang_args", "mattr"),
    [
        # tcfg's cortex-a72 is not LLVM's neoverse-v2: the checker must say so
        ("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72", ("-mcpu=neoverse-v2",), ()),
        # the same spelling but a different -mattr meaning
        ("llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-v2 -mattr=-sve", ("-mcpu=neoverse-v2",), ()),
    ],
)
def test_the_checker_reports_a_wrong_target(
    tools: arm_sweep._Tools, target: str, clang_args: tuple[str, ...], mattr: tuple[str, ...]
) -> None:
    case = arm_sweep.Case("aarch64", "x", "x", target, arm_sweep.A64_TRIPLE, clang_args, mattr)
    checks, problems = arm_sweep.check_cases(tools, [case])
    assert checks > 100 and problems


def test_the_checker_reports_a_refusal_clang_does_not_make(tools: arm_sweep._Tools) -> None:
    case = arm_sweep.Case(
        "aarch64",
        "x",
        "x",
        "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72+nosuch",
        "aarch64-linux-gnu",
        ("-mcpu=cortex-a72",),
    )
    assert arm_sweep.check_cases(tools, [case])[1]


def test_probes_discriminate(tools: arm_sweep._Tools) -> None:
    good = tools.probes_for(arm_sweep.A64_TRIPLE, "generic")
    # the probes the issue's llc defects need must work, or the sweep cannot see them
    assert {"neon", "sve", "sve2", "fp16fml", "ccidx", "rme", "mec", "dotprod", "i8mm"} <= set(good)
