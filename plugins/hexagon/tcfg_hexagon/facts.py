"""The Hexagon table (``data/hexagon.json``, generated from clang-22/llc-22), loaded once on first use."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from tcfg.plugin import TargetError, describe_choices, package_json

__all__ = [
    "CpuInfo",
    "HvxInfo",
    "always_features",
    "cpu_info",
    "cpu_names",
    "default_cpu",
    "hvx_info",
    "hvx_versions",
    "llc_features",
]


class CpuInfo(NamedTuple):
    """One Hexagon CPU as clang-22 sees it.

    ``arch``: ``__HEXAGON_ARCH__``; ``features``: what clang enables for it without HVX
    (``+v68``, ``+audio``); ``mhvx``: the HVX feature ``-mhvx`` adds (``+hvxv68``; on
    hexagonv5/v55 clang adds ``+hvxv5``/``+hvxv55``, which the backend does not know).
    """

    name: str
    arch: int
    physical_slots: int
    audio: bool
    features: tuple[str, ...]
    mhvx: str

    @property
    def mhvx_version(self) -> int:
        """The HVX version ``-mhvx`` picks for this CPU."""
        return int(self.mhvx.removeprefix("+hvxv"))


class HvxInfo(NamedTuple):
    """One HVX version: the vector length (bytes) clang picks without ``-mhvx-length``, and what it allows."""

    version: int
    default_length: int
    qfloat: bool
    ieee_fp: bool


@functools.cache
def _raw() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_hexagon", "data/hexagon.json")
    return data


@functools.cache
def _cpus() -> dict[str, CpuInfo]:
    return {
        name: CpuInfo(name, row["arch"], row["physical_slots"], row["audio"], tuple(row["features"]), row["mhvx"])
        for name, row in _raw()["cpus"].items()
    }


@functools.cache
def _hvx() -> dict[int, HvxInfo]:
    return {
        int(v): HvxInfo(int(v), row["default_length"], row["qfloat"], row["ieee_fp"])
        for v, row in _raw()["hvx_versions"].items()
    }


def cpu_names() -> list[str]:
    """Every Hexagon CPU clang-22 accepts, oldest first."""
    return list(_cpus())


def cpu_info(name: str) -> CpuInfo:
    """The CPU ``name``; a :class:`TargetError` offers the closest names."""
    info = _cpus().get(name)
    if info is None:
        raise TargetError(f"unknown Hexagon CPU {name!r}; {describe_choices(name, _cpus())}")
    return info


def hvx_info(version: int) -> HvxInfo | None:
    """The HVX version ``version`` (``68``), or None where LLVM has no such HVX."""
    return _hvx().get(version)


def hvx_versions() -> list[int]:
    """Every HVX version LLVM 22's Hexagon backend knows."""
    return list(_hvx())


def default_cpu() -> str:
    """The CPU clang-22 compiles for when none is given."""
    return str(_raw()["default_cpu"])


def always_features() -> tuple[str, ...]:
    """Features clang adds for every Hexagon CPU (``-long-calls``)."""
    return tuple(_raw()["always_features"])


@functools.cache
def llc_features() -> frozenset[str]:
    """Every feature name ``llc-22 -mtriple=hexagon -mattr=help`` lists."""
    return frozenset(_raw()["llc_features"])
