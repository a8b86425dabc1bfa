"""From ``-mcpu``/``-march``/``-mattr``/``-mfloat-abi`` to the LLVM feature set, with LLVM's semantics.

A CPU implies its architecture version and default extensions; ``-march`` an
architecture version and its extensions; ``+ext`` (in ``-mcpu``/``-march``) adds an
extension and what it requires, ``+noext`` removes it and what depends on it;
``-mattr=+f``/``-f`` does the same with LLVM feature names. All closures are
precomputed in the generated tables, so resolving is a few set operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tcfg.plugin import AttributeValueError, closest
from tcfg_aarch64.tables import ArchTable, CpuEntry, Family, aarch64, arm

__all__ = ["Resolved", "family_of_cpu", "fpu_name", "resolve", "split_mods"]

_PROFILE = {"a": "A", "r": "R", "m": "M"}


@dataclass(frozen=True)
class Resolved:
    """The outcome: final LLVM features, where each came from, and the ABI facts.

    ``start`` is where the feature set began (``("cpu", name)`` or ``("arch", name)``),
    with ``start_why`` the reason for its features; ``changes`` gives, for every LLVM
    feature added or removed after that, the reason. ``baseline`` is what LLVM enables
    for ``cpu`` by itself (the reference for the ``+f``/``-f`` feature string).
    """

    family: Family
    cpu: CpuEntry | None
    start: tuple[str, str]
    start_why: str
    arch: str
    arch_version: str
    profile: str
    features: frozenset[str]
    baseline: frozenset[str]
    changes: dict[str, str]
    float_abi: str
    float_abi_why: str
    triple_arch: str


def split_mods(text: str) -> tuple[str, list[str]]:
    """``cortex-m55+nomve+nodsp`` -> (``cortex-m55``, [``nomve``, ``nodsp``])."""
    name, *mods = text.split("+")
    return name.lower(), [m.lower() for m in mods]


def family_of_cpu(name: str) -> Family | None:
    """The family whose CPU table has ``name`` (AArch64 first: ``cortex-a72`` is 64-bit)."""
    for family in (aarch64(), arm()):
        if name in family.cpus:
            return family
    return None


def _refuse(what: str, word: str, choices: Sequence[str]) -> AttributeValueError:
    near = closest(word, choices)
    hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""
    return AttributeValueError(f"{what} {word!r} is not known to LLVM {aarch64().source['llvm_major']}{hint}")


def _cpu(family: Family, name: str, option: str) -> CpuEntry:
    entry = family.cpus.get(name)
    if entry is None:
        raise _refuse(f"{option}: the {family.name} CPU", name, list(family.cpus))
    return entry


def _arch(family: Family, name: str) -> ArchTable:
    key = name
    if family.name == "aarch64" and not name.endswith("-a") and name.endswith("a"):
        key = name[:-1] + "-a"  # clang also accepts armv8.2a
    table = family.arches.get(key)
    if table is None:
        raise _refuse(f"-march: the {family.name} architecture", name, list(family.arches))
    return table


class _State:
    """The feature set under construction and the reason for each change after the start."""

    def __init__(self, family: Family, profile: str, base: frozenset[str]) -> None:
        self.family = family
        self.profile = profile
        self.features: frozenset[str] = base
        self.changes: dict[str, str] = {}

    def add(self, feats: frozenset[str], reason: str) -> None:
        for feat in feats - self.features:
            self.changes[feat] = reason
        self.features |= feats

    def remove(self, feats: frozenset[str], reason: str) -> None:
        for feat in feats & self.features:
            self.changes[feat] = reason
        self.features -= feats

    def modifier(self, mod: str, option: str) -> None:
        exts = self.family.extensions.get(self.profile, {})
        if mod in exts:
            self.add(exts[mod][0], f"'+{mod}' in {option} adds it (the {mod} extension or what it requires)")
        elif mod.startswith("no") and mod[2:] in exts:
            ext = mod[2:]
            self.remove(
                exts[ext][1], f"'+{mod}' in {option} removes it ({ext} itself or an extension that depends on it)"
            )
        else:
            choices = [*exts, *(f"no{e}" for e in exts)]
            raise _refuse(f"{option}: the extension", mod, choices)

    def mattr(self, item: str) -> None:
        sign, name = item[0], item[1:]
        family = self.family
        if name not in family.llvm_features:
            raise _refuse(f"-mattr: the {family.name} LLVM feature", name, list(family.llvm_features))
        option = f"-mattr={item}"
        if sign == "+":
            if name in family.arch_flags:
                having = [a for a in family.arches.values() if name in a.features]
                implied = min(having, key=lambda a: len(a.features)).features if having else frozenset({name})
                self.add(implied, f"{option} enables that architecture version and what it implies")
                return
            requires = family.requires.get(self.profile, {}).get(name, frozenset())
            self.add(frozenset({name}) | requires, f"{option} enables it or a feature that requires it")
        else:
            dependents = family.dependents.get(self.profile, {}).get(name, frozenset())
            self.remove(
                frozenset({name}) | dependents, f"{option} removes it ({name} itself or a feature depending on it)"
            )


def resolve(
    family: Family,
    mcpu: str | None,
    march: str | None,
    mattr: Sequence[str],
    triple: str | None,
    float_abi: str | None,
) -> Resolved:
    """Apply the options in LLVM's order: CPU or architecture, their ``+ext`` suffixes, then ``-mattr``."""
    cpu: CpuEntry | None = None
    cpu_mods: list[str] = []
    if mcpu is not None:
        name, cpu_mods = split_mods(mcpu)
        cpu = _cpu(family, name, "-mcpu")
    if march is not None:
        arch_name, arch_mods = split_mods(march)
        arch = _arch(family, arch_name)
        start = ("arch", arch.name)
        start_why = f"-march={arch_name} (Armv{arch.version}-{_PROFILE[arch.profile]}) implies it"
        state = _State(family, arch.profile, arch.features)
        for mod in arch_mods:
            state.modifier(mod, f"-march={march}")
        arch_label, version, profile, triple_arch = arch.name, arch.version, arch.profile, arch.triple_arch
    elif cpu is not None:
        label = f"Armv{cpu.arch_version}-{_PROFILE[cpu.profile]}"
        alias = f", which LLVM treats as {cpu.llvm_cpu}" if cpu.llvm_cpu != cpu.name else ""
        start = ("cpu", cpu.name)
        start_why = f"-mcpu={cpu.name}{alias} ({label}) has it by default"
        state = _State(family, cpu.profile, cpu.features)
        arch_label, version, profile, triple_arch = cpu.arch, cpu.arch_version, cpu.profile, cpu.triple_arch
    else:
        generic = next(iter(family.arches.values()))
        start = ("arch", generic.name)
        start_why = f"the generic CPU ({generic.name}) implies it"
        state = _State(family, generic.profile, generic.features)
        arch_label, version, profile, triple_arch = generic.name, generic.version, generic.profile, generic.triple_arch
    for mod in cpu_mods:
        state.modifier(mod, f"-mcpu={mcpu}")
    for item in mattr:
        state.mattr(item)
    baseline = cpu.features if cpu is not None else next(iter(family.arches.values())).features
    if family.name == "aarch64":
        abi, abi_why = _aarch64_abi(float_abi)
        if march is None and mattr:
            version = _a64_version(family, state.features, version)
            arch_label = f"armv{version}-a" if not version.endswith(".0") else f"armv{version[:-2]}-a"
            if profile == "r":
                arch_label = "armv8-r"
    else:
        abi, abi_why = _arm_abi(family, state, cpu, float_abi, triple, profile, baseline)
    return Resolved(
        family,
        cpu,
        start,
        start_why,
        arch_label,
        version,
        profile,
        state.features,
        baseline,
        state.changes,
        abi,
        abi_why,
        triple_arch,
    )


