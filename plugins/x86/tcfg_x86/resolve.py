"""A CPU plus ``-mattr`` changes, resolved with LLVM's semantics into features and vector widths.

``+feat`` adds the feature and everything it implies; ``-feat`` removes it and every
feature that implies it (LLVM's ``-avx512f`` also drops ``avx512bw``, ``avx512vnni``, ...).
Changes apply in the order given. Tuning features (``prefer-256-bit``) pass through to
LLVM and only affect the preferred vector width.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import NamedTuple

from tcfg.plugin import AttributeValueError, FeatureValue, describe_choices, feature_name
from tcfg_x86.facts import CpuEntry, Tables, tables

__all__ = ["Resolved", "VECTOR_WIDTHS", "hardware_width", "llvm_feature", "resolve", "x86_cpu"]

#: The preferred vector widths LLVM's x86 tuning can express.
VECTOR_WIDTHS = (128, 256, 512)


class Resolved(NamedTuple):
    """The outcome for one (CPU, mode, -mattr, -vector-width) combination."""

    cpu: str
    isa: frozenset[str]
    mattr: tuple[str, ...]
    preferred_width: int
    width_source: str
    features: Mapping[str, FeatureValue]
    why: Mapping[str, str]


@cache
def _spellings() -> dict[str, str]:
    t = tables()
    return {feature_name(name): name for name in t.isa | t.tuning}


def llvm_feature(name: str) -> str:
    """The LLVM spelling of a feature given in LLVM's or tcfg's spelling (``sse4_2`` -> ``sse4.2``)."""
    found = _spellings().get(feature_name(name))
    if found is None:
        known = tables().isa | tables().tuning
        raise AttributeValueError(
            f"-mattr: {name!r} is not an x86 feature LLVM 22 knows; {describe_choices(name, known)}"
        )
    return found


def x86_cpu(name: str) -> CpuEntry:
    """The LLVM 22 x86 CPU ``name``, or a TargetError naming the closest CPUs."""
    entry = tables().cpus.get(name)
    if entry is None:
        raise AttributeValueError(
            f"-mcpu={name} is not an x86 CPU LLVM 22 knows; {describe_choices(name, tables().cpus)}"
        )
    return entry


def hardware_width(isa: frozenset[str]) -> int:
    """The widest vector registers the features give, in bits (0 without SSE)."""
    if "avx512f" in isa:
        return 512
    if "avx" in isa:
        return 256
    return 128 if "sse" in isa else 0


def _tuning_cap(cap: int, toggles: list[tuple[bool, str]]) -> int:
    """LLVM's preferred-width cap after ``+/-prefer-128-bit`` and ``+/-prefer-256-bit`` toggles."""
    p128, p256 = cap == 128, cap == 256
    for on, name in toggles:
        if name == "prefer-128-bit":
            p128 = on
        elif name == "prefer-256-bit":
            p256 = on
    return 128 if p128 else 256 if p256 else 512


def _features(t: Tables, isa: frozenset[str], hw: int, preferred: int) -> dict[str, FeatureValue]:
    out: dict[str, FeatureValue] = {feature_name(f): True for f in isa}
    if hw:
        out["vector_width_bits"] = hw
        out["vector_lanes_32bit"] = hw // 32
        out["preferred_vector_width_bits"] = preferred
    return out


@lru_cache(maxsize=4096)
def resolve(cpu: str, is64: bool, mattr: tuple[str, ...], vector_width: int | None) -> Resolved:
    """Features, explanations and the preferred vector width of ``cpu`` with ``mattr`` applied.

    ``is64``: whether the triple is 64-bit (a CPU without 64-bit support is refused there).
    Raises :class:`tcfg.TargetError` for unknown names and impossible combinations.
    """
    t = tables()
    entry = x86_cpu(cpu)
    if is64 and not entry.is_64bit:
        raise AttributeValueError(
            f"-mcpu={cpu} is a 32-bit CPU; use an i386/i686 triple or a 64-bit CPU "
            "(LLVM aborts with '64-bit code requested on a subtarget that doesn't support it')"
        )
    base = entry.features if is64 else entry.features_32bit_mode
    isa = set(base)
    why = {feature_name(f): f"-mcpu={cpu} has it (LLVM 22)" for f in base}
    canonical: list[str] = []
    toggles: list[tuple[bool, str]] = []
    for item in mattr:
        sign, name = item[0], llvm_feature(item[1:])
        canonical.append(sign + name)
        if name in t.tuning:
            toggles.append((sign == "+", name))
            continue
        if name == "64bit" and sign == "-" and is64:
            raise AttributeValueError("-mattr=-64bit cannot be used with a 64-bit triple")
        if sign == "+":
            for f in t.closure(name) - isa:
                why[feature_name(f)] = f"-mattr=+{name}" if f == name else f"implied by -mattr=+{name}"
            isa |= t.closure(name)
        else:
            for f in (t.dependents[name] | {name}) & isa:
                why[feature_name(f)] = (
                    f"removed by -mattr=-{name}" if f == name else f"removed by -mattr=-{name} (it needs {name})"
                )
            isa -= t.dependents[name] | {name}
    frozen = frozenset(isa)
    hw = hardware_width(frozen)
    cap = _tuning_cap(entry.preferred_vector_width_with_avx512f, toggles)
    if vector_width is not None:
        if vector_width not in VECTOR_WIDTHS:
            raise AttributeValueError(
                f"-vector-width={vector_width}: x86 vector widths are {', '.join(map(str, VECTOR_WIDTHS))}"
            )
        if vector_width > hw:
            raise AttributeValueError(
                f"-vector-width={vector_width} is wider than the {hw}-bit vectors of -mcpu={cpu}"
                + (f" with -mattr={','.join(canonical)}" if canonical else "")
            )
        preferred, source = vector_width, f"-vector-width={vector_width}"
    else:
        preferred = min(cap, hw)
        source = (
            f"LLVM 22's default for -mcpu={cpu}"
            + (" (tuning prefer-256-bit)" if cap == 256 else "")
            + (" (tuning prefer-128-bit)" if cap == 128 else "")
        )
    features = _features(t, frozen, hw, preferred)
    if hw:
        widest = {512: "avx512f", 256: "avx", 128: "sse"}[hw]
        why["vector_width_bits"] = f"the widest vector registers of these features ({widest})"
        why["vector_lanes_32bit"] = f"{hw} bits / 32"
        why["preferred_vector_width_bits"] = source
    return Resolved(cpu, frozen, tuple(canonical), preferred, source, features, why)
