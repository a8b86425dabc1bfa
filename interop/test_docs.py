"""The Python examples of ``docs/interop.md`` run as written (each skips when its neighbour is absent)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "interop.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), flags=re.DOTALL)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i}" for i in range(len(BLOCKS))])
def test_example_runs(code: str) -> None:
    try:
        exec(compile(code, str(PAGE), "exec"), {})
    except ModuleNotFoundError as exc:
        pytest.skip(f"the example needs {exc.name}, which is not installed")
    except FileNotFoundError as exc:
        pytest.skip(f"the example needs {exc.filename}, which is not installed")
