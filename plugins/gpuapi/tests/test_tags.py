"""Device tags: every tag builds, round-trips and cites a dated source; TVM's Adreno tags equal TVM's."""

from __future__ import annotations

import pytest

import tcfg
import tcfg_gpuapi.plugin
from tcfg.testing import check_plugin
from tcfg_gpuapi.tags import device_tags

TAGS = list(device_tags())


@pytest.mark.parametrize("tag", TAGS, ids=lambda t: t.name)
def test_tag_builds_round_trips_and_cites(reg: tcfg.Registry, tag: object) -> None:
    name = tag.name  # type: ignore[attr-defined]
    t = tcfg.Target(name, registry=reg)
    assert t.tag == name
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t
    entry = reg.tag_entry(name)
    assert entry.description and any(year in entry.source for year in ("2023", "2024", "2025", "2026"))


def test_required_devices_are_tagged(reg: tcfg.Registry) -> None:
    names = set(reg.list_tags())
    for prefix in (
        "vulkan/arm-mali-g78",
        "vulkan/arm-mali-g710",
        "vulkan/qualcomm-adreno-6",
        "vulkan/qualcomm-adreno-7",
        "vulkan/apple-m",
        "vulkan/amd-radeon-rx",
        "vulkan/nvidia-geforce",
        "vulkan/intel-arc",
        "vulkan/mesa-llvmpipe",
    ):
        assert any(n.startswith(prefix) for n in names), prefix


def test_tag_overrides(reg: tcfg.Registry) -> None:
    t = tcfg.Target("vulkan/mesa-llvmpipe-22 -supports_cooperative_matrix=false", registry=reg)
    assert t.features.cooperative_matrix is False and t.features.float16 is True


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk: each kind's default target, every tag and variant, no PluginWarning."""
    check_plugin(tcfg_gpuapi.plugin)
