"""The generated LLVM tables, loaded once on first use and precomputed for fast lookups.

``data/aarch64.json`` and ``data/arm.json`` come from ``scripts/generate_data.py``
(which names the clang and LLVM version in each file's ``source``); ``data/cpuinfo.json``
and ``data/tags.json`` hold facts with their cited sources. Nothing is read at import.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["ArchTable", "CpuEntry", "Family", "aarch64", "arm", "cpuinfo_table", "load", "tag_table"]

_ARCH_FLAG = re.compile(r"v\d")
_A_VERSION = re.compile(r"v(\d+)(?:\.(\d+))?a")


def load(name: str) -> Any:
    """The parsed JSON data file ``name`` shipped in ``tcfg_aarch64/data``."""
    return json.loads(resources.files("tcfg_aarch64").joinpath("data").joinpath(name).read_text("utf-8"))


@dataclass(frozen=True)
class CpuEntry:
    """One CPU as LLVM defines it: default features, architecture and (Arm) ABI facts."""

    name: str
    llvm_cpu: str
    arch: str
    arch_version: str
    profile: str
    features: frozenset[str]
    triple_arch: str = ""
    fpu: str = "none"
    soft_drops: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ArchTable:
    """An architecture version (``-march`` name) and the LLVM features it implies."""

    name: str
    version: str
    profile: str
    features: frozenset[str]
    triple_arch: str = ""


@dataclass(frozen=True)
class Family:
    """Everything the resolver needs for one family (``aarch64`` or ``arm``).

    ``extensions[profile][ext]`` = (features ``+ext`` adds, features ``+noext``
    removes), each a closure over LLVM's feature graph; ``requires``/``dependents``
    give the same closures per LLVM feature name for ``-mattr``.
    """

    name: str
    source: dict[str, Any]
    llvm_features: dict[str, str]
    cpus: dict[str, CpuEntry]
    arches: dict[str, ArchTable]
    extensions: dict[str, dict[str, tuple[frozenset[str], frozenset[str]]]]
    requires: dict[str, dict[str, frozenset[str]]]
    dependents: dict[str, dict[str, frozenset[str]]]
    soft_float_drops: dict[str, frozenset[str]]
    fpus: dict[frozenset[str], str]
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


def _a64_version_name(version: str) -> str:
    major, minor = version.split(".")
    return f"armv{major}-a" if minor == "0" else f"armv{version}-a"


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
        )
        for name, c in raw["cpus"].items()
    }
    arches = {
        a["march"]: ArchTable(a["march"], version, "a", frozenset(a["features"]))
        for version, a in raw["arches"].items()
    }
    exts = {e: (frozenset(x["adds"]), frozenset(x["removes"])) for e, x in raw["extensions"].items()}
    return Family(
        name="aarch64",
        source=raw["source"],
        llvm_features=raw["llvm_features"],
        cpus=cpus,
        arches=arches,
        extensions={"a": exts, "r": exts},
        requires={"a": {f: frozenset(g["requires"]) for f, g in raw["graph"].items()}},
        dependents={"a": {f: frozenset(g["dependents"]) for f, g in raw["graph"].items()}},
        soft_float_drops={},
        fpus={},
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
    cpus = {
        name: CpuEntry(
            name=name,
            llvm_cpu=name,
            arch=c["arch"],
            arch_version=arm_version(c["arch"]),
            profile=c["profile"],
            features=frozenset(c["features"]),
            triple_arch=c["triple_arch"],
            fpu=c["fpu"],
            soft_drops=frozenset(c["soft_drops"]),
        )
        for name, c in raw["cpus"].items()
    }
    arches = {
        name: ArchTable(name, arm_version(name), a["profile"], frozenset(a["features"]), a["triple_arch"])
        for name, a in raw["arches"].items()
    }
    exts = {
        p: {e: (frozenset(x["adds"]), frozenset(x["removes"])) for e, x in table["table"].items()}
        for p, table in raw["extensions"].items()
    }
    return Family(
        name="arm",
        source=raw["source"],
        llvm_features=raw["llvm_features"],
        cpus=cpus,
        arches=arches,
        extensions=exts,
        requires={
            p: {f: frozenset(g["requires"]) for f, g in t["graph"].items()} for p, t in raw["extensions"].items()
        },
        dependents={
            p: {f: frozenset(g["dependents"]) for f, g in t["graph"].items()} for p, t in raw["extensions"].items()
        },
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
