"""The CUDA plugin's tables, loaded once on first use: the CUDA arches (``data/arches.json``: arch names
and what runs on what) and LLVM 22's NVPTX processors and PTX versions (``data/nvptx.json``).

CUDA arches:

An arch is named ``sm_XY`` (portable), ``sm_XYa`` (arch-specific: uses features of
exactly compute capability X.Y) or ``sm_XYf`` (family-specific: runs within the family).
``compute_XY[a|f]`` names the same arch as PTX (virtual) code rather than a cubin.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from tcfg.plugin import TargetError, describe_choices, package_json

__all__ = [
    "ArchInfo",
    "CodeArch",
    "any_arch_limit",
    "arch_info",
    "arch_names",
    "clang_knows",
    "documented_cubin_rule",
    "limit_source",
    "llvm_min_ptx",
    "llvm_processors",
    "parse_code_arch",
    "ptx_versions",
    "runs_on",
]

_CODE = re.compile(r"(sm|compute)_([1-9][0-9]?)([0-9])([af]?)\Z")


class ArchInfo(NamedTuple):
    """One row of the arch table (see ``data/arches.json`` and the script that makes it)."""

    name: str
    major: int
    minor: int
    variant: str
    generation: str
    family: str | None
    min_ptx_isa: str
    min_cuda: str
    max_cuda: str | None
    renamed_to: str | None
    limits: dict[str, int]
    features: dict[str, bool | int | str]

    @property
    def compute_capability(self) -> tuple[int, int]:
        """``(major, minor)``."""
        return (self.major, self.minor)

    @property
    def base(self) -> str:
        """The portable arch of the same compute capability (``sm_90a`` -> ``sm_90``)."""
        return f"sm_{self.major}{self.minor}"


@functools.cache
def _raw() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_cuda", "data/arches.json")
    return data


def limit_source(limit: str) -> str:
    """The document the arch table's ``limit`` comes from, as the table cites it (with its date)."""
    data = _raw()
    return str(data["sources"][data["limit_sources"][limit]])


@functools.cache
def any_arch_limit(limit: str) -> int:
    """The largest value of ``limit`` over every arch in the table: what no CUDA GPU exceeds."""
    return max(info.limits[limit] for info in _table().values())


@functools.cache
def _table() -> dict[str, ArchInfo]:
    raw: dict[str, Any] = _raw()["arches"]
    return {
        name: ArchInfo(
            name=name,
            major=row["compute_capability"][0],
            minor=row["compute_capability"][1],
            variant=row["variant"],
            generation=row["generation"],
            family=row["family"],
            min_ptx_isa=row["min_ptx_isa"],
            min_cuda=row["min_cuda"],
            max_cuda=row["max_cuda"],
            renamed_to=row.get("renamed_to"),
            limits=row["limits"],
            features=row["features"],
        )
        for name, row in raw.items()
    }


def arch_names() -> list[str]:
    """Every known arch name (``sm_...``), oldest first."""
    return list(_table())


def arch_info(name: str) -> ArchInfo:
    """The table row of ``sm_XY[a|f]``; a :class:`TargetError` lists the closest names."""
    info = _table().get(name)
    if info is None:
        raise TargetError(f"unknown CUDA arch {name!r}; {describe_choices(name, _table())}")
    return info


class CodeArch(NamedTuple):
    """A compiled-code arch: ``sm_...`` (cubin, SASS) or ``compute_...`` (PTX, JIT-compiled)."""

    info: ArchInfo
    ptx: bool


def parse_code_arch(name: str) -> CodeArch:
    """``sm_90a`` or ``compute_80`` as a :class:`CodeArch`; unknown names raise :class:`TargetError`."""
    match = _CODE.match(name)
    if match is None:
        raise TargetError(
            f"{name!r} is not a CUDA arch; expected sm_XY or compute_XY, optionally with an "
            "'a' or 'f' suffix (sm_80, sm_90a, compute_100f)"
        )
    kind, major, minor, variant = match.groups()
    info = arch_info(f"sm_{major}{minor}{variant}")
    return CodeArch(info, kind == "compute")


def _device(name: str) -> ArchInfo:
    info = parse_code_arch(name).info
    if info.renamed_to is not None:
        info = arch_info(info.renamed_to)
    return arch_info(info.base)


def runs_on(code_arch: str, device_arch: str) -> bool:
    """Whether code compiled for ``code_arch`` runs on a device of ``device_arch``.

    ``device_arch`` names the device's compute capability (``sm_86``; a suffix is
    ignored). The rules of the CUDA compatibility guide and the PTX ISA ``.target``:

    * ``compute_XY`` (PTX) is JIT-compiled on any device of capability X.Y or later;
    * ``sm_XY`` (cubin) runs on devices of the same major version and minor >= Y, except
      where the toolkit's nvlink refuses the pair (``data/cubin.json``: sm_87, the Jetson
      Orin's Tegra GPU, and sm_88 link only with cubins of their own arch);
    * ``sm_XYf`` / ``compute_XYf`` run on devices of the same family with minor >= Y;
    * ``sm_XYa`` / ``compute_XYa`` run only on devices of capability X.Y.

    sm_101 is the CUDA 12.8-12.9 name of sm_110 and is treated as the same device.
    """
    code = parse_code_arch(code_arch)
    info = code.info
    if info.renamed_to is not None:
        info = arch_info(info.renamed_to)
    device = _device(device_arch)
    if info.variant == "a":
        return device.compute_capability == info.compute_capability
    if info.variant == "f":
        return device.family == info.family and device.compute_capability >= info.compute_capability
    if code.ptx:
        return device.compute_capability >= info.compute_capability
    return documented_cubin_rule(info.name, device.name) and [info.name, device.name] not in _not_binary_compatible()


def documented_cubin_rule(code_arch: str, device_arch: str) -> bool:
    """The general rule for a plain ``sm_XY`` cubin: a device of the same major version and a minor one
    at least as high. :func:`runs_on` also applies the exceptions nvlink enforces (``data/cubin.json``)."""
    code, device = arch_info(code_arch), arch_info(device_arch)
    return device.major == code.major and device.minor >= code.minor


@functools.cache
def _not_binary_compatible() -> list[list[str]]:
    pairs: list[list[str]] = package_json("tcfg_cuda", "data/cubin.json")["not_binary_compatible"]
    return pairs


@functools.cache
def _nvptx() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_cuda", "data/nvptx.json")
    return data


def llvm_processors() -> list[str]:
    """Every NVPTX processor llc-22 lists, oldest first."""
    return list(_nvptx()["processors"])


def llvm_min_ptx(cpu: str) -> str:
    """The lowest PTX ISA version (``"8.0"``) LLVM 22 accepts for ``cpu``; a TargetError for an unknown one."""
    row = _nvptx()["processors"].get(cpu)
    if row is None:
        raise TargetError(f"LLVM 22 has no NVPTX processor {cpu!r}; {describe_choices(cpu, _nvptx()['processors'])}")
    return str(row["min_ptx"])


def clang_knows(cpu: str) -> bool:
    """Whether clang-22's NVPTX target accepts ``cpu`` (it lacks the family ``sm_XXXf`` processors)."""
    return cpu in _nvptx()["clang_processors"]


def ptx_versions() -> list[str]:
    """Every PTX ISA version LLVM 22 can write (``"3.2"`` .. ``"9.0"``)."""
    return list(_nvptx()["ptx_versions"])
