"""The kinds of this plugin, ``vulkan``, ``opencl`` and ``webgpu``: TVM 0.27's attributes and defaults,
features, and parsers, with the checks every one of them makes (the host is a CPU, thread limits agree).

``vulkan``: each ``supports_*`` attribute is also a feature without the prefix (``supports_float16``
-> ``float16``; ``supports_8bit_buffer`` -> ``buffer_8bit``), False unless set: a
device's optional capabilities are assumed absent until given or detected, as TVM does.
The parser derives the Vulkan and SPIR-V versions (features ``vulkan_version`` and
``spirv_version``), one ``subgroup_*`` feature per subgroup operation bit, and refuses
what no Vulkan device can be (:func:`tcfg_gpuapi.facts.spirv_env`), a thread limit above
the block limit, a subgroup size outside the given subgroup size range, and a host that is
not a CPU target.

``opencl``: ``opencl_c_version`` (tcfg's; TVM has none) is the OpenCL C version kernels are
compiled as (1.2 by default: what TVM's generated kernels need, and what every
OpenCL 1.2+ device compiles).

``webgpu``: TVM's default workgroup storage (32768 bytes) is twice the WebGPU specification's default
``maxComputeWorkgroupStorageSize`` (16384): a device must be requested with the higher
limit; the codegen lists such required limits (:mod:`tcfg_gpuapi.codegen`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from tcfg.plugin import (
    Answers,
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
from tcfg_gpuapi.facts import SpirvEnv, spirv_env

__all__ = [
    "OPENCL",
    "OPENCL_C_VERSIONS",
    "OPENCL_FEATURES",
    "SUPPORTS",
    "VULKAN",
    "VULKAN_FEATURES",
    "WEBGPU",
    "check_cpu_host",
    "check_threads",
    "feature_of",
    "parse_opencl",
    "parse_vulkan",
    "parse_webgpu",
]


def check_cpu_host(kind: str, host: Any) -> None:
    """Refuse a host that is not a CPU target: it runs the host side of the device's code."""
    if host is None or host.kind.device_type == "cpu":
        return
    raise AttributeValueError(
        f"-host={host}: the host of a {kind} target runs its host-side code, so it must be a CPU target "
        f"(such as llvm or c); kind {host.kind.name!r} is a {host.kind.device_type} device"
    )


def check_threads(attrs: Mapping[str, Any]) -> None:
    """Refuse ``max_num_threads`` above ``max_threads_per_block`` (where the kind has both)."""
    threads, most = attrs.get("max_num_threads"), attrs.get("max_threads_per_block")
    if threads is not None and most is not None and threads > most:
        raise AttributeValueError(f"-max_num_threads={threads} exceeds -max_threads_per_block={most}")


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


