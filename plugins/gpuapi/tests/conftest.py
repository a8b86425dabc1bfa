"""Shared fixtures: an isolated registry with this plugin only, and the external tools if installed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import tcfg
import tcfg_gpuapi.plugin
from tcfg.testing import registry_with

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_gpuapi.plugin)


def tool(name: str, why: str) -> str:
    """The path of ``name``, or skip the test saying what is missing."""
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed ({why})")
    return found


def fixture_json(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())
