"""Shared fixtures: an isolated registry with the cuda and tensorrt plugins only."""

from __future__ import annotations

import pytest

import tcfg
import tcfg_cuda.plugin
import tcfg_tensorrt.plugin
from tcfg.testing import registry_with


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_cuda.plugin, tcfg_tensorrt.plugin)


@pytest.fixture()
def build(reg: tcfg.Registry):  # type: ignore[no-untyped-def]
    def make(spec: str | dict[str, object]) -> tcfg.Target:
        return tcfg.Target(spec, registry=reg)

    return make
