"""Shared fixtures: an isolated registry holding only the core and this plugin."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import tcfg
import tcfg_x86.plugin


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[tcfg_x86.plugin], autoload=False)


@pytest.fixture(scope="session")
def make(reg: tcfg.Registry) -> Callable[..., tcfg.Target]:
    def build(spec: object) -> tcfg.Target:
        return tcfg.Target(spec, registry=reg)

    return build
