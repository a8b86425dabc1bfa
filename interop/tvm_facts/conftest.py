"""Counts the facts collected here, for the test that checks docs/from-tvm.md states them."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
COUNTS = pytest.StashKey[dict[str, object]]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mine = [i for i in items if i.path.parent == HERE and i.path.name != "test_counts.py"]
    config.stash[COUNTS] = {
        "files": {i.path.name for i in mine},
        "facts": len(mine),
        "differences": sum(1 for i in mine if i.get_closest_marker("xfail") is not None),
    }
