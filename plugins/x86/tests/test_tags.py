"""Tags of real machines: they build, carry num-cores and cite a source."""

from __future__ import annotations

import pytest

import tcfg_x86.plugin
from tcfg.testing import check_plugin
from tcfg_x86.facts import load_json

TAGS = load_json("tags.json")["tags"]


@pytest.mark.parametrize("name", sorted(TAGS))
def test_tag_builds_with_cores_and_source(reg, make, name: str) -> None:
    t = make(name)
    assert t.keys == ("x86", "cpu")
    assert t.attrs["num-cores"] >= 1
    assert TAGS[name]["source"].startswith("https://")
    assert name in reg.list_tags()


def test_required_families_are_present() -> None:
    families = ("aws/c4.", "aws/c5.", "aws/c6i.", "aws/c7i.", "aws/c6a.", "aws/c7a.", "aws/m7i.")
    for family in (*families, "gcp/", "azure/", "intel/core", "amd/ryzen"):
        assert any(name.startswith(family) for name in TAGS), family


def test_tag_facts(make) -> None:
    assert make("aws/c7i.4xlarge").features.amx_int8
    assert make("aws/c7a.4xlarge").features.avx512bf16
    assert not make("aws/c6a.4xlarge").features.avx512f
    t = make("aws/c5.4xlarge -vector-width=512")
    assert t.codegen().to_dict()["preferred_vector_width"] == 512


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk: each kind's default target, every tag and variant, no PluginWarning."""
    check_plugin(tcfg_x86.plugin)
