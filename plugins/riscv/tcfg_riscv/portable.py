"""The portable vocabulary for RISC-V targets, read from their LLVM (ISA extension) features."""

from __future__ import annotations

from typing import Any

from tcfg.plugin import Answer, Answers, from_vendor, none

__all__ = ["portable"]

_ME = "riscv"
_NO_FP8 = "no RISC-V extension LLVM 22 knows computes with FP8 (Zvfofp8min converts only)"
_ZVL = tuple(2**n for n in range(5, 17))  # Zvl32b ... Zvl65536b


def portable(target: Any) -> Answers:
    """Every portable name but the core's CPU ones, from the target's ISA extensions (vendor names)."""
    f = target.features
    vector = next((n for n in ("zve32x", "v") if f.vendor(n) is not False), None)
    result = {
        "fp16": from_vendor(f, _ME, ("zvfh", "zfh")),
        "bf16": from_vendor(f, _ME, ("zvfbfwma",)),
        "fp8_e4m3": Answer(False, _NO_FP8),
        "fp8_e5m2": Answer(False, _NO_FP8),
        "fp64": from_vendor(f, _ME, ("d",)),
        "int8_dot": from_vendor(f, _ME, ("zvqdotq", "xsfvqmaccqoq", "xsfvqmaccdod")),
        "int4": Answer(False, "no RISC-V extension LLVM 22 knows multiplies 4-bit integers"),
        "matrix": Answer(False, "no RISC-V matrix extension is ratified or in LLVM 22's features tcfg declares"),
        "matrix_engine": Answer("", "no RISC-V matrix extension"),
        "matrix_formats": Answer("", "no RISC-V matrix extension"),
        "l2_cache_bytes": Answer(None, "LLVM's RISC-V CPU tables do not give cache sizes"),
        "scalable_vectors": Answer(
            vector is not None,
            f"{_ME}'s {f.vendor_explain(vector)}" if vector else "the target has no RISC-V vector extension (v, zve*)",
        ),
    }
    if vector is None:
        no = "the target has no RISC-V vector extension (v, zve*)"
        return {
            **result,
            "vector_bits": Answer(0, no),
            **none(no, ("scalable_vector_min_bits", "scalable_vector_max_bits")),
        }
    vlen = max(n for n in _ZVL if f.vendor(f"zvl{n}b") is not False)
    zvl = f"{_ME}'s {f.vendor_explain(f'zvl{vlen}b')} (__riscv_v_min_vlen)"
    return {
        **result,
        "vector_bits": Answer(
            None, f"RVV's VLEN is at least {vlen} (Zvl{vlen}b); the implementation's VLEN is not in LLVM's CPU tables"
        ),
        "scalable_vector_min_bits": Answer(vlen, zvl),
        "scalable_vector_max_bits": Answer(65536, "the RISC-V V specification's largest VLEN"),
    }
