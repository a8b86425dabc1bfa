"""docs/from-tvm.md states how many of TVM's facts these tests check, and how many differ on purpose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import COUNTS, HERE
from .facts import REASONS

DOC = (HERE.parents[1] / "docs" / "from-tvm.md").read_text(encoding="utf-8")


def test_the_docs_state_the_counts(request: pytest.FixtureRequest) -> None:
    counts = request.config.stash.get(COUNTS, None)
    every = {p.name for p in Path(HERE).glob("test_*.py")} - {"test_counts.py"}
    if counts is None or counts["files"] != every:
        pytest.skip("run the whole interop/tvm_facts directory to count its facts")
    facts, differences = counts["facts"], counts["differences"]
    stated = re.search(
        r"\*\*(\d+) facts\*\*\s+checked:\s+\*\*(\d+) pass\*\*,\s+\*\*(\d+) deliberate differences\*\*", DOC
    )
    assert stated is not None, "docs/from-tvm.md lost its line of counts"
    assert tuple(map(int, stated.groups())) == (facts, facts - differences, differences)  # type: ignore[operator]


def test_every_reason_is_in_the_docs() -> None:
    for name in REASONS:
        assert f"`{name}`" in DOC, name


@pytest.mark.parametrize("code", re.findall(r"```python\n(.*?)```", DOC, flags=re.DOTALL))
def test_the_docs_examples_run(code: str) -> None:
    exec(compile(code, "docs/from-tvm.md", "exec"), {})
