"""The generated LLVM tables, loaded on first use and precomputed for fast lookups.

The AArch64 table (``data/aarch64.json``, ``data/aarch64-arch.json`` and one file per CPU
in ``data/aarch64-cpus/``), ``data/arm.json`` and ``data/index.json`` come from
``scripts/generate_data.py`` (which names the clang and LLVM version in each file's
``source``); ``data/cpuinfo.json`` and ``data/tags.json`` hold facts with their cited
sources. Nothing is read at import; :func:`index` answers what registration asks, a
family's table is read when a target of that family is first resolved, and AArch64's
architectures and each of its CPUs when first needed.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache, cached_property
from types import MappingProxyType
from typing import Any, NamedTuple

from tcfg.plugin import package_json

__all__ = [
    "ArchTable",
    "CpuEntry",
    "Ext",
    "ExtTable",
    "FAMILIES",
    "Family",
    "aarch64",
    "arch_flags",
    "arm",
    "clang_on",
    "cpuinfo_table",
    "family_table",
    "family_with",
    "index",
    "load",
    "names",
    "system_register_features",
    "tag_table",
]

_NOTHING: frozenset[str] = frozenset()
_NO_VERSION_ADDS: Mapping[str, frozenset[str]] = MappingProxyType({})
#: The families, in the order a name both have is taken (``cortex-a72`` is AArch64).
FAMILIES = ("aarch64", "arm")


def load(name: str) -> Any:
    """The parsed JSON data file ``name`` shipped in ``tcfg_aarch64/data``."""
    return package_json("tcfg_aarch64", f"data/{name}")


@cache
def index() -> Any:
    """``data/index.json``: per family, the CPU and ``-march`` names and the hardware features
    with LLVM's descriptions (generated from the two tables, which registration does not read)."""
    return load("index.json")


@cache
def names(family: str, what: str) -> frozenset[str]:
    """The CPU (``what="cpus"``) or ``-march`` (``"arches"``) names of ``family``, from the index."""
    return frozenset(index()["families"][family][what])


def family_with(what: str, name: str) -> str | None:
    """The first family, AArch64 then 32-bit Arm, whose ``what`` (see :func:`names`) has ``name``."""
    return next((f for f in FAMILIES if name in names(f, what)), None)


def family_table(name: str) -> "Family":
    """The tables of the family ``name`` (``aarch64`` or ``arm``)."""
    return aarch64() if name == "aarch64" else arm()


def arch_flags(names: Iterable[str]) -> frozenset[str]:
    """The LLVM features among ``names`` that name an architecture version (``v8.2a``, ``armv7e-m``)."""
    return frozenset(f for f in names if (f[:1] == "v" and f[1:2].isdecimal()) or f.startswith("armv"))


def _a_version(flag: str) -> tuple[int, int] | None:
    """The version an A-profile version flag names (``v8.2a`` -> (8, 2), ``v9a`` -> (9, 0)), else None."""
    if flag[:1] != "v" or flag[-1:] != "a":
        return None
    major, dot, minor = flag[1:-1].partition(".")
    if not major.isdecimal() or (dot and not minor.isdecimal()):
        return None
    return int(major), int(minor or 0)


class Ext(NamedTuple):
    """What ``+ext`` and ``+noext`` do (``None``: clang refuses that spelling here).

    ``plus_removes`` is what ``+ext`` turns off (clang's ``armv7e-m+fp`` drops the default
    FPU); ``version_adds`` the extra features ``+ext`` adds at an architecture version
    (``fp16`` adds ``fp16fml`` from 8.4).
    """

    adds: frozenset[str] | None
    removes: frozenset[str] | None
    no_adds: frozenset[str] = _NOTHING
    plus_removes: frozenset[str] = _NOTHING
    version_adds: Mapping[str, frozenset[str]] = _NO_VERSION_ADDS


