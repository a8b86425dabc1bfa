"""The generated LLVM tables, loaded once on first use and precomputed for fast lookups.

``data/aarch64.json`` and ``data/arm.json`` come from ``scripts/generate_data.py``
(which names the clang and LLVM version in each file's ``source``); ``data/cpuinfo.json``
and ``data/tags.json`` hold facts with their cited sources. Nothing is read at import.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tcfg.plugin import package_json

__all__ = [
    "ArchTable",
    "CpuEntry",
    "Ext",
    "ExtTable",
    "Family",
    "clang_on",
    "aarch64",
    "arm",
    "cpuinfo_table",
    "load",
    "tag_table",
]

_ARCH_FLAG = re.compile(r"v\d")
_A_VERSION = re.compile(r"v(\d+)(?:\.(\d+))?a")


def load(name: str) -> Any:
    """The parsed JSON data file ``name`` shipped in ``tcfg_aarch64/data``."""
    return package_json("tcfg_aarch64", f"data/{name}")


@dataclass(frozen=True)
class Ext:
    """What ``+ext`` and ``+noext`` do (``None``: clang refuses that spelling here)."""

    adds: frozenset[str] | None
    removes: frozenset[str] | None
    no_adds: frozenset[str] = frozenset()
    #: What ``+ext`` turns off (clang's ``armv7e-m+fp`` drops the default FPU).
    plus_removes: frozenset[str] = frozenset()
    #: Extra features ``+ext`` adds at an architecture version (``fp16`` adds ``fp16fml`` from 8.4).
    version_adds: dict[str, frozenset[str]] = field(default_factory=dict)


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


@dataclass(frozen=True)
class CpuEntry:
    """One CPU as LLVM defines it: features, architecture and (Arm) ABI facts.

    ``features`` is what the backend has for clang's ``-mcpu`` (clang's CPU table closed
    under LLVM's feature implication); ``llc_features`` what llc's ``-mcpu`` alone gives
    (the backend's CPU definition, which can have fewer).
    """

    name: str
    llvm_cpu: str
    arch: str
    arch_version: str
    profile: str
    features: frozenset[str]
    llc_features: frozenset[str] = frozenset()
    triple_arch: str = ""
    fpu: str = "none"
    soft_drops: frozenset[str] = frozenset()
    #: clang's own (frontend) feature string for the CPU (hardware items): ``+noext`` turns
    #: off only what it has on (:func:`clang_on`).
    clang: tuple[str, ...] = ()
    #: 32-bit Arm: what ``-mcpu=X+ext`` does to this CPU (clang applies it to the CPU's own FPU).
    extensions: ExtTable = field(default_factory=ExtTable)


@dataclass(frozen=True)
class ArchTable:
    """An architecture version (``-march`` name) and the LLVM features it implies.

    ``clang`` is the feature string clang's ``-march`` gives the backend (its hardware
    items, in order), which a CPU given as well starts from. ``extensions`` is set for
    32-bit Arm, whose ``+ext`` meaning depends on the architecture.
    """

    name: str
    version: str
    profile: str
    features: frozenset[str]
    triple_arch: str = ""
    clang: tuple[str, ...] = ()
    llc_features: frozenset[str] = frozenset()
    extensions: ExtTable = field(default_factory=ExtTable)
    #: The CPU clang's -march picks (32-bit Arm: ``armv7e-m`` means ``cortex-m4``), or generic.
    clang_cpu: str = "generic"
    #: What clang turns off for this architecture under the soft-float ABI.
    soft_drops: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Family:
    """Everything the resolver needs for one family (``aarch64`` or ``arm``).

    ``implies[f]`` is every LLVM feature ``f`` implies (transitively), ``implied_by[f]``
    every feature that implies ``f``: LLVM's ``-mattr=+f`` sets f and ``implies[f]``,
    ``-f`` clears f and ``implied_by[f]``. ``hardware`` are the features a target
    reports (not tuning or modes).
    """

    name: str
    source: dict[str, Any]
    llvm_features: dict[str, str]
    hardware: frozenset[str]
    implies: dict[str, frozenset[str]]
    cpus: dict[str, CpuEntry]
    arches: dict[str, ArchTable]
    #: AArch64's ``+ext`` table (on 32-bit Arm each ArchTable has its own).
    extensions: ExtTable
    soft_float_drops: dict[str, frozenset[str]]
    fpus: dict[frozenset[str], str]
    generic: CpuEntry | None = None
    implied_by: dict[str, frozenset[str]] = field(default_factory=dict)
    #: LLVM features that name an architecture version (``v8.2a``, ``armv7e-m``), not an extension.
    arch_flags: frozenset[str] = frozenset()
    #: Every LLVM feature that some FPU in ``fpus`` has (the FP part of a feature set).
    fp_features: frozenset[str] = frozenset()
    #: A-profile version flags as numbers: ``v8.2a`` -> (8, 2).
    flag_versions: dict[str, tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        flags = {f for f in self.llvm_features if _ARCH_FLAG.match(f) or f.startswith("armv")}
        object.__setattr__(self, "arch_flags", frozenset(flags))
        object.__setattr__(self, "fp_features", frozenset().union(*self.fpus))
        versions = {}
        for flag in flags:
            found = _A_VERSION.fullmatch(flag)
            if found:
                versions[flag] = (int(found.group(1)), int(found.group(2) or 0))
        object.__setattr__(self, "flag_versions", versions)
        implied_by: dict[str, set[str]] = {}
        for feat, closure in self.implies.items():
            for other in closure:
                implied_by.setdefault(other, set()).add(feat)
        object.__setattr__(self, "implied_by", {f: frozenset(s) for f, s in implied_by.items()})


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


@cache
def aarch64() -> Family:
    """The AArch64 tables (LLVM's AArch64 target)."""
    raw = load("aarch64.json")
    cpus = {
        name: CpuEntry(
            name=name,
            llvm_cpu=c["llvm_cpu"],
            arch=_a64_version_name(c["arch_version"]) if c["profile"] == "a" else "armv8-r",
            arch_version=c["arch_version"],
            profile=c["profile"],
            features=frozenset(c["features"]),
            llc_features=frozenset(c["llc_features"]),
            clang=tuple(c["clang"]),
        )
        for name, c in raw["cpus"].items()
    }
    generic = cpus.pop("generic")
    arches = {
        a["march"]: ArchTable(a["march"], version, "a", frozenset(a["features"]), clang=tuple(a["clang"]))
        for version, a in raw["arches"].items()
    }
    return Family(
        name="aarch64",
        source=raw["source"],
        llvm_features=raw["llvm_features"],
        hardware=frozenset(raw["hardware"]),
        implies={f: frozenset(i) for f, i in raw["implies"].items()},
        cpus=cpus,
        arches=arches,
        extensions=ExtTable(raw["extensions"]),
        soft_float_drops={},
        fpus={},
        generic=generic,
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
        arches=arches,
        extensions=ExtTable(),
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
