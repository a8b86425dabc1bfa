"""Shared fixtures: an isolated registry holding only the core and this plugin."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import tcfg
import tcfg_x86.plugin
from tcfg.testing import registry_with


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_x86.plugin)


@pytest.fixture(scope="session")
def make(reg: tcfg.Registry) -> Callable[..., tcfg.Target]:
    def build(spec: object) -> tcfg.Target:
        return tcfg.Target(spec, registry=reg)

    return build
