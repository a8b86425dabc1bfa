"""Shared fixtures: an isolated registry holding only the core and this plugin."""

from __future__ import annotations

import pytest

import tcfg
import tcfg_aarch64.plugin
from tcfg.testing import registry_with


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_aarch64.plugin)


@pytest.fixture(scope="session")
def make(reg: tcfg.Registry):  # type: ignore[no-untyped-def]
    def build(spec: object) -> tcfg.Target:
        return tcfg.Target(spec, registry=reg)

    return build
