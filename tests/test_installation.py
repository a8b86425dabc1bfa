"""The plugins installed in this environment are exactly those it should have, all loaded."""

from __future__ import annotations

import os

import pytest

import tcfg

EXPECTED = os.environ.get("TCFG_EXPECT_PLUGINS")


@pytest.mark.skipif(EXPECTED is None, reason="TCFG_EXPECT_PLUGINS is set by tox environments only")
def test_installed_plugins_are_exactly_the_expected_ones() -> None:
    expected = {name for name in (EXPECTED or "").split(",") if name}
    records = tcfg.Registry().plugins()
    found = {r.name for r in records if r.name != "core"}
    assert found == expected
    assert all(r.status == "loaded" for r in records), [r.to_dict() for r in records]


def test_core_is_always_the_first_plugin() -> None:
    first = tcfg.Registry(autoload=False).plugins()[0]
    assert (first.name, first.distribution, first.status) == ("core", "tcfg-core", "loaded")
    assert first.registered["kinds"] == ["llvm", "c", "composite"]
