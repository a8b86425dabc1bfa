"""Shared fixtures: an isolated registry with only this plugin, TVM's snapshot, and the LLVM 22 tools."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import tcfg
import tcfg_riscv.plugin
from tcfg.testing import registry_with


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_riscv.plugin)


@pytest.fixture(scope="session")
def tvm() -> dict[str, Any]:
    """Apache TVM 0.27's own exports of its riscv/* tags.

    Written by ``interop/scripts/snapshot_tvm.py plugins/riscv llvm riscv/`` at the repository root.
    """
    data: dict[str, Any] = json.loads((Path(__file__).parent / "fixtures" / "tvm.json").read_text())
    return data


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (apt install clang-22 llvm-22)")
    return path


@pytest.fixture(scope="session")
def clang() -> str:
    return _tool("clang-22")


@pytest.fixture(scope="session")
def llc() -> str:
    return _tool("llc-22")