class ExtTable:
    """``+ext`` name -> :class:`Ext`, each built from the JSON on first use.

    Thousands of entries (32-bit Arm has one table per CPU) would cost tens of
    milliseconds to build at load; a target uses a handful.
    """

    __slots__ = ("_built", "_raw")

    def __init__(self, raw: dict[str, Any] | None = None) -> None:
        self._raw: dict[str, Any] = raw or {}
        self._built: dict[str, Ext] = {}

    def get(self, name: str) -> Ext | None:
        ext = self._built.get(name)
        if ext is None:
            raw = self._raw.get(name)
            if raw is None:
                return None
            ext = self._built[name] = _ext(raw)
        return ext

    def items(self) -> Iterator[tuple[str, Ext]]:
        for name in self._raw:
            ext = self.get(name)
            if ext is not None:
                yield name, ext

    def __contains__(self, name: object) -> bool:
        return name in self._raw

    def __len__(self) -> int:
        return len(self._raw)


_NO_EXTENSIONS = ExtTable()


class CpuEntry(NamedTuple):
    """One CPU as LLVM defines it: features, architecture and (Arm) ABI facts.

    ``features`` is what the backend has for clang's ``-mcpu`` (clang's CPU table closed
    under LLVM's feature implication); ``llc_features`` what llc's ``-mcpu`` alone gives
    (the backend's CPU definition, which can have fewer). ``clang`` is clang's own
    (frontend) feature string for the CPU (hardware items): ``+noext`` turns off only what
    it has on (:func:`clang_on`). ``extensions`` (32-bit Arm) is what ``-mcpu=X+ext`` does
    to this CPU (clang applies it to the CPU's own FPU).
    """

    name: str
    llvm_cpu: str
    arch: str
    arch_version: str
    profile: str
    features: frozenset[str]
    llc_features: frozenset[str] = _NOTHING
    triple_arch: str = ""
    fpu: str = "none"
    soft_drops: frozenset[str] = _NOTHING
    clang: tuple[str, ...] = ()
    extensions: ExtTable = _NO_EXTENSIONS


class ArchTable(NamedTuple):
    """An architecture version (``-march`` name) and the LLVM features it implies.

    ``clang`` is the feature string clang's ``-march`` gives the backend (its hardware
    items, in order), which a CPU given as well starts from. ``extensions`` is set for
    32-bit Arm, whose ``+ext`` meaning depends on the architecture. ``clang_cpu`` is the
    CPU clang's -march picks (32-bit Arm: ``armv7e-m`` means ``cortex-m4``), or generic;
    ``soft_drops`` what clang turns off for this architecture under the soft-float ABI.
    """

    name: str
    version: str
    profile: str
    features: frozenset[str]
    triple_arch: str = ""
    clang: tuple[str, ...] = ()
    llc_features: frozenset[str] = _NOTHING
    extensions: ExtTable = _NO_EXTENSIONS
    clang_cpu: str = "generic"
    soft_drops: frozenset[str] = _NOTHING


class CpuTable(Mapping[str, CpuEntry]):
    """CPU name -> :class:`CpuEntry` for the names given, each read by ``read`` on first use."""

    __slots__ = ("_built", "_names", "_read")

    def __init__(self, names: Iterable[str], read: Callable[[str], CpuEntry]) -> None:
        self._names = dict.fromkeys(names)
        self._read = read
        self._built: dict[str, CpuEntry] = {}

    def __getitem__(self, name: str) -> CpuEntry:
        entry = self._built.get(name)
        if entry is None:
            if name not in self._names:
                raise KeyError(name)
            entry = self._built[name] = self._read(name)
        return entry

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


