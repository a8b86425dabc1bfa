"""From ``-mcpu``/``-march``/``-mattr``/``-mfloat-abi`` to the LLVM feature set, with LLVM 22's semantics.

* A bare ``-mcpu`` means what clang's CPU table gives the backend, closed under LLVM's
  feature implication (``neoverse-v2`` has ``lse2`` through ``v8.4a``).
* ``-march`` means clang's ``-march``: the architecture's features, then each ``+ext``
  adds what clang adds for it at that architecture (``+fp16`` adds ``fp16fml`` from
  Armv8.4-A) and ``+noext`` removes what clang removes. With ``-mcpu`` as well, clang
  passes the CPU and the architecture's feature string, so the backend's CPU
  definition keeps its features.
* ``-mattr`` means LLVM's ``-mattr``: ``+f`` adds f and what it implies, ``-f`` removes
  f and the features that imply it, and nothing else.

All closures are precomputed in the generated tables, so resolving is a few set
operations.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

from collections.abc import Sequence
from typing import NamedTuple

from tcfg.plugin import AttributeValueError, closest
from tcfg_aarch64.facts import ArchTable, CpuEntry, ExtTable, Family, clang_on, family_table, family_with, index

__all__ = ["Resolved", "family_of_cpu", "fpu_name", "minimal", "resolve", "split_mods"]

_PROFILE = {"a": "A", "r": "R", "m": "M"}


class Resolved(NamedTuple):
    """The outcome: final LLVM features, where each came from, and the ABI facts.

    ``start`` names where the feature set began (``("cpu", name)``, ``("arch", name)``,
    ``("cpu+arch", "cpu arch")`` or ``("generic", arch)``) and ``start_features`` what it
    held, with ``start_why`` the reason; ``changes`` gives, for every LLVM feature added
    or removed after that, the reason. ``baseline`` is what clang enables for the
    emitted CPU by itself, ``llc_baseline`` what llc does (its backend CPU definition):
    the references of the two tools' ``+f``/``-f`` strings. ``passthrough`` are
    ``-mattr`` items that name tuning features or modes, passed on as given.
    ``codegen_cpu`` is the CPU the flags name: the given one, else the one clang's
    -march picks, else generic; ``clang_on`` what clang's own feature string for that
    CPU turns on, before the backend removes what it implies away (32-bit Arm's
    ``+armv7-a`` goes with ``-neon``).
    """

    family: Family
    cpu: CpuEntry | None
    start: tuple[str, str]
    start_why: str
    start_features: frozenset[str]
    arch: str
    arch_version: str
    profile: str
    features: frozenset[str]
    baseline: frozenset[str]
    llc_baseline: frozenset[str]
    changes: dict[str, str]
    float_abi: str
    float_abi_why: str
    triple_arch: str
    passthrough: tuple[str, ...]
    codegen_cpu: str
    clang_on: frozenset[str]


def split_mods(text: str) -> tuple[str, list[str]]:
    """``cortex-m55+nomve+nodsp`` -> (``cortex-m55``, [``nomve``, ``nodsp``]), in lower case as clang reads them."""
    name, *mods = text.split("+")
    return name.lower(), [m.lower() for m in mods]


def family_of_cpu(name: str) -> Family | None:
    """The family whose CPU table has ``name`` (AArch64 first: ``cortex-a72`` is 64-bit); only its table is read."""
    found = family_with("cpus", name)
    return None if found is None else family_table(found)


def _refuse(what: str, word: str, choices: Sequence[str]) -> AttributeValueError:
    near = closest(word, choices)
    hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""
    return AttributeValueError(f"{what} {word!r} is not known to LLVM {index()['source']['llvm_major']}{hint}")


def _cpu(family: Family, name: str, option: str) -> CpuEntry:
    entry = family.cpus.get(name)
    if entry is None:
        raise _refuse(f"{option}: the {family.name} CPU", name, ["generic", *family.cpus])
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
        self.passthrough: list[str] = []
        self.removed: set[str] = set()
        #: With a CPU: the features clang's own set has on (its view, not the backend's).
        self.frontend: frozenset[str] | None = None

    def add(self, feats: frozenset[str], reason: str) -> None:
        for feat in feats - self.features:
            self.changes[feat] = reason
        self.features |= feats

    def remove(self, feats: frozenset[str], reason: str) -> None:
        for feat in feats & self.features:
            self.changes[feat] = reason
        self.features -= feats

    def modifier(self, mod: str, option: str, table: ExtTable, version: str, where: str) -> None:
        ext = table.get(mod)
        if ext is not None and ext.adds is not None:
            extra = ext.version_adds.get(version, frozenset()) - frozenset(self.removed)
            if self.frontend is not None:
                self.frontend = self.frontend | ext.adds | extra
            self.remove(ext.plus_removes, f"'+{mod}' in {option} turns it off, as clang does")
            self.add(ext.adds | extra, f"'+{mod}' in {option} adds it (the {mod} extension or what it requires)")
            return
        ext = table.get(mod[2:]) if mod.startswith("no") else None
        if ext is not None and ext.removes is not None:
            removes = ext.removes
            if self.frontend is not None:
                # clang turns off only what its own (frontend) set had on; the backend's
                # CPU definition keeps the rest unless it implies what was turned off.
                off = removes & self.frontend
                self.frontend = self.frontend - removes
                removes = off.union(*(self.family.implied_by.get(f, frozenset()) for f in off))
            self.removed |= removes
            self.remove(
                removes, f"'+{mod}' in {option} removes it ({mod[2:]} itself or an extension that depends on it)"
            )
            self.add(ext.no_adds, f"'+{mod}' in {option} leaves it, as clang does")
            return
        choices = [e for e, x in table.items() if x.adds is not None]
        choices += [f"no{e}" for e, x in table.items() if x.removes is not None]
        raise _refuse(f"{option}: the extension (for {where})", mod, choices)

    def mattr(self, item: str) -> None:
        sign, name = item[0], item[1:]
        family = self.family
        if name not in family.llvm_features:
            raise _refuse(f"-mattr: the {family.name} LLVM feature", name, list(family.llvm_features))
        option = f"-mattr={item}"
        if name not in family.hardware:
            self.passthrough.append(item)  # tuning or a mode: no hardware feature changes
        elif sign == "+":
            self.add(
                frozenset({name}) | family.implies.get(name, frozenset()),
                f"{option} enables it or a feature that implies it",
            )
        else:
            self.remove(
                frozenset({name}) | family.implied_by.get(name, frozenset()),
                f"{option} removes it ({name} itself or a feature that implies it)",
            )


def _apply(family: Family, start: frozenset[str], items: Sequence[str]) -> frozenset[str]:
    """LLVM's rule for a feature string: ``+f`` sets f and what it implies, ``-f`` clears f and what implies it."""
    bits = set(start)
    for item in items:
        feat = item[1:]
        if item[0] == "+":
            bits |= {feat} | family.implies.get(feat, frozenset())
        else:
            bits -= {feat} | family.implied_by.get(feat, frozenset())
    return frozenset(bits)


