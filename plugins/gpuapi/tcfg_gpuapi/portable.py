"""The portable vocabulary for ``vulkan``, ``opencl`` and ``webgpu`` targets, read from TVM's attributes.

These APIs describe a device by what the driver reports (vulkaninfo, clinfo, the WebGPU
adapter): an attribute the target does not set is not known, and its portable names read None.
"""

from __future__ import annotations

from typing import Any

from tcfg.plugin import CPU_ONLY, FORMATS, MATRIX, Answer, Answers, none

__all__ = ["portable"]

_VECTORS = CPU_ONLY  # SIMT devices have no vector registers
#: Vulkan's portable names read from a supports_* attribute: (portable name, attribute, the Vulkan fact).
_VULKAN_FLAGS = (
    ("fp16", "supports_float16", "shaderFloat16"),
    ("fp64", "supports_float64", "shaderFloat64"),
    ("int8_dot", "supports_integer_dot_product", "shaderIntegerDotProduct"),
    ("matrix", "supports_cooperative_matrix", "VK_KHR_cooperative_matrix"),
)


def _attr(target: Any, attr: str, what: str) -> Answer:
    value = target.attrs.get(attr)
    if value is None:
        return Answer(None, f"the target does not set -{attr} ({what})")
    return Answer(value, f"the target's -{attr} ({what})")


def _common(target: Any, api: str) -> dict[str, Answer]:
    warp = target.attrs.get("thread_warp_size")
    return {
        **none(f"a {api} device runs SIMT work-items: no vector registers (see warp_size)", _VECTORS),
        "warp_size": Answer(warp, f"the target's -thread_warp_size ({api} subgroup size)")
        if warp is not None and warp > 1
        else Answer(None, f"the target gives no -thread_warp_size above 1 (its {api} subgroup size is not known)"),
        "max_threads_per_block": _attr(
            target, "max_threads_per_block" if api != "WebGPU" else "max_num_threads", "workgroup size limit"
        ),
        "shared_memory_bytes": _attr(target, "max_shared_memory_per_block", "workgroup memory"),
        "l2_cache_bytes": Answer(None, f"{api} does not report cache sizes"),
        "cores": Answer(None, f"TVM's {api} attributes do not give the device's compute units"),
    }


def _described(target: Any) -> str | None:
    """What describes a real device (a tag, or vulkaninfo's vendor, driver or device name), or None."""
    if target.tag is not None:
        return f"the tag {target.tag}"
    attrs = target.attrs
    if attrs.get("vendor_id") is not None or attrs.get("device_name") or attrs.get("driver_name"):
        return "the device's description (vulkaninfo's, as tcfg detect writes it)"
    return None


def vulkan(target: Any) -> Answers:
    """Every portable name for a Vulkan device, from its supports_* attributes (vulkaninfo's features).

    A target that describes a real device (a tag, or a detected device) lists every feature
    the device has, so an unset ``supports_*`` is False there; on a bare ``vulkan`` target it
    is not known (None).
    """
    result = _common(target, "Vulkan")
    device = _described(target)
    for name, attr, fact in _VULKAN_FLAGS:
        result[name] = _attr(target, attr, fact)
        if result[name].value is None and device is not None:
            result[name] = Answer(False, f"{device} does not set -{attr} ({fact})")
    unsaid = "TVM's vulkan attributes do not say ({})"
    result["bf16"] = Answer(None, unsaid.format("VK_KHR_shader_bfloat16"))
    result["fp8_e4m3"] = result["fp8_e5m2"] = Answer(None, unsaid.format("VK_EXT_shader_float8"))
    result["int4"] = Answer(None, unsaid.format("cooperative matrix component types"))
    matrix = result["matrix"].value
    result["matrix_engine"] = Answer(
        "cooperative_matrix" if matrix else "" if matrix is False else None, result["matrix"].why
    )
    result["matrix_formats"] = (
        Answer("", result["matrix"].why)
        if matrix is False
        else Answer(
            None,
            unsaid.format("the cooperative matrix component types (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)"),
        )
    )
    return result


def opencl(target: Any) -> Answers:
    """Every portable name for an OpenCL device: TVM's opencl attributes give its limits, not its formats."""
    unsaid = "TVM's opencl attributes do not give the device's extensions (cl_khr_fp16, cl_khr_fp64, ...)"
    formats = (*FORMATS, *MATRIX)
    return {**_common(target, "OpenCL"), **none(unsaid, formats)}


def webgpu(target: Any) -> Answers:
    """Every portable name for a WebGPU device: WGSL has no fp64 or matrix types; f16 is an adapter feature."""
    wgsl = "WGSL (W3C, 2025) has no {}"
    return {
        **_common(target, "WebGPU"),
        "fp16": Answer(
            None, "f16 is the adapter's optional 'shader-f16' feature, which TVM's webgpu attributes do not give"
        ),
        "bf16": Answer(False, wgsl.format("bfloat16 type")),
        "fp8_e4m3": Answer(False, wgsl.format("8-bit float type")),
        "fp8_e5m2": Answer(False, wgsl.format("8-bit float type")),
        "fp64": Answer(False, wgsl.format("f64 type")),
        "int8_dot": Answer(
            None, "WGSL's dot4I8Packed exists on every adapter, but whether it is one instruction is not reported"
        ),
        "int4": Answer(False, wgsl.format("4-bit integer type")),
        "matrix": Answer(False, wgsl.format("cooperative matrix type")),
        "matrix_engine": Answer("", wgsl.format("cooperative matrix type")),
        "matrix_formats": Answer("", wgsl.format("cooperative matrix type")),
    }


def portable(target: Any) -> Answers:
    """The answers for a target of one of this plugin's kinds."""
    return {"vulkan": vulkan, "opencl": opencl, "webgpu": webgpu}[target.kind.name](target)
