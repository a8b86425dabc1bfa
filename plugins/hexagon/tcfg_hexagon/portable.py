"""The portable vocabulary for ``hexagon`` targets, read from their HVX features."""

from __future__ import annotations

from typing import Any

from tcfg.plugin import GPU_ONLY, Answer, Answers, from_vendor, none

__all__ = ["portable"]

_ME = "hexagon"
_UNSAID = "tcfg_hexagon does not model it (Qualcomm's HVX/HMX programmer's references per version)"


def portable(target: Any) -> Answers:
    """Every portable name for a Hexagon DSP."""
    f = target.features
    hvx = f.vendor("hvx") is not False
    cores = target.attrs.get("num-cores")
    length = f.vendor("hvx_length")
    return {
        "fp16": from_vendor(f, _ME, ("hvx_ieee_fp",)),
        **none(_UNSAID, ("bf16", "fp8_e4m3", "fp8_e5m2", "int4", "fp64", "matrix", "matrix_engine", "matrix_formats")),
        "int8_dot": from_vendor(f, _ME, ("hvx",)),
        "vector_bits": Answer(int(length) * 8, f"{_ME}'s {f.vendor_explain('hvx_length')} (bytes)")
        if hvx and length is not False
        else Answer(0, "HVX is off: no vector registers"),
        "scalable_vectors": Answer(False, "HVX vectors are 64 or 128 bytes, fixed at compile time"),
        **none("HVX vectors have fixed lengths", ("scalable_vector_min_bits", "scalable_vector_max_bits")),
        **none("a Hexagon DSP runs threads independently: no SIMT thread blocks", GPU_ONLY),
        "cores": Answer(cores, "the target's -num-cores")
        if cores is not None
        else Answer(None, "the target gives no -num-cores"),
        "l2_cache_bytes": Answer(None, _UNSAID),
    }
