"""The features this plugin declares, and a resolved feature set as tcfg feature values."""

from __future__ import annotations

from functools import cache

from tcfg.plugin import Feature, FeatureValue, feature_name
from tcfg_aarch64.resolve import Resolved, fpu_name
from tcfg_aarch64.tables import FAMILIES, arch_flags, index

__all__ = ["TVM_ALIASES", "declared", "values"]

#: TVM's compatibility names and the LLVM features they read.
TVM_ALIASES = {
    "neon": ("has_asimd",),
    "sve": ("has_sve",),
    "dotprod": ("has_dotprod",),
    "i8mm": ("has_matmul_i8",),
    "fullfp16": ("has_fp16_simd",),
    "sme": ("has_sme",),
    "dsp": ("has_dsp",),
    "mve": ("has_mve",),
}

#: Facts that are not LLVM feature flags.
_FACTS = (
    Feature("is_aarch64", "The target is 64-bit Arm (AArch64)."),
    Feature("arch", "The architecture as clang's -march names it (armv8.2-a, armv8.1-m.main)."),
    Feature("arch_version", "The architecture version as text: '8.2' for Armv8.2-A, '8.1' for Armv8.1-M."),
    Feature("profile", "The architecture profile: 'a' (application), 'r' (real-time) or 'm' (microcontroller)."),
    Feature("float_abi", "The floating-point ABI: 'hard', 'softfp' or 'soft' (see explain())."),
    Feature("fpu", "The FPU as LLVM's Arm assembly printer names it (.fpu), or 'none' (32-bit Arm)."),
)

#: LLVM features that are modes, not hardware facts.
_NOT_FACTS = frozenset({"soft-float", "thumb-mode", "fmv"})


@cache
def exposed(family: str) -> dict[str, str]:
    """LLVM feature -> tcfg feature name, for every hardware feature a target of ``family`` may have."""
    hardware = index()["families"][family]["hardware"]
    return {n: feature_name(n) for n in sorted(hardware.keys() - arch_flags(hardware) - _NOT_FACTS)}


@cache
def declared() -> tuple[Feature, ...]:
    """Every feature the parser may derive, with LLVM's description and TVM's aliases (from the index)."""
    docs: dict[str, str] = {}
    for family in FAMILIES:
        hardware = index()["families"][family]["hardware"]
        for llvm_name, name in exposed(family).items():
            docs.setdefault(name, f"LLVM feature {llvm_name!r}: {hardware[llvm_name]}".rstrip(": "))
    features = [Feature(name, doc, TVM_ALIASES.get(name, ())) for name, doc in sorted(docs.items())]
    return (*_FACTS, *features)


@cache
def _start(
    family_name: str, start: tuple[str, str], reason: str, features: frozenset[str]
) -> tuple[dict[str, FeatureValue], dict[str, str]]:
    """The feature values and reasons of a CPU or architecture before any option changes them."""
    table = exposed(family_name)
    feats: dict[str, FeatureValue] = {table[f]: True for f in features if f in table}
    why = dict.fromkeys(feats, reason)
    if family_name == "aarch64":
        feats["is_aarch64"] = True
        why["is_aarch64"] = "the target is AArch64 (its triple or CPU)"
    return feats, why


def values(res: Resolved) -> tuple[dict[str, FeatureValue], dict[str, str]]:
    """The target's feature values and their explanations."""
    feats, why = _start(res.family.name, res.start, res.start_why, res.start_features)
    feats, why = dict(feats), dict(why)
    if res.changes:
        table = exposed(res.family.name)
        for llvm_name, reason in res.changes.items():
            name = table.get(llvm_name)
            if name is None:
                continue
            why[name] = reason
            if llvm_name in res.features:
                feats[name] = True
            else:
                feats.pop(name, None)
    source = "the CPU" if res.cpu is not None else "the architecture"
    feats["arch"] = res.arch
    feats["arch_version"] = res.arch_version
    feats["profile"] = res.profile
    feats["float_abi"] = res.float_abi
    why["arch"] = why["arch_version"] = why["profile"] = f"from {source} ({res.arch})"
    why["float_abi"] = res.float_abi_why
    if res.family.name == "arm":
        table = exposed("arm")
        abi_note = f" (float ABI {res.float_abi}: {res.float_abi_why})"
        for llvm_name in res.family.soft_float_drops.get(res.profile, frozenset()) & res.features:
            if llvm_name in table:
                why[table[llvm_name]] += abi_note
        fpu = fpu_name(res.family, res.features)
        feats["fpu"] = fpu
        why["fpu"] = f"LLVM's Arm assembly printer names these FP features .fpu {fpu} (float ABI: {res.float_abi})"
    return feats, why