def _a64_version(family: Family, features: frozenset[str], fallback: str) -> str:
    """The newest A-profile version whose flag (``v8.2a``) is in ``features``, at least ``fallback``."""
    best = tuple(int(p) for p in fallback.split("."))
    for flag in family.arch_flags & features:
        best = max(best, family.flag_versions.get(flag, best))
    return f"{best[0]}.{best[1]}"


def _aarch64_abi(float_abi: str | None) -> tuple[str, str]:
    if float_abi not in (None, "hard"):
        raise AttributeValueError(
            f"-mfloat-abi={float_abi} is not available on AArch64 (LLVM supports only 'hard' there)"
        )
    return "hard", "AArch64 always passes floating-point values in FP/SIMD registers"


def _arm_abi(
    family: Family,
    state: _State,
    cpu: CpuEntry | None,
    float_abi: str | None,
    triple: str | None,
    profile: str,
    baseline: frozenset[str],
) -> tuple[str, str]:
    if float_abi is not None:
        abi, why = float_abi, f"-mfloat-abi={float_abi} was given"
    elif triple is not None:
        parts = triple.split("-")
        env = parts[-1] if len(parts) >= 3 else ""
        if env.endswith("hf"):
            abi, why = "hard", f"the triple {triple!r} has the environment {env!r}, which LLVM reads as hard float"
        else:
            abi = "soft"
            why = f"the triple {triple!r} has no 'hf' environment ({env or 'none'!r}), which LLVM reads as soft float"
    elif state.features & family.fp_features:
        abi, why = "hard", "no -mfloat-abi and no triple: a CPU with an FPU means hard float (TVM's convention)"
    else:
        abi, why = "soft", "no -mfloat-abi and no triple, and the CPU has no FPU: soft float"
    if abi == "soft":
        drops = (cpu.soft_drops if cpu is not None else frozenset()) | (
            family.soft_float_drops.get(profile, frozenset()) - baseline
        )
        state.remove(drops, f"the soft-float ABI ({why}) turns it off, as LLVM does (no FP registers, so no FP or MVE)")
    return abi, why


def fpu_name(family: Family, features: frozenset[str]) -> str:
    """The FPU as LLVM's Arm assembly printer names it (``.fpu``) for these FP features."""
    mine = features & family.fp_features
    if not mine:
        return "none"
    exact = family.fpus.get(mine)
    if exact is not None:
        return exact
    subsets = [k for k in family.fpus if k and k <= mine]
    return family.fpus[max(subsets, key=len)] if subsets else "none"
