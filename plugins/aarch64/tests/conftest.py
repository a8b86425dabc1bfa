"""Shared fixtures: an isolated registry holding only the core and this plugin."""

from __future__ import annotations

import pytest

import tcfg
import tcfg_aarch64.plugin


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[tcfg_aarch64.plugin], autoload=False)


@pytest.fixture(scope="session")
def make(reg: tcfg.Registry):  # type: ignore[no-untyped-def]
    def build(spec: object) -> tcfg.Target:
        return tcfg.Target(spec, registry=reg)

    return build
