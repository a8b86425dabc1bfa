"""The docs page of the portable vocabulary (``docs/portable.md``) is what the registry answers now.

Needs every plugin (the page shows a device of each): it runs in the tox envs that
install them all and skips elsewhere.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALL = {"aarch64", "x86", "cuda", "tensorrt", "rocm", "gpuapi", "hexagon", "apple", "aws", "riscv"}

pytestmark = pytest.mark.skipif(
    set(filter(None, os.environ.get("TCFG_EXPECT_PLUGINS", "").split(","))) != ALL,
    reason="the page shows every plugin's answers (TCFG_EXPECT_PLUGINS lists them all)",
)


def test_the_portable_page_is_up_to_date() -> None:
    sys.path.insert(0, str(ROOT / "core" / "scripts"))
    import generate_portable

    on_disk = (ROOT / "docs" / "portable.md").read_text(encoding="utf-8")
    assert on_disk == generate_portable.page(), "run python core/scripts/generate_portable.py"
    for heading, _ in generate_portable.DEVICES:
        assert f"### {heading}" in on_disk
