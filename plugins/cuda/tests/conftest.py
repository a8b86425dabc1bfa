"""Shared fixtures: an isolated registry with only this plugin, and the toolkit if installed."""

from __future__ import annotations

from pathlib import Path

import pytest

import tcfg
import tcfg_cuda.plugin
from tcfg_cuda.probes import Ptxas, find_ptxas

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[tcfg_cuda.plugin], autoload=False)


@pytest.fixture(scope="session")
def ptxas() -> Ptxas:
    found = find_ptxas()
    if found is None:
        pytest.skip("ptxas is not installed (CUDA toolkit on PATH or in /usr/local/cuda/bin)")
    return found