class Family:
    """Everything the resolver needs for one family (``aarch64`` or ``arm``).

    ``implies[f]`` is every LLVM feature ``f`` implies (transitively), ``implied_by[f]``
    every feature that implies ``f``: LLVM's ``-mattr=+f`` sets f and ``implies[f]``,
    ``-f`` clears f and ``implied_by[f]``. ``hardware`` are the features a target
    reports (not tuning or modes). ``arches`` are the architecture versions by
    ``-march`` name and ``extensions`` AArch64's ``+ext`` table (on 32-bit Arm each
    ArchTable has its own), both from ``arch()`` on first use; ``generic`` (AArch64
    only) is the generic CPU, read on first use. What is derived from these is computed
    on first use too.
    """

    def __init__(
        self,
        name: str,
        source: dict[str, Any],
        llvm_features: dict[str, str],
        hardware: frozenset[str],
        implies: dict[str, frozenset[str]],
        cpus: Mapping[str, CpuEntry],
        arch: Callable[[], tuple[dict[str, ArchTable], ExtTable]],
        soft_float_drops: dict[str, frozenset[str]],
        fpus: dict[frozenset[str], str],
        generic: Callable[[], CpuEntry] | None = None,
    ) -> None:
        self.name = name
        self.source = source
        self.llvm_features = llvm_features
        self.hardware = hardware
        self.implies = implies
        self.cpus = cpus
        self.soft_float_drops = soft_float_drops
        self.fpus = fpus
        self._load_arch = arch
        self._load_generic = generic

    @cached_property
    def _arch(self) -> tuple[dict[str, ArchTable], ExtTable]:
        return self._load_arch()

    @property
    def arches(self) -> dict[str, ArchTable]:
        return self._arch[0]

    @property
    def extensions(self) -> ExtTable:
        return self._arch[1]

    @cached_property
    def generic(self) -> CpuEntry | None:
        return None if self._load_generic is None else self._load_generic()

    @cached_property
    def implied_by(self) -> dict[str, frozenset[str]]:
        found: dict[str, set[str]] = {}
        for feat, closure in self.implies.items():
            for other in closure:
                found.setdefault(other, set()).add(feat)
        return {f: frozenset(s) for f, s in found.items()}

    @cached_property
    def arch_flags(self) -> frozenset[str]:
        """LLVM features that name an architecture version (``v8.2a``, ``armv7e-m``), not an extension."""
        return arch_flags(self.llvm_features)

    @cached_property
    def fp_features(self) -> frozenset[str]:
        """Every LLVM feature that some FPU in ``fpus`` has (the FP part of a feature set)."""
        return frozenset().union(*self.fpus)

    @cached_property
    def flag_versions(self) -> dict[str, tuple[int, int]]:
        """A-profile version flags as numbers: ``v8.2a`` -> (8, 2)."""
        versions = {}
        for flag in self.arch_flags:
            found = _a_version(flag)
            if found is not None:
                versions[flag] = found
        return versions


def _a64_version_name(version: str) -> str:
    major, minor = version.split(".")
    return f"armv{major}-a" if minor == "0" else f"armv{version}-a"


@cache
def clang_on(items: tuple[str, ...]) -> frozenset[str]:
    """The features a clang feature string turns on (``+f`` items)."""
    return frozenset(i[1:] for i in items if i[0] == "+")


def _ext(raw: dict[str, Any]) -> Ext:
    return Ext(
        adds=frozenset(raw["adds"]) if "adds" in raw else None,
        removes=frozenset(raw["removes"]) if "removes" in raw else None,
        no_adds=frozenset(raw.get("no_adds", ())),
        plus_removes=frozenset(raw.get("plus_removes", ())),
        version_adds={v: frozenset(f) for v, f in raw.get("version_adds", {}).items()},
    )


def _a64_cpu(name: str) -> CpuEntry:
    c = load(f"aarch64-cpus/{name}.json")
    return CpuEntry(
        name=name,
        llvm_cpu=c["llvm_cpu"],
        arch=_a64_version_name(c["arch_version"]) if c["profile"] == "a" else "armv8-r",
        arch_version=c["arch_version"],
        profile=c["profile"],
        features=frozenset(c["features"]),
        llc_features=frozenset(c["llc_features"]),
        clang=tuple(c["clang"]),
    )


