"""Shared fixtures: an isolated registry with only this plugin, and TVM's snapshot of the trn kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tcfg
import tcfg_aws.plugin
from tcfg.testing import registry_with


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_aws.plugin)


@pytest.fixture(scope="session")
def tvm() -> dict[str, Any]:
    """Apache TVM 0.27's own exports.

    Written by ``interop/scripts/snapshot_tvm.py plugins/aws trn aws/trn`` at the repository root.
    """
    data: dict[str, Any] = json.loads((Path(__file__).parent / "fixtures" / "tvm.json").read_text())
    return data
