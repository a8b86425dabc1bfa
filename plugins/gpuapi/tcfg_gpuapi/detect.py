"""This machine's Vulkan devices, found with ``vulkaninfo`` (Vulkan-Tools), and the reader of recorded
devices in Vulkan Profiles JSON.

``vulkaninfo --summary`` lists the devices (``GPU0:``, ``GPU1:``, ...); ``vulkaninfo
--json=N -o FILE`` writes device N as Vulkan Profiles JSON (vulkaninfo 1.3.2xx writes
the file in the working directory even without ``-o``, so it runs in a temporary one),
which :func:`device_attrs` reads. No vulkaninfo, or no device, is
an empty list; a device whose report cannot be read is a :class:`TargetError`.

``vulkaninfo --json`` writes Vulkan Profiles JSON, and vulkan.gpuinfo.org exports its reports in
it (the Khronos Vulkan-Profiles repository keeps many). Structures may carry vendor
suffixes (``VkPhysicalDevice16BitStorageFeaturesKHR``) and a report may split them into
several capability blocks, so fields are looked up by name across all of them. What is
read follows TVM 0.27's ``VulkanDeviceProperties`` (its ``-from_device``): the API
version is limited by the driver's conformance version, and subgroup operations count
only when compute shaders have them.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tcfg.plugin import TargetError
from tcfg_gpuapi.facts import encode_api_version, encode_spirv_version

__all__ = ["detect_vulkan", "device_attrs", "device_count", "recorded_devices"]


_DEVICE_TYPES = {
    "VK_PHYSICAL_DEVICE_TYPE_OTHER": "other",
    "VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU": "integrated",
    "VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU": "discrete",
    "VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU": "virtual",
    "VK_PHYSICAL_DEVICE_TYPE_CPU": "cpu",
}
_SUBGROUP_BITS = {
    "VK_SUBGROUP_FEATURE_BASIC_BIT": 1,
    "VK_SUBGROUP_FEATURE_VOTE_BIT": 2,
    "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT": 4,
    "VK_SUBGROUP_FEATURE_BALLOT_BIT": 8,
    "VK_SUBGROUP_FEATURE_SHUFFLE_BIT": 16,
    "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT": 32,
    "VK_SUBGROUP_FEATURE_CLUSTERED_BIT": 64,
    "VK_SUBGROUP_FEATURE_QUAD_BIT": 128,
    "VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV": 256,
    "VK_SUBGROUP_FEATURE_ROTATE_BIT": 512,
    "VK_SUBGROUP_FEATURE_ROTATE_BIT_KHR": 512,
    "VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT": 1024,
    "VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT_KHR": 1024,
}
#: supports_* attributes read from a feature field that is true in any structure.
_FEATURE_FIELDS = {
    "supports_float16": "shaderFloat16",
    "supports_float64": "shaderFloat64",
    "supports_int8": "shaderInt8",
    "supports_int16": "shaderInt16",
    "supports_int64": "shaderInt64",
    "supports_8bit_buffer": "storageBuffer8BitAccess",
    "supports_16bit_buffer": "storageBuffer16BitAccess",
    "supports_integer_dot_product": "shaderIntegerDotProduct",
    "supports_cooperative_matrix": "cooperativeMatrix",
}
#: Limits (VkPhysicalDeviceLimits fields) by target attribute.
_LIMITS = {
    "max_push_constants_size": "maxPushConstantsSize",
    "max_uniform_buffer_range": "maxUniformBufferRange",
    "max_storage_buffer_range": "maxStorageBufferRange",
    "max_per_stage_descriptor_storage_buffer": "maxPerStageDescriptorStorageBuffers",
    "max_shared_memory_per_block": "maxComputeSharedMemorySize",
}


def _blocks(profile: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    capabilities = profile.get("capabilities")
    if not isinstance(capabilities, Mapping) or not capabilities:
        raise TargetError("not Vulkan Profiles JSON (as vulkaninfo --json writes): it has no 'capabilities'")
    for block in capabilities.values():
        if isinstance(block, Mapping):
            yield block


def _fields(profile: Mapping[str, Any], section: str) -> dict[str, Any]:
    """Every field of every structure of ``section`` (``features``/``properties``), first occurrence wins.

    ``VkPhysicalDeviceProperties.limits`` is flattened into the same table.
    """
    out: dict[str, Any] = {}
    for block in _blocks(profile):
        for structure in (block.get(section) or {}).values():
            if not isinstance(structure, Mapping):
                continue
            for name, value in structure.items():
                if isinstance(value, Mapping) and name == "limits":
                    for limit, number in value.items():
                        out.setdefault(limit, number)
                elif section == "features" and value is True:
                    out[name] = True
                else:
                    out.setdefault(name, value)
    return out


def _extensions(profile: Mapping[str, Any]) -> set[str]:
    return {name for block in _blocks(profile) for name in (block.get("extensions") or {})}


def _api_version(props: Mapping[str, Any]) -> int:
    """``apiVersion`` limited to the conformance version the driver passed (as TVM does)."""
    api = props.get("apiVersion")
    if isinstance(api, str):  # "1.3.230" in some exports
        major, minor, *patch = (int(p) for p in api.split("."))
        api = major << 22 | minor << 12 | (patch[0] if patch else 0)
    if not isinstance(api, int):
        raise TargetError("the device reports no apiVersion")
    conformance = props.get("conformanceVersion")
    if isinstance(conformance, Mapping) and (conformance.get("major"), conformance.get("minor")) != (0, 0):
        cmajor, cminor = int(conformance["major"]), int(conformance["minor"])
        if ((api >> 22) & 0x7F, (api >> 12) & 0x3FF) > (cmajor, cminor):
            api = encode_api_version(f"{cmajor}.{cminor}")
    return api


def _subgroup_mask(props: Mapping[str, Any]) -> int:
    stages = props.get("supportedStages", props.get("subgroupSupportedStages", ()))
    operations = props.get("supportedOperations", props.get("subgroupSupportedOperations", ()))
    if "VK_SHADER_STAGE_COMPUTE_BIT" not in stages:
        return 0
    return sum(_SUBGROUP_BITS.get(bit, 0) for bit in operations)


def device_attrs(profile: Mapping[str, Any]) -> dict[str, Any]:
    """The vulkan target attributes (``kind`` included) of the device a Vulkan Profiles JSON describes.

    Raises :class:`TargetError` when the document is not Vulkan Profiles JSON or lacks
    the device's properties.
    """
    features, props, exts = _fields(profile, "features"), _fields(profile, "properties"), _extensions(profile)
    if "maxComputeWorkGroupInvocations" not in props:
        raise TargetError("the Vulkan Profiles JSON has no VkPhysicalDeviceProperties limits")
    api = _api_version(props)
    minor = (api >> 12) & 0x3FF
    attrs: dict[str, Any] = {"kind": "vulkan"}
    for attr, field in _FEATURE_FIELDS.items():
        if features.get(field):
            attrs[attr] = True
    if "VK_KHR_storage_buffer_storage_class" in exts or minor >= 1:
        attrs["supports_storage_buffer_storage_class"] = True
    if ("VK_KHR_push_descriptor" in exts or minor >= 4) and ("VK_KHR_descriptor_update_template" in exts or minor >= 1):
        attrs["supports_push_descriptor"] = True
    if minor >= 1 or {"VK_KHR_get_memory_requirements2", "VK_KHR_dedicated_allocation"} <= exts:
        attrs["supports_dedicated_allocation"] = True
    mask = _subgroup_mask(props)
    if mask:
        attrs["supported_subgroup_operations"] = mask
    invocations = int(props["maxComputeWorkGroupInvocations"])
    attrs["max_num_threads"] = attrs["max_threads_per_block"] = invocations
    attrs["thread_warp_size"] = max(int(props.get("subgroupSize", 1)), 1)
    for axis, size in zip("xyz", props["maxComputeWorkGroupSize"], strict=True):
        attrs[f"max_block_size_{axis}"] = int(size)
    for attr, field in _LIMITS.items():
        if field in props:
            attrs[attr] = int(props[field])
    if props.get("deviceType") in _DEVICE_TYPES:
        attrs["device_type"] = _DEVICE_TYPES[props["deviceType"]]
    for attr, field in (("device_name", "deviceName"), ("driver_name", "driverName")):
        if isinstance(props.get(field), str) and props[field]:
            attrs[attr] = props[field]
    for attr, field in (("driver_version", "driverVersion"), ("vendor_id", "vendorID")):
        if isinstance(props.get(field), int):
            attrs[attr] = props[field]
    attrs["vulkan_api_version"] = api
    if minor == 1 and "VK_KHR_spirv_1_4" in exts:
        attrs["max_spirv_version"] = encode_spirv_version("1.4")
    for attr, field in (("min_subgroup_size", "minSubgroupSize"), ("max_subgroup_size", "maxSubgroupSize")):
        if isinstance(props.get(field), int) and props[field] > 0:
            attrs[attr] = props[field]
    return attrs


_TIMEOUT = 60


def device_count(summary: str) -> int:
    """How many devices ``vulkaninfo --summary`` lists."""
    return len(set(re.findall(r"^GPU(\d+):", summary, re.MULTILINE)))


def _run(args: list[str], cwd: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(args, capture_output=True, text=True, cwd=cwd, timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise TargetError(f"{' '.join(args)} failed: {exc}") from exc


def detect_vulkan(vulkaninfo: str = "vulkaninfo") -> list[dict[str, Any]]:
    """A vulkan target dict per device ``vulkaninfo`` reports (empty without vulkaninfo or devices)."""
    tool = shutil.which(vulkaninfo)
    if tool is None:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        summary = _run([tool, "--summary"], tmp)
        if summary.returncode != 0:
            return []  # no loader, no ICD: no Vulkan device here
        found = []
        for index in range(device_count(summary.stdout)):
            out = Path(tmp) / f"gpu{index}.json"
            done = _run([tool, f"--json={index}", "-o", str(out)], tmp)
            if done.returncode != 0 or not out.exists():
                raise TargetError(f"vulkaninfo --json={index} failed: {done.stderr.strip()[-500:]}")
            try:
                profile = json.loads(out.read_text())
            except ValueError as exc:
                raise TargetError(f"vulkaninfo --json={index} wrote no JSON: {exc}") from exc
            found.append(device_attrs(profile))
    return found


def recorded_devices(texts: Sequence[str]) -> list[dict[str, Any]]:
    """A vulkan target dict per recorded ``vulkaninfo --json`` document (one device each).

    Raises :class:`TargetError` naming the recording for text that is not Vulkan Profiles JSON.
    """
    found = []
    for index, text in enumerate(texts):
        try:
            profile = json.loads(text)
        except ValueError as exc:
            raise TargetError(
                f"recorded vulkaninfo #{index + 1} is not JSON (vulkaninfo --json=N output): {exc}"
            ) from None
        if not isinstance(profile, dict):
            raise TargetError(f"recorded vulkaninfo #{index + 1} is not a Vulkan Profiles JSON object")
        try:
            found.append(device_attrs(profile))
        except TargetError as exc:
            raise TargetError(f"recorded vulkaninfo #{index + 1}: {exc}") from None
    return found
