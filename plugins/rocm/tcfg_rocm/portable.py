"""The portable vocabulary for ``rocm`` targets, read from the processor's LLVM AMDGPU features and the attributes."""

from __future__ import annotations

from typing import Any

from tcfg.plugin import CPU_ONLY, Answer, Answers, from_attrs, from_vendor, none

__all__ = ["portable"]

_ME = "rocm"
#: The attributes that answer portable names: (portable name, attribute, what it is).
_ATTRS = (
    ("max_threads_per_block", "max_threads_per_block", "-max_threads_per_block"),
    ("l2_cache_bytes", "l2_cache_size_bytes", "-l2_cache_size_bytes"),
    ("cores", "multi_processor_count", "-multi_processor_count (compute units)"),
)


def _has(f: Any, name: str) -> bool:
    return f.vendor(name) is not False


def _matrix(f: Any) -> tuple[str, list[str], str]:
    """The matrix engine (mfma, wmma or ''), its input formats, and the vendor facts behind them."""
    if _has(f, "mai_insts"):
        formats = ["fp16", "bf16", "int8"]
        if _has(f, "fp8_insts"):
            formats += ["fp8_e4m3", "fp8_e5m2"]
        if _has(f, "gfx90a_insts"):
            formats.append("fp64")
        return "mfma", formats, "mai_insts (MFMA: fp16, bf16, int8), fp8_insts (fp8), gfx90a_insts (fp64)"
    if _has(f, "gfx12_insts"):
        return (
            "wmma",
            ["fp16", "bf16", "int8", "int4", "fp8_e4m3", "fp8_e5m2"],
            "gfx12_insts (WMMA: fp16, bf16, iu8, iu4, fp8, bf8)",
        )
    if _has(f, "gfx11_insts"):
        return "wmma", ["fp16", "bf16", "int8", "int4"], "gfx11_insts (WMMA: fp16, bf16, iu8, iu4)"
    return "", [], "neither mai_insts (MFMA) nor gfx11_insts/gfx12_insts (WMMA)"


def portable(target: Any) -> Answers:
    """Every portable name for an AMD GPU target."""
    f = target.features
    engine, formats, why = _matrix(f)
    fp8 = from_vendor(f, _ME, ("fp8_insts", "gfx12_insts"))
    attrs = target.attrs
    result = {
        "fp16": from_vendor(f, _ME, ("16_bit_insts",)),
        "bf16": from_vendor(f, _ME, ("mai_insts", "gfx11_insts", "gfx12_insts", "bf16_pk_insts")),
        "fp8_e4m3": fp8,
        "fp8_e5m2": fp8,
        "fp64": Answer(True, "every AMDGPU generation LLVM knows (SI to GFX12) includes FeatureFP64: fp64 in hardware"),
        "int8_dot": from_vendor(f, _ME, ("dot1_insts", "dot7_insts", "dot8_insts", "mai_insts")),
        "int4": from_vendor(f, _ME, ("dot1_insts", "dot7_insts", "dot8_insts", "gfx11_insts", "gfx12_insts")),
        **none(
            "an AMD GPU is SIMT: it has no vector registers (see warp_size)",
            CPU_ONLY,
        ),
        "matrix": Answer(bool(engine), f"{_ME}'s {why}"),
        "matrix_engine": Answer(engine, f"{_ME}'s {why}"),
        "matrix_formats": Answer(",".join(formats), f"{_ME}'s {why}"),
        "warp_size": Answer(
            attrs.get("thread_warp_size") or f.vendor("wavefront_size"), f"{_ME}'s {f.vendor_explain('wavefront_size')}"
        ),
    }
    shared = attrs.get("max_shared_memory_per_block")
    result["shared_memory_bytes"] = (
        Answer(shared, "the target's -max_shared_memory_per_block")
        if shared is not None
        else Answer(f.vendor("lds_size"), f"{_ME}'s {f.vendor_explain('lds_size')}")
    )
    result.update(from_attrs(target, _ATTRS))
    return result