def _a64_arch() -> tuple[dict[str, ArchTable], ExtTable]:
    raw = load("aarch64-arch.json")
    arches = {
        a["march"]: ArchTable(a["march"], version, "a", frozenset(a["features"]), clang=tuple(a["clang"]))
        for version, a in raw["arches"].items()
    }
    return arches, ExtTable(raw["extensions"])


@cache
def aarch64() -> Family:
    """The AArch64 tables (LLVM's AArch64 target); the architectures, the extensions and
    each CPU are read when first used."""
    raw = load("aarch64.json")
    return Family(
        name="aarch64",
        source=raw["source"],
        llvm_features=raw["llvm_features"],
        hardware=frozenset(raw["hardware"]),
        implies={f: frozenset(i) for f, i in raw["implies"].items()},
        cpus=CpuTable(index()["families"]["aarch64"]["cpus"], _a64_cpu),
        arch=_a64_arch,
        soft_float_drops={},
        fpus={},
        generic=lambda: _a64_cpu("generic"),
    )


def arm_version(arch: str) -> str:
    """The version number of an Arm architecture name: ``armv7e-m`` -> ``7``, ``armv8.1-m.main`` -> ``8.1``."""
    found = re.match(r"armv(\d+)(?:\.(\d+))?", arch)
    if found is None:
        return arch
    return f"{found.group(1)}.{found.group(2) or 0}"


@cache
def arm() -> Family:
    """The 32-bit Arm tables (LLVM's ARM target: A, R and M profiles)."""
    raw = load("arm.json")
    shared = {k: ExtTable(t) for k, t in raw["cpu_extension_tables"].items()}
    cpus = {
        name: CpuEntry(
            name=name,
            llvm_cpu=name,
            arch=c["arch"],
            arch_version=arm_version(c["arch"]),
            profile=c["profile"],
            features=frozenset(c["features"]),
            llc_features=frozenset(c["llc_features"]),
            triple_arch=c["triple_arch"],
            fpu=c["fpu"],
            soft_drops=frozenset(c["soft_drops"]),
            clang=tuple(c["clang"]),
            extensions=shared[c["extension_table"]],
        )
        for name, c in raw["cpus"].items()
    }
    arches = {
        name: ArchTable(
            name,
            arm_version(name),
            a["profile"],
            frozenset(a["features"]),
            a["triple_arch"],
            clang=tuple(a["clang"]),
            llc_features=frozenset(a["llc_features"]),
            extensions=ExtTable(a["extensions"]),
            clang_cpu=a["clang_cpu"],
            soft_drops=frozenset(a["soft_drops"]),
        )
        for name, a in raw["arches"].items()
    }
    return Family(
        name="arm",
        source=raw["source"],
        llvm_features=raw["llvm_features"],
        hardware=frozenset(raw["hardware"]),
        implies={f: frozenset(i) for f, i in raw["implies"].items()},
        cpus=cpus,
        arch=lambda: (arches, _NO_EXTENSIONS),
        soft_float_drops={p: frozenset(d) for p, d in raw["soft_float_drops"].items()},
        fpus={frozenset(k.split(",")) - {""}: v for k, v in raw["fpus"].items()},
    )


@cache
def cpuinfo_table() -> Any:
    """``data/cpuinfo.json``: implementer/part numbers to LLVM CPUs, Linux hwcaps to LLVM features."""
    return load("cpuinfo.json")


@cache
def tag_table() -> Any:
    """``data/tags.json``: the device tags with their sources."""
    return load("tags.json")


@cache
def system_register_features() -> tuple[str, ...]:
    """The features that only name system registers, which compiled code does not use (``data/runs_on.json``)."""
    data: dict[str, Any] = load("runs_on.json")
    return tuple(sorted(data["system_register_only"]))
