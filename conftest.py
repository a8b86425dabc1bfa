"""Repository-wide pytest setup: property tests marked ``slow``, skipped tests summarised by reason outside CI.

Every Hypothesis test (``@given``) carries the ``slow`` marker, so ``-m "not slow"``
runs the example-based suite alone (the core's in under 30 s on a quiet machine).

``-ra`` (in ``pyproject.toml``) lists every skipped test on its own line, hundreds where
tools or plugins are missing. Outside CI (``$CI`` unset) the short summary keeps
failures, errors and xfails, and the skips are summarised instead: one line per reason
with how many tests it skipped. ``CI=1`` (``.ci/run``) or ``-rs`` lists them all.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest

#: How many skip reasons the summary names before it counts the rest.
_SHOWN = 20


def pytest_configure(config: Any) -> None:
    chars = str(config.option.reportchars)
    if os.environ.get("CI") or "s" in chars.replace("a", "") or "A" in chars:
        return
    config.option.reportchars = chars.replace("a", "fExX")
    config._tcfg_summarise_skips = True


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.slow)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    if not getattr(config, "_tcfg_summarise_skips", False):
        return
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    if not reasons:
        return
    total = sum(reasons.values())
    terminalreporter.section(f"{total} skipped, by reason (CI=1 or -rs lists each)", sep="-")
    for reason, count in reasons.most_common(_SHOWN):
        terminalreporter.line(f"{count:5d}  {reason}")
    rest = len(reasons) - _SHOWN
    if rest > 0:
        terminalreporter.line(f"       ... and {rest} other reasons")
