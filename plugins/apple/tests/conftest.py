"""Shared fixtures: a registry of this plugin and the aarch64 plugin (the tags' hosts), TVM's snapshot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tcfg
import tcfg_aarch64.plugin
import tcfg_apple.plugin
from tcfg.testing import registry_with


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_apple.plugin, tcfg_aarch64.plugin)


@pytest.fixture(scope="session")
def tvm() -> dict[str, Any]:
    """Apache TVM 0.27's own exports.

    Written by ``interop/scripts/snapshot_tvm.py plugins/apple metal apple/`` at the repository root.
    """
    data: dict[str, Any] = json.loads((Path(__file__).parent / "fixtures" / "tvm.json").read_text())
    return data
