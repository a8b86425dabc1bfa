"""The portable vocabulary for ``cuda`` and ``nvptx`` targets, from the arch's features and the attributes."""

from __future__ import annotations

from typing import Any

from tcfg.plugin import CPU_ONLY, Answer, Answers, from_attrs, from_vendor, none

__all__ = ["portable"]

_ME = "cuda"
#: Tensor-core input formats: (the vendor feature, or a compute capability, that gives them; portable names).
_TENSOR_FORMATS = (
    ("tensor_cores", "fp16"),
    ("bf16", "bf16"),
    ("int8_tensor_cores", "int8"),
    ("fp8", "fp8_e4m3,fp8_e5m2"),
)
#: The attributes that answer portable names: (portable name, attribute, what it is).
_ATTRS = (
    ("max_threads_per_block", "max_threads_per_block", "-max_threads_per_block"),
    ("shared_memory_bytes", "max_shared_memory_per_block", "-max_shared_memory_per_block"),
    ("l2_cache_bytes", "l2_cache_size_bytes", "-l2_cache_size_bytes"),
    ("cores", "multi_processor_count", "-multi_processor_count (streaming multiprocessors)"),
)


def _capability(features: Any) -> tuple[int, int] | None:
    """The compute capability as numbers ("8.6" -> (8, 6)), or None for a target without an arch."""
    text = features.vendor("compute_capability")
    if text is False:
        return None
    major, _, minor = str(text).partition(".")
    return int(major), int(minor or 0)


def portable(target: Any) -> Answers:
    """Every portable name for an NVIDIA GPU target."""
    f = target.features
    cc = _capability(f) or (0, 0)
    arch = f"compute capability {cc[0]}.{cc[1]}" if cc != (0, 0) else "a target without an arch"
    tensor = f.vendor("tensor_cores") is not False
    int4 = tensor and cc >= (7, 5)
    formats = [name for feature, name in _TENSOR_FORMATS if f.vendor(feature) is not False] if tensor else []
    if int4:
        formats.insert(3, "int4")
    fp8 = from_vendor(f, _ME, ("fp8",))
    attrs = target.attrs
    result = {
        "fp16": from_vendor(f, _ME, ("fp16",)),
        "bf16": from_vendor(f, _ME, ("bf16",)),
        "fp8_e4m3": fp8,
        "fp8_e5m2": fp8,
        "fp64": Answer(True, "every CUDA arch executes fp64 in hardware (PTX's .f64 arithmetic)"),
        "int8_dot": from_vendor(f, _ME, ("dp4a", "int8_tensor_cores")),
        "int4": Answer(int4, f"tensor-core mma with .s4/.u4 inputs needs sm_75 or later ({arch})"),
        **none(
            "a CUDA GPU is SIMT: it has no vector registers (see warp_size)",
            CPU_ONLY,
        ),
        "matrix": from_vendor(f, _ME, ("tensor_cores",)),
        "matrix_engine": Answer("tensor_cores" if tensor else "", f"{_ME}'s tensor_cores is {tensor}"),
        "matrix_formats": Answer(
            ",".join(formats),
            f"tensor-core inputs of {arch}: {_ME}'s tensor_cores (fp16), bf16, int8_tensor_cores, fp8; int4 from sm_75",
        ),
    }
    warp = attrs.get("thread_warp_size")
    result["warp_size"] = Answer(
        warp if warp is not None else 32,
        "-thread_warp_size" if warp is not None else "every NVIDIA GPU's warp is 32 threads",
    )
    result.update(from_attrs(target, _ATTRS))
    return result