_VULKAN_ATTRS = (
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
VULKAN_FEATURES = (
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
def _vulkan_facts(
    api: int | None, spirv: int | None, supports: frozenset[str], subgroup_mask: int, threads: int
) -> Derived:
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
    return _vulkan_facts(
        attrs.get("vulkan_api_version"),
        attrs.get("max_spirv_version"),
        supports,
        attrs.get("supported_subgroup_operations") or 0,
        attrs["max_threads_per_block"],
    )


def _portable(target: Any) -> Answers:
    from tcfg_gpuapi.portable import portable  # read at the first portable name, not at start-up

    return portable(target)


VULKAN = TargetKind(
    name="vulkan",
    device_type="vulkan",
    dlpack_device_type=7,  # kDLVulkan in dlpack.h
    attrs=_VULKAN_ATTRS,
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
    features=VULKAN_FEATURES,
    portable=_portable,
    doc="A GPU (or CPU) programmed through Vulkan compute shaders in SPIR-V; TVM 0.27's attributes.",
)


#: OpenCL C versions clang's -cl-std accepts (CL1.2, CL2.0, CL3.0).
OPENCL_C_VERSIONS = ("1.2", "2.0", "3.0")

_OPENCL_ATTRS = (
    Attr("max_threads_per_block", Integer(minimum=1), default=256, doc="CL_DEVICE_MAX_WORK_GROUP_SIZE."),
    Attr("max_shared_memory_per_block", Integer(minimum=0), default=16384, doc="CL_DEVICE_LOCAL_MEM_SIZE (bytes)."),
    Attr(
        "max_num_threads",
        Integer(minimum=1),
        doc="Work-items per work-group that schedules may use; follows max_threads_per_block when not given.",
    ),
    Attr("thread_warp_size", Integer(minimum=1), default=1, doc="The sub-group size (1: unknown)."),
    Attr("texture_spatial_limit", Integer(minimum=1), default=16384, doc="Largest 2D image width/height (pixels)."),
    Attr("texture_depth_limit", Integer(minimum=1), default=2048, doc="Largest image array size (layers)."),
    Attr(
        "max_function_args", Integer(minimum=1), default=128, doc="Most kernel arguments (CL_DEVICE_MAX_CONSTANT_ARGS)."
    ),
    Attr(
        "image_base_address_alignment",
        Integer(minimum=1),
        default=64,
        doc="CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT (pixels) for images made from buffers.",
    ),
    Attr(
        "opencl_c_version",
        Choice(OPENCL_C_VERSIONS),
        default="1.2",
        doc="The OpenCL C version kernels are compiled as (tcfg; not in TVM).",
    ),
    Attr(
        "device_type",
        Choice(("discrete", "integrated", "cpu", "other")),
        doc="CL_DEVICE_TYPE; a GPU sharing host memory is integrated (tcfg; not in TVM).",
    ),
    Attr("device_name", String(), doc="CL_DEVICE_NAME (tcfg; not in TVM)."),
    Attr("platform_name", String(), doc="CL_PLATFORM_NAME of the device's platform (tcfg; not in TVM)."),
    Attr("driver_version", String(), doc="CL_DRIVER_VERSION (tcfg; not in TVM)."),
    _limit("vendor_id", "CL_DEVICE_VENDOR_ID (tcfg; not in TVM)."),
)

OPENCL_FEATURES = (Feature("opencl_c_version", 'The OpenCL C version kernels are compiled as, as text ("1.2").'),)


@functools.cache
def _opencl_facts(version: str, threads: int) -> Derived:
    return Derived(
        features={"opencl_c_version": version},
        why={"opencl_c_version": "-opencl_c_version (1.2 unless given)"},
        defaults={"max_num_threads": threads},
    )


def parse_opencl(request: DeriveRequest) -> Derived:
    """Check the host and thread limits; the OpenCL C version is a feature."""
    check_cpu_host("opencl", request.attrs.get("host"))
    check_threads(request.attrs)
    return _opencl_facts(request.attrs["opencl_c_version"], request.attrs["max_threads_per_block"])


OPENCL = TargetKind(
    name="opencl",
    device_type="opencl",
    dlpack_device_type=4,  # kDLOpenCL in dlpack.h
    attrs=_OPENCL_ATTRS,
    default_keys=("opencl", "gpu"),
    parser=parse_opencl,
    parse_reads=("opencl_c_version", "max_threads_per_block", "max_num_threads", "host"),
    features=OPENCL_FEATURES,
    portable=_portable,
    doc="A device programmed through OpenCL C kernels; TVM 0.27's attributes.",
)


_WEBGPU_ATTRS = (
    Attr("max_num_threads", Integer(minimum=1), default=256, doc="Invocations per workgroup schedules may use."),
    Attr("max_shared_memory_per_block", Integer(minimum=0), default=32768, doc="Workgroup storage (bytes)."),
    Attr("supports_subgroups", Boolean(), default=False, doc="The WebGPU 'subgroups' feature (WGSL enable subgroups)."),
    Attr("thread_warp_size", Integer(minimum=1), default=1, doc="The subgroup size: 1 without subgroups, 32 with."),
)


#: The subgroup size TVM 0.27's WebGPU codegen assumes when the device has subgroups.
WEBGPU_SUBGROUP_SIZE = 32


@functools.cache
def _webgpu_facts(subgroups: bool, warp: int) -> Derived:
    if not subgroups:
        if warp > 1:
            raise AttributeValueError(
                f"-thread_warp_size={warp} needs -supports_subgroups=true (without subgroups a WebGPU "
                "thread group has no subgroup; TVM 0.27 refuses it too)"
            )
        return Derived()
    if warp not in (1, WEBGPU_SUBGROUP_SIZE):
        raise AttributeValueError(
            f"-thread_warp_size={warp}: WebGPU code with subgroups is generated for "
            f"{WEBGPU_SUBGROUP_SIZE}-wide subgroups (TVM 0.27 sets it to {WEBGPU_SUBGROUP_SIZE}); "
            f"give -thread_warp_size={WEBGPU_SUBGROUP_SIZE} or leave it out"
        )
    return Derived(
        attrs=None,
        features={"subgroups": True},
        why={"subgroups": "-supports_subgroups=true"},
        defaults={"thread_warp_size": WEBGPU_SUBGROUP_SIZE},
    )


def parse_webgpu(request: DeriveRequest) -> Derived:
    """Check the host; ``supports_subgroups`` is the ``subgroups`` feature and makes ``thread_warp_size``
    32 (TVM 0.27's rule); a subgroup size without subgroups is refused."""
    check_cpu_host("webgpu", request.attrs.get("host"))
    return _webgpu_facts(bool(request.attrs["supports_subgroups"]), request.attrs["thread_warp_size"])


WEBGPU = TargetKind(
    name="webgpu",
    device_type="webgpu",
    dlpack_device_type=15,  # kDLWebGPU in dlpack.h
    attrs=_WEBGPU_ATTRS,
    default_keys=("webgpu", "gpu"),
    parser=parse_webgpu,
    parse_reads=("supports_subgroups", "thread_warp_size", "host"),
    features=(Feature("subgroups", "WebGPU subgroup operations (the 'subgroups' feature, WGSL enable subgroups)."),),
    portable=_portable,
    doc="A GPU programmed through WebGPU compute shaders in WGSL; TVM 0.27's attributes.",
)