def _default_arch(family: Family, triple: str | None) -> ArchTable:
    """The 32-bit architecture of a triple without CPU or -march (``thumbv7em`` -> armv7e-m)."""
    arch = (triple or "").split("-", 1)[0]
    for table in family.arches.values():
        if table.triple_arch == arch:
            return table
    return family.arches["armv7-a"] if "armv7-a" in family.arches else next(iter(family.arches.values()))


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
        if name != "generic":
            cpu = _cpu(family, name, "-mcpu")
    arch: ArchTable | None = None
    codegen_cpu = cpu.name if cpu is not None else "generic"
    if march is not None:
        arch_name, arch_mods = split_mods(march)
        arch = _arch(family, arch_name)
        label = f"Armv{arch.version}-{_PROFILE[arch.profile]}"
        if cpu is not None:
            start: tuple[str, str] = ("cpu+arch", f"{cpu.name} {arch.name}")
            start_why = (
                f"-mcpu={cpu.name} with -march={arch_name} ({label}): clang passes the CPU and the "
                "architecture's features, and the backend's CPU definition keeps its own"
            )
            base = _apply(family, cpu.llc_features, arch.clang) & family.hardware
        else:
            start, start_why, base = ("arch", arch.name), f"-march={arch_name} ({label}) implies it", arch.features
        state = _State(family, arch.profile, base)
        start_features = base
        if cpu is not None:
            state.frontend = clang_on(arch.clang)
        table = arch.extensions if family.name == "arm" else family.extensions
        for mod in arch_mods:
            state.modifier(mod, f"-march={march}", table, arch.version, arch.name)
        arch_label, version, profile, triple_arch = arch.name, arch.version, arch.profile, arch.triple_arch
    elif cpu is not None:
        label = f"Armv{cpu.arch_version}-{_PROFILE[cpu.profile]}"
        alias = f", which LLVM treats as {cpu.llvm_cpu}" if cpu.llvm_cpu != cpu.name else ""
        start = ("cpu", cpu.name)
        start_why = f"-mcpu={cpu.name}{alias} ({label}) has it by default"
        state = _State(family, cpu.profile, cpu.features)
        start_features = cpu.features
        if family.name == "aarch64":
            state.frontend = clang_on(cpu.clang)  # 32-bit Arm CPUs have measured tables of their own
        arch_label, version, profile, triple_arch = cpu.arch, cpu.arch_version, cpu.profile, cpu.triple_arch
    elif family.generic is not None:
        generic = family.generic
        start = ("generic", generic.arch)
        start_why = f"the generic CPU ({generic.arch}) has it by default"
        state = _State(family, generic.profile, generic.features)
        start_features = generic.features
        state.frontend = clang_on(generic.clang)
        arch_label, version, profile, triple_arch = generic.arch, generic.arch_version, generic.profile, ""
    else:
        arch = _default_arch(family, triple)
        start = ("arch", arch.name)
        start_why = f"the generic CPU ({arch.name}) implies it"
        state = _State(family, arch.profile, arch.features)
        start_features = arch.features
        arch_label, version, profile, triple_arch = arch.name, arch.version, arch.profile, arch.triple_arch
    if cpu_mods:
        if family.name == "arm" and cpu is not None:
            table = cpu.extensions
        elif family.name == "arm":
            home = family.arches.get(arch_label)
            table = home.extensions if home is not None else ExtTable()
        else:
            table = family.extensions
        for mod in cpu_mods:
            state.modifier(mod, f"-mcpu={mcpu}", table, version, arch_label)
    if cpu is not None:
        baseline, llc_baseline, clang_items = cpu.features, cpu.llc_features, cpu.clang
    elif family.generic is not None:
        baseline, llc_baseline, clang_items = family.generic.features, family.generic.llc_features, family.generic.clang
    else:
        home = arch if arch is not None else _default_arch(family, triple)
        picked = family.cpus.get(home.clang_cpu)
        if picked is not None:  # clang's -march=armv7e-m compiles for cortex-m4: so do the flags
            baseline, llc_baseline, clang_items = picked.features, picked.llc_features, picked.clang
        else:
            baseline, llc_baseline, clang_items = home.features, home.llc_features, home.clang
        codegen_cpu = "generic" if mcpu is not None else home.clang_cpu
    if family.name == "aarch64":
        abi, abi_why = _aarch64_abi(float_abi)
    else:
        # the float ABI acts on clang's feature string, which -mattr then follows
        own = cpu.soft_drops if cpu is not None else (arch or _default_arch(family, triple)).soft_drops
        abi, abi_why = _arm_abi(family, state, own, float_abi, triple, profile, start_features)
    for item in mattr:
        state.mattr(item)
    if family.name == "aarch64" and march is None and mattr:
        version = _a64_version(family, state.features, version)
        arch_label = f"armv{version}-a" if not version.endswith(".0") else f"armv{version[:-2]}-a"
        if profile == "r":
            arch_label = "armv8-r"
    return Resolved(
        family,
        cpu,
        start,
        start_why,
        start_features,
        arch_label,
        version,
        profile,
        state.features,
        baseline,
        llc_baseline,
        state.changes,
        abi,
        abi_why,
        triple_arch,
        tuple(state.passthrough),
        codegen_cpu,
        clang_on(clang_items),
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
    own_drops: frozenset[str],
    float_abi: str | None,
    triple: str | None,
    profile: str,
    start: frozenset[str],
) -> tuple[str, str]:
    """The float ABI and why; under soft float, what clang turns off: what it does for the CPU or
    architecture itself, and any FP feature an option added beyond it."""
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
        drops = own_drops | (family.soft_float_drops.get(profile, frozenset()) - start)
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


def minimal(family: Family, adds: frozenset[str], removes: frozenset[str]) -> list[str]:
    """The shortest ``-mattr`` items that take a closed feature set ``base`` to ``base | adds - removes``.

    ``+f`` is left out when another added feature implies f, ``-f`` when removing
    another feature already removes f (f implies it): LLVM applies the same closures.
    """
    plus = [f for f in adds if not any(f in family.implies.get(g, ()) for g in adds if g != f)]
    minus = [f for f in removes if not any(g in family.implies.get(f, ()) for g in removes if g != f)]
    return [*(f"-{f}" for f in sorted(minus)), *(f"+{f}" for f in sorted(plus))]
