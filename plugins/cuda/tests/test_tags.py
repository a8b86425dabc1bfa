"""GPU tags: every tag builds, cites its sources, and Jetson tags carry their Arm host."""

from __future__ import annotations

import importlib.util
import json
from importlib import resources

import pytest

import tcfg
import tcfg_cuda.plugin
from tcfg.testing import check_plugin, registry_with
from tcfg_cuda.tags import gpu_tags

TAGS = list(gpu_tags())
REQUIRED = [
    "nvidia/v100", "nvidia/t4", "nvidia/a10", "nvidia/a10g", "nvidia/a30", "nvidia/a40", "nvidia/a100",
    "nvidia/l4", "nvidia/l40s", "nvidia/h100", "nvidia/h200", "nvidia/b200", "nvidia/gb200",
    "nvidia/geforce-rtx-2080-ti", "nvidia/geforce-rtx-3090", "nvidia/geforce-rtx-4090", "nvidia/geforce-rtx-5090",
    "nvidia/jetson-nano", "nvidia/jetson-tx2", "nvidia/jetson-xavier-nx", "nvidia/jetson-agx-xavier",
    "nvidia/jetson-orin-nano", "nvidia/jetson-orin-nx", "nvidia/jetson-agx-orin", "nvidia/jetson-thor",
]  # fmt: skip


def test_required_tags_are_registered(reg: tcfg.Registry) -> None:
    names = reg.list_tags("nvidia/")
    assert set(REQUIRED) <= set(names)
    assert len(names) == len(TAGS)


@pytest.mark.parametrize("tag", TAGS, ids=lambda t: t.name)
def test_tag_builds_round_trips_and_cites(reg: tcfg.Registry, tag: object) -> None:
    name = tag.name  # type: ignore[attr-defined]
    t = tcfg.Target(name, registry=reg)
    assert t.tag == name and t.kind.name == "cuda"
    assert tcfg.Target(str(t), registry=reg) == t
    entry = reg.tag_entry(name)
    assert "retrieved" in entry.source or "20" in entry.source
    assert entry.description


def test_facts_of_some_tags(reg: tcfg.Registry) -> None:
    a100 = tcfg.Target("nvidia/a100", registry=reg)
    assert a100.attrs["multi_processor_count"] == 108
    assert a100.attrs["l2_cache_size_bytes"] == 40 << 20
    h100 = tcfg.Target("nvidia/h100", registry=reg)
    assert h100.attrs["arch"] == "sm_90a" and h100.features.wgmma is True
    b200 = tcfg.Target("nvidia/b200", registry=reg)
    assert b200.features.tcgen05 is True and b200.features.compute_capability == "10.0"
    assert tcfg.Target("nvidia/geforce-rtx-5090", registry=reg).features.tcgen05 is False
    assert "multi_processor_count" not in tcfg.Target("nvidia/gb200", registry=reg).attrs  # not published


def test_tag_overrides(reg: tcfg.Registry) -> None:
    t = tcfg.Target("nvidia/a100 -l2_cache_size_bytes=1048576", registry=reg)
    assert t.attrs["l2_cache_size_bytes"] == 1048576
    t = tcfg.Target({"tag": "nvidia/a100", "max_num_threads": 512}, registry=reg)
    assert t.attrs["max_num_threads"] == 512


def test_data_file_cites_known_sources_only() -> None:
    data = json.loads(resources.files("tcfg_cuda").joinpath("data/gpus.json").read_text())
    for name, row in data["gpus"].items():
        assert row["sources"], name
        assert set(row["sources"]) <= set(data["sources"]), name
    assert data["compiled"]


def test_jetson_host_without_the_aarch64_plugin(reg: tcfg.Registry) -> None:
    t = tcfg.Target("nvidia/jetson-agx-orin", registry=reg)
    assert t.host is not None
    assert t.host.attrs["mtriple"] == "aarch64-linux-gnu" and t.host.attrs["mcpu"] == "cortex-a78ae"
    assert t.host.keys == ("cpu",)  # no Arm features without the aarch64 plugin
    assert dict(t.host.features) == {}


@pytest.mark.skipif(importlib.util.find_spec("tcfg_aarch64") is None, reason="tcfg-plugin-aarch64 is not installed")
def test_jetson_host_gains_arm_features_with_the_aarch64_plugin() -> None:
    import tcfg_aarch64.plugin
    import tcfg_cuda.plugin

    both = registry_with(tcfg_cuda.plugin, tcfg_aarch64.plugin)
    for name in ("nvidia/jetson-nano", "nvidia/jetson-agx-xavier", "nvidia/jetson-agx-orin", "nvidia/jetson-thor"):
        host = tcfg.Target(name, registry=both).host
        assert host is not None and "arm_cpu" in host.keys, name
        assert host.features.neon is True, name


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk: each kind's default target, every tag and variant, no PluginWarning."""
    check_plugin(tcfg_cuda.plugin)
