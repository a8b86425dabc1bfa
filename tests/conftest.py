"""Shared fixtures: registries that hold only the core (and in-process test plugins)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

import tcfg
from tcfg.testing import registry_with

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def core() -> tcfg.Registry:
    """A registry with the core's kinds only, whatever plugins are installed."""
    return registry_with()
