"""Detection: a recorded ``vulkaninfo --json`` of lavapipe, and the real vulkaninfo when installed."""

from __future__ import annotations

import re
import subprocess

import pytest

import tcfg
from tcfg_gpuapi import detect_vulkan, device_attrs
from tcfg_gpuapi.detect import device_count

from .conftest import fixture_json, tool

FIXTURE = "vulkaninfo-llvmpipe-mesa-22.3.6.json"


def test_recorded_lavapipe_report(reg: tcfg.Registry) -> None:
    profile = fixture_json(FIXTURE)
    props = profile["capabilities"]["device"]["properties"]
    limits = props["VkPhysicalDeviceProperties"]["limits"]
    t = tcfg.Target(device_attrs(profile), registry=reg)
    assert t.attrs["max_threads_per_block"] == limits["maxComputeWorkGroupInvocations"]
    assert [t.attrs[f"max_block_size_{a}"] for a in "xyz"] == limits["maxComputeWorkGroupSize"]
    assert t.attrs["max_shared_memory_per_block"] == limits["maxComputeSharedMemorySize"]
    assert t.attrs["thread_warp_size"] == props["VkPhysicalDeviceSubgroupProperties"]["subgroupSize"]
    assert t.attrs["device_name"] == props["VkPhysicalDeviceProperties"]["deviceName"]
    assert t.attrs["device_type"] == "cpu"
    features = profile["capabilities"]["device"]["features"]
    assert t.features.float16 is features["VkPhysicalDeviceVulkan12Features"]["shaderFloat16"]
    assert t.features.float64 is features["VkPhysicalDeviceFeatures"]["shaderFloat64"]
    assert t.features.buffer_8bit is features["VkPhysicalDeviceVulkan12Features"]["storageBuffer8BitAccess"]
    ops = props["VkPhysicalDeviceSubgroupProperties"]["supportedOperations"]
    assert t.features.subgroup_clustered is ("VK_SUBGROUP_FEATURE_CLUSTERED_BIT" in ops)
    assert t.features.subgroup_quad is ("VK_SUBGROUP_FEATURE_QUAD_BIT" in ops)
    assert t.features.vulkan_version == "1.3" and t.features.spirv_version == "1.6"
    assert tcfg.Target(str(t), registry=reg) == t


def test_not_a_profile_is_a_target_error() -> None:
    with pytest.raises(tcfg.TargetError, match="capabilities"):
        device_attrs({"devices": []})
    with pytest.raises(tcfg.TargetError, match="limits"):
        device_attrs({"capabilities": {"device": {"properties": {}}}})


def test_summary_device_count() -> None:
    assert device_count("Devices:\n========\nGPU0:\n\tapiVersion = 1.3\nGPU1:\n\tapiVersion = 1.2\n") == 2
    assert device_count("Devices:\n========\n") == 0


def test_no_vulkaninfo_is_no_device() -> None:
    assert detect_vulkan("no-such-vulkaninfo-here") == []


def test_real_vulkaninfo(reg: tcfg.Registry) -> None:
    path = tool("vulkaninfo", "Debian vulkan-tools, with mesa-vulkan-drivers for lavapipe")
    summary = subprocess.run([path, "--summary"], capture_output=True, text=True, timeout=60, check=False).stdout
    names = re.findall(r"^\s*deviceName\s*=\s*(.+?)\s*$", summary, re.MULTILINE)
    if not names:
        pytest.skip("vulkaninfo lists no Vulkan device here (no ICD such as lavapipe)")
    found = detect_vulkan()
    assert [spec["device_name"] for spec in found] == names
    for spec in found:
        t = tcfg.Target(spec, registry=reg)
        assert tcfg.Target(t.export(), registry=reg) == t
    detected = [t for t in reg.detect() if t.kind.name == "vulkan"]
    assert [t.attrs["device_name"] for t in detected] == names
