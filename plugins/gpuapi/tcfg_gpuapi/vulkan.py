"""The ``vulkan`` target kind: TVM 0.27's attributes and defaults, features, and the parser.

Each ``supports_*`` attribute is also a feature without the prefix (``supports_float16``
-> ``float16``; ``supports_8bit_buffer`` -> ``buffer_8bit``), False unless set: a
device's optional capabilities are assumed absent until given or detected, as TVM does.
The parser derives the Vulkan and SPIR-V versions (features ``vulkan_version`` and
``spirv_version``), one ``subgroup_*`` feature per subgroup operation bit, and refuses
what no Vulkan device can be (:func:`tcfg_gpuapi.spirv.spirv_env`), a thread limit above
the block limit, a subgroup size outside the given subgroup size range, and a host that is
not a CPU target.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from tcfg.plugin import (
    Attr,
    AttributeValueError,
    Boolean,
    Choice,
    Derived,
    DeriveRequest,
    Feature,
    FeatureValue,
    Integer,
    String,
    StringList,
    TargetKind,
)
from tcfg_gpuapi.common import check_cpu_host, check_threads
from tcfg_gpuapi.spirv import SpirvEnv, spirv_env

__all__ = ["FEATURES", "SUPPORTS", "VULKAN", "feature_of", "parse_vulkan"]

#: TVM's ``supports_*`` attributes, in TVM's order, with what each means.
SUPPORTS: tuple[tuple[str, str], ...] = (
    ("supports_float16", "16-bit float arithmetic in shaders (shaderFloat16)."),
    ("supports_float32", "32-bit float arithmetic (every Vulkan device)."),
    ("supports_float64", "64-bit float arithmetic (shaderFloat64)."),
    ("supports_int8", "8-bit integer arithmetic (shaderInt8)."),
    ("supports_int16", "16-bit integer arithmetic (shaderInt16)."),
    ("supports_int32", "32-bit integer arithmetic (every Vulkan device)."),
    ("supports_int64", "64-bit integer arithmetic (shaderInt64)."),
    ("supports_8bit_buffer", "8-bit loads and stores in storage buffers (storageBuffer8BitAccess)."),
    ("supports_16bit_buffer", "16-bit loads and stores in storage buffers (storageBuffer16BitAccess)."),
    ("supports_storage_buffer_storage_class", "The StorageBuffer storage class (VK_KHR_storage_buffer_storage_class)."),
    ("supports_push_descriptor", "Push descriptors (VK_KHR_push_descriptor)."),
    ("supports_dedicated_allocation", "Dedicated allocations (VK_KHR_dedicated_allocation)."),
    ("supports_integer_dot_product", "Integer dot product instructions (shaderIntegerDotProduct)."),
    ("supports_cooperative_matrix", "Cooperative matrix operations (VK_KHR_cooperative_matrix)."),
)

_SUBGROUP_OPERATIONS = (
    ("basic", "GroupNonUniform"),
    ("vote", "GroupNonUniformVote"),
    ("arithmetic", "GroupNonUniformArithmetic"),
    ("ballot", "GroupNonUniformBallot"),
    ("shuffle", "GroupNonUniformShuffle"),
    ("shuffle_relative", "GroupNonUniformShuffleRelative"),
    ("clustered", "GroupNonUniformClustered"),
    ("quad", "GroupNonUniformQuad"),
    ("partitioned", "GroupNonUniformPartitionedNV"),
    ("rotate", "GroupNonUniformRotateKHR"),
    ("rotate_clustered", "GroupNonUniformRotateKHR with a cluster size"),
)


def feature_of(attr: str) -> str:
    """The feature name of a ``supports_*`` attribute: the prefix dropped, a leading digit group moved last."""
    rest = attr.removeprefix("supports_")
    head, _, tail = rest.partition("_")
    return f"{tail}_{head}" if head[:1].isdigit() else rest


def _limit(name: str, doc: str, default: int | None = None) -> Attr:
    return Attr(name, Integer(minimum=0), default=default, doc=doc)


_ATTRS = (
    Attr("mattr", StringList(), doc="SPIR-V code generator attributes (TVM's mattr)."),
    *(Attr(name, Boolean(), default=True if name in ("supports_float32", "supports_int32") else None, doc=doc)
      for name, doc in SUPPORTS),
    _limit("supported_subgroup_operations", "VkSubgroupFeatureFlagBits of subgroup operations in compute shaders."),
    Attr(
        "max_num_threads",
        Integer(minimum=1),
        doc="Threads per workgroup that schedules may use; at most max_threads_per_block, "
        "which it follows when not given.",
    ),
    Attr("max_threads_per_block", Integer(minimum=1), default=256, doc="maxComputeWorkGroupInvocations."),
    Attr("thread_warp_size", Integer(minimum=1), default=1, doc="The subgroup size (1: unknown, no subgroups)."),
    _limit("max_block_size_x", "maxComputeWorkGroupSize[0]."),
    _limit("max_block_size_y", "maxComputeWorkGroupSize[1]."),
    _limit("max_block_size_z", "maxComputeWorkGroupSize[2]."),
    _limit("max_push_constants_size", "maxPushConstantsSize (bytes)."),
    _limit("max_uniform_buffer_range", "maxUniformBufferRange (bytes)."),
    _limit("max_storage_buffer_range", "maxStorageBufferRange (bytes)."),
    _limit("max_per_stage_descriptor_storage_buffer", "maxPerStageDescriptorStorageBuffers."),
    _limit("max_shared_memory_per_block", "maxComputeSharedMemorySize (bytes)."),
    Attr("device_type", Choice(("integrated", "discrete", "virtual", "cpu", "other")), doc="VkPhysicalDeviceType."),
    Attr("device_name", String(), doc="VkPhysicalDeviceProperties::deviceName."),
    Attr("driver_name", String(), doc="VkPhysicalDeviceDriverProperties::driverName."),
    _limit("driver_version", "VkPhysicalDeviceProperties::driverVersion."),
    _limit("vulkan_api_version", "VK_MAKE_API_VERSION(0, major, minor, patch) of the API version used (1.3: 4206592)."),
    _limit("max_spirv_version", "The highest SPIR-V version word the device consumes (1.5: 0x10500 = 66816)."),
    _limit("vendor_id", "VkPhysicalDeviceProperties::vendorID (tcfg; not in TVM)."),
    _limit("min_subgroup_size", "minSubgroupSize of VK_EXT_subgroup_size_control (tcfg; not in TVM)."),
    _limit("max_subgroup_size", "maxSubgroupSize of VK_EXT_subgroup_size_control (tcfg; not in TVM)."),
)  # fmt: skip

#: Every feature the vulkan kind derives.
FEATURES = (
    *(Feature(feature_of(name), f"{doc} (-{name})") for name, doc in SUPPORTS),
    Feature("vulkan_version", 'The Vulkan API version shaders target, as text ("1.3").'),
    Feature("spirv_version", 'The SPIR-V version shaders are written in, as text ("1.6").'),
    *(Feature(f"subgroup_{name}", f"Subgroup {name.replace('_', ' ')} operations ({cap}).")
      for name, cap in _SUBGROUP_OPERATIONS),
)  # fmt: skip


def _why_version(env: SpirvEnv) -> dict[str, str]:
    vulkan = "-vulkan_api_version" if env.vulkan_given else f"the least Vulkan version that takes SPIR-V {env.spirv}"
    if env.spirv_given:
        spirv = "-max_spirv_version"
    elif env.vulkan_given:
        spirv = f"the highest SPIR-V version Vulkan {env.vulkan} consumes"
    else:
        spirv = "no -vulkan_api_version or -max_spirv_version: Vulkan 1.0's SPIR-V 1.0 (TVM's default)"
    return {"vulkan_version": vulkan, "spirv_version": spirv}


@functools.cache
def _facts(api: int | None, spirv: int | None, supports: frozenset[str], subgroup_mask: int, threads: int) -> Derived:
    """Features of one combination of versions, capabilities, subgroup bits and block size (one object each).

    ``max_num_threads`` follows ``max_threads_per_block`` (``threads``) when not given.
    """
    env = spirv_env(api, spirv, supports, subgroup_mask)
    features: dict[str, FeatureValue] = {feature_of(name): True for name in supports}
    features["vulkan_version"] = env.vulkan
    features["spirv_version"] = env.spirv
    why = {feature_of(name): f"-{name}=true" for name in supports}
    for name in env.subgroup_operations:
        features[f"subgroup_{name}"] = True
        why[f"subgroup_{name}"] = f"-supported_subgroup_operations={subgroup_mask}"
    why.update(_why_version(env))
    return Derived(features=features, why=why, defaults={"max_num_threads": threads})


def parse_vulkan(request: DeriveRequest) -> Derived:
    """Check the limits and versions, and derive the features."""
    attrs: Mapping[str, Any] = request.attrs
    check_cpu_host("vulkan", attrs.get("host"))
    check_threads(attrs)
    warp, low, high = attrs["thread_warp_size"], attrs.get("min_subgroup_size"), attrs.get("max_subgroup_size")
    if low is not None and high is not None and low > high:
        raise AttributeValueError(f"-min_subgroup_size={low} exceeds -max_subgroup_size={high}")
    if warp > 1 and ((low is not None and warp < low) or (high is not None and warp > high)):
        raise AttributeValueError(
            f"-thread_warp_size={warp} is outside the subgroup sizes the device runs "
            f"(-min_subgroup_size={low}, -max_subgroup_size={high})"
        )
    supports = frozenset(name for name, _ in SUPPORTS if attrs.get(name))
    return _facts(
        attrs.get("vulkan_api_version"),
        attrs.get("max_spirv_version"),
        supports,
        attrs.get("supported_subgroup_operations") or 0,
        attrs["max_threads_per_block"],
    )


VULKAN = TargetKind(
    name="vulkan",
    device_type="vulkan",
    attrs=_ATTRS,
    default_keys=("vulkan", "gpu"),
    parser=parse_vulkan,
    parse_reads=(
        *(name for name, _ in SUPPORTS),
        "supported_subgroup_operations",
        "vulkan_api_version",
        "max_spirv_version",
        "max_num_threads",
        "max_threads_per_block",
        "thread_warp_size",
        "min_subgroup_size",
        "max_subgroup_size",
        "host",
    ),
    features=FEATURES,
    doc="A GPU (or CPU) programmed through Vulkan compute shaders in SPIR-V; TVM 0.27's attributes.",
)
