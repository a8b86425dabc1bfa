"""The portable vocabulary for AArch64 and 32-bit Arm targets, read from their LLVM features."""

from __future__ import annotations

from functools import cache
from typing import Any

from tcfg.plugin import Answer, Answers, from_vendor, none, package_json

__all__ = ["portable", "sve_bits"]

_ME = "aarch64"


@cache
def _sve_table() -> dict[str, int]:
    table: dict[str, int] = package_json(__package__, "data/sve_lengths.json")["bits"]
    return table


def sve_bits(mcpu: str | None) -> int | None:
    """The SVE vector length of core ``mcpu`` (data/sve_lengths.json), or None where the table lacks it."""
    return None if mcpu is None else _sve_table().get(mcpu.split("+")[0])


def portable(target: Any) -> Answers:
    """Every portable name but the core's CPU ones, from the target's LLVM features (vendor names)."""
    f = target.features
    is64 = f.vendor("is_aarch64") is True
    sme = f.vendor("sme") is not False
    formats = ["fp16", "bf16", "int8"] if sme else []
    if sme and f.vendor("sme_f64f64") is not False:
        formats.append("fp64")
    if sme and (f.vendor("sme_f8f32") is not False or f.vendor("sme_f8f16") is not False):
        formats += ["fp8_e4m3", "fp8_e5m2"]
    fp8 = from_vendor(f, _ME, ("fp8dot2", "fp8dot4", "fp8fma"))
    result = {
        "fp16": from_vendor(f, _ME, ("fullfp16",)),
        "bf16": from_vendor(f, _ME, ("bf16",)),
        "fp8_e4m3": fp8,
        "fp8_e5m2": fp8,
        "fp64": from_vendor(f, _ME, ("fp_armv8",) if is64 else ("fp64",)),
        "int8_dot": from_vendor(f, _ME, ("dotprod", "i8mm")),
        "int4": Answer(
            False, "no Arm A- or M-profile extension multiplies 4-bit integers (FEAT_SME_LUTv2 only looks them up)"
        ),
        "matrix": from_vendor(f, _ME, ("sme",)),
        "matrix_engine": Answer("sme" if sme else "", f"{_ME}'s sme is {sme}"),
        "matrix_formats": Answer(
            ",".join(formats),
            "SME's FMOPA/BFMOPA/SMOPA take fp16, bf16, int8; sme_f64f64 adds fp64, sme_f8f32/sme_f8f16 fp8"
            if sme
            else "no SME",
        ),
        "l2_cache_bytes": Answer(None, "LLVM's Arm CPU tables do not give cache sizes"),
    }
    return {**result, **_vectors(target, f)}


def _vectors(target: Any, f: Any) -> Answers:
    if f.vendor("sve") is not False:
        mcpu = target.attrs.get("mcpu")
        bits = sve_bits(mcpu)
        why = f"{_ME}'s {f.vendor_explain('sve')}"
        if bits is None:
            core = mcpu or "a target without -mcpu"
            unfixed = f"SVE lengths are 128 to 2048 bits; the length of {core} is not in tcfg_aarch64's table"
            return {
                "vector_bits": Answer(None, unfixed),
                "scalable_vectors": Answer(True, why),
                "scalable_vector_min_bits": Answer(128, "the Arm architecture's smallest SVE length"),
                "scalable_vector_max_bits": Answer(2048, "the Arm architecture's largest SVE length"),
            }
        fixed = f"{mcpu} implements {bits}-bit SVE (tcfg_aarch64 data/sve_lengths.json)"
        return {
            "vector_bits": Answer(bits, fixed),
            "scalable_vectors": Answer(True, why),
            "scalable_vector_min_bits": Answer(bits, fixed),
            "scalable_vector_max_bits": Answer(bits, fixed),
        }
    simd = next((n for n in ("neon", "mve") if f.vendor(n) is not False), None)
    no_sve = f"the target lacks {_ME}'s sve"
    if simd is None:
        vector = Answer(0, f"the target has neither {_ME}'s neon nor mve: no vector registers")
    else:
        vector = Answer(128, f"{_ME}'s {f.vendor_explain(simd)} (128-bit registers)")
    return {
        "vector_bits": vector,
        "scalable_vectors": Answer(False, no_sve),
        **none(no_sve, ("scalable_vector_min_bits", "scalable_vector_max_bits")),
    }
