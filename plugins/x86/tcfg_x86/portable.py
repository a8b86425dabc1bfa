"""The portable vocabulary for x86 targets, read from their LLVM features."""

from __future__ import annotations

from typing import Any

from tcfg.plugin import Answer, Answers, from_vendor, none

__all__ = ["portable"]

_ME = "x86"
#: AMX's tile multiply features and the portable format each takes.
_AMX_FORMATS = (("amx_fp16", "fp16"), ("amx_bf16", "bf16"), ("amx_int8", "int8"), ("amx_fp8", "fp8_e4m3,fp8_e5m2"))


def _vector_bits(f: Any, width: Any) -> Answer:
    """The widest vector registers: vector_width_bits (SSE and later), else MMX's 64-bit registers."""
    if width is not False:
        return Answer(width, f"{_ME}'s {f.vendor_explain('vector_width_bits')}")
    if f.vendor("mmx") is not False:
        return Answer(64, f"{_ME}'s {f.vendor_explain('mmx')} (64-bit MMX registers)")
    return Answer(0, "the target has no SSE, AVX or MMX registers")


def portable(target: Any) -> Answers:
    """Every portable name but the core's CPU ones, from the target's LLVM features (vendor names)."""
    f = target.features
    amx = f.vendor("amx_tile") is not False
    formats = [portable for name, portable in _AMX_FORMATS if f.vendor(name) is not False] if amx else []
    width = f.vendor("vector_width_bits")
    fp8 = from_vendor(f, _ME, ("amx_fp8",))
    return {
        "fp16": from_vendor(f, _ME, ("avx512fp16",)),
        "bf16": from_vendor(f, _ME, ("avx512bf16", "amx_bf16")),
        "fp8_e4m3": fp8,
        "fp8_e5m2": fp8,
        "fp64": from_vendor(f, _ME, ("sse2", "x87")),
        "int8_dot": from_vendor(f, _ME, ("avx512vnni", "avxvnni", "avxvnniint8", "amx_int8")),
        "int4": Answer(False, "no x86 extension multiplies 4-bit integers"),
        "vector_bits": _vector_bits(f, width),
        "scalable_vectors": Answer(False, "x86 vector registers have fixed widths"),
        **none("x86 vector registers have fixed widths", ("scalable_vector_min_bits", "scalable_vector_max_bits")),
        "matrix": from_vendor(f, _ME, ("amx_tile",)),
        "matrix_engine": Answer("amx" if amx else "", f"{_ME}'s amx_tile is {amx}"),
        "matrix_formats": Answer(
            ",".join(formats), "AMX's tile multiply features " + ", ".join(n for n, _ in _AMX_FORMATS)
        ),
        "l2_cache_bytes": Answer(None, "LLVM's x86 CPU tables do not give cache sizes"),
    }
