"""The CPU sub-parser for ``llvm``/``c`` targets of AArch64 and 32-bit Arm: the features it declares, and a
resolved feature set as tcfg feature values."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, cached_property, lru_cache
from typing import Any

from tcfg.plugin import (
    Answers,
    AttributeValueError,
    CpuParser,
    Derived,
    DeriveRequest,
    Feature,
    FeatureValue,
    feature_name,
    host_triple,
)
from tcfg_aarch64.facts import FAMILIES, Family, arch_flags, family_table, family_with, index, names
from tcfg_aarch64.resolve import Resolved, family_of_cpu, fpu_name, resolve, split_mods

__all__ = ["TVM_ALIASES", "ArmCpuParser", "declared", "resolve_target", "values"]

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


KEYS = ("arm_cpu", "cpu")


class ArmCpuParser(CpuParser):
    """Claims triples of the ``aarch64`` and ``arm`` families, and Arm CPU names without a triple.

    Declaring features and claiming names read the small generated index; a family's
    tables are read when a target of that family is resolved.
    """

    name = "aarch64"
    arches = ("aarch64", "arm")

    @cached_property
    def features(self) -> Sequence[Feature]:  # type: ignore[override]
        return declared()

    def claims_cpu(self, mcpu: str) -> bool:
        name = split_mods(mcpu)[0]
        return name != "generic" and family_with("cpus", name) is not None

    def cpu_names(self) -> list[str]:
        return sorted(set().union(*(names(f, "cpus") for f in FAMILIES)))

    def claims_march(self, march: str) -> bool:
        return _march_family(march) is not None

    def portable(self, target: Any) -> Answers:
        from tcfg_aarch64.portable import portable  # read at the first portable name, not at start-up

        return portable(target)

    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        attrs = request.attrs
        changed: dict[str, Any] | None = None
        if attrs.get("mcpu") == "native":
            changed = _native(dict(attrs))
            attrs = changed
        else:
            mcpu, march = attrs.get("mcpu"), attrs.get("march")
            if (mcpu is not None and mcpu != mcpu.lower()) or (march is not None and march != march.lower()):
                # clang reads CPU and architecture names in any case: the target says them as LLVM does
                changed = {**dict(attrs), **{k: attrs[k].lower() for k in ("mcpu", "march") if attrs.get(k)}}
                attrs = changed
        family = family_for(attrs, arch)
        derived = _derived(
            family.name,
            attrs.get("mcpu"),
            attrs.get("march"),
            tuple(attrs.get("mattr", ())),
            # 32-bit Arm's float ABI (and its explanation) reads the triple; AArch64's never does
            attrs.get("mtriple") if family.name == "arm" else None,
            attrs.get("mfloat-abi"),
        )
        return derived if changed is None else derived._replace(attrs=changed)


@lru_cache(maxsize=1024)
def _derived(
    family: str, mcpu: str | None, march: str | None, mattr: tuple[str, ...], triple: str | None, float_abi: str | None
) -> Derived:
    """The features of one CPU configuration, one ``Derived`` object per configuration.

    Targets that differ only in what the configuration does not read (an AArch64 triple's
    vendor or OS) get the same object, which the core then checks once.
    """
    feats, why = values(resolve(family_table(family), mcpu, march, mattr, triple, float_abi))
    return Derived(keys=KEYS, features=feats, why=why)


def family_for(attrs: Any, arch: str | None) -> Family:
    """The family of a claimed target: its triple's, else its CPU's."""
    if arch in FAMILIES:
        return family_table(arch)
    mcpu, march = attrs.get("mcpu"), attrs.get("march")
    family = family_of_cpu(split_mods(mcpu)[0]) if mcpu else family_of_march(march) if march else None
    return family if family is not None else family_table("aarch64")


def family_of_march(march: str) -> Family | None:
    """The family whose architecture table has ``march`` (``armv8.2-a`` or clang's ``armv8.2a``)."""
    found = _march_family(march)
    return None if found is None else family_table(found)


def _march_family(march: str) -> str | None:
    name = split_mods(march)[0]
    dashed = name[:-1] + "-a" if name.endswith("a") and not name.endswith("-a") else name
    return next((f for f in FAMILIES if name in names(f, "arches") or dashed in names(f, "arches")), None)


def resolve_target(attrs: Any, arch: str | None) -> Resolved:
    """Resolve a claimed target's attributes (``arch`` is its triple's family, or None)."""
    return resolve(
        family_for(attrs, arch),
        attrs.get("mcpu"),
        attrs.get("march"),
        tuple(attrs.get("mattr", ())),
        attrs.get("mtriple"),
        attrs.get("mfloat-abi"),
    )


def _native(attrs: dict[str, Any]) -> dict[str, Any]:
    from tcfg_aarch64 import detect  # host detection: read only for -mcpu=native

    text = detect.read_host()
    if text is None:
        raise AttributeValueError(
            f"-mcpu=native: this machine ({host_triple()}) has no /proc/cpuinfo to read the Arm CPU from"
        )
    found = detect.native_attrs(text)
    attrs.pop("mcpu")
    if "mcpu" in found:
        attrs["mcpu"] = found["mcpu"]
    extra: tuple[str, ...] = found.get("mattr", ())
    if extra:
        attrs["mattr"] = extra + tuple(attrs.get("mattr", ()))
    return attrs
