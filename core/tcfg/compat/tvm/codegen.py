"""TVM's LLVM queries (``tvm.target.codegen``) answered from tcfg's features and LLVM 22's tables.

``llvm_cpu_has_features(["sse4.1", "avx2"], target)``, ``llvm_get_cpu_features(target)``,
``llvm_get_cpu_archlist(target)``, ``llvm_get_targets()``, ``llvm_get_vector_width(target)``:
``target`` is a target-like value, or the current target (``with Target(...):``) when None.
Feature names are LLVM's (``sse4.1``, ``amx-int8``); a name LLVM 22 does not know for the
target's CPU family is absent (False), as in TVM.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import tcfg
from tcfg.compat.tvm.data import family_of, table
from tcfg.compat.tvm.target import Target

__all__ = [
    "llvm_cpu_has_features",
    "llvm_get_cpu_archlist",
    "llvm_get_cpu_features",
    "llvm_get_system_cpu",
    "llvm_get_system_triple",
    "llvm_get_system_x86_vendor",
    "llvm_get_targets",
    "llvm_get_vector_width",
    "llvm_is_valid_cpu",
    "llvm_version_major",
    "target_has_features",
]


def _target(target: Any) -> tcfg.Target:
    if target is None:
        now = tcfg.Target.current()
        if now is None:
            raise tcfg.TargetError("Target context required: pass a target or call inside 'with Target(...):'")
        return now
    return Target.canon_target(target).tcfg  # type: ignore[union-attr]


def _family(target: tcfg.Target) -> str:
    triple = getattr(target.codegen(), "triple", None) if target.kind.name in ("llvm", "c") else None
    family = family_of(triple) if isinstance(triple, str) else None
    if family is None:
        raise tcfg.TargetError(
            f"target {str(target)!r} is not an LLVM CPU target tcfg has LLVM tables for "
            f"(families: {', '.join(sorted(table()['llvm_cpus']))})"
        )
    return family


def _name(feature: str) -> str:
    return feature.lower().replace(".", "_").replace("-", "_")


def llvm_version_major(allow_none: bool = False) -> int:
    """The LLVM major version whose facts tcfg answers with (22)."""
    return 22


def llvm_get_system_triple() -> str:
    """This machine's LLVM triple (what ``llvm`` without ``-mtriple`` means)."""
    return str(tcfg.Target("llvm").attrs["mtriple"])


def llvm_get_system_cpu() -> str:
    """This machine's CPU, as LLVM names it (``-mcpu=native`` read by the plugin of this architecture)."""
    return str(tcfg.Target("llvm -mcpu=native").codegen().cpu)  # type: ignore[attr-defined]


#: LLVM's ``sys::detail::x86::getVendorSignature`` (llvm/lib/TargetParser/Host.cpp): the CPUID
#: vendor strings it names, and TVM's word for each; any other x86 vendor is ``unknown``.
_X86_VENDORS = {"GenuineIntel": "intel", "AuthenticAMD": "amd"}


def x86_vendor(triple: str, cpuinfo: str | None) -> str:
    """TVM's ``llvm_get_system_x86_vendor`` for a machine of LLVM ``triple`` whose ``/proc/cpuinfo``
    text is ``cpuinfo`` (None where there is none): ``intel``, ``amd``, ``unknown`` on x86, and
    ``unimplemented`` on any other architecture, as TVM answers there."""
    if not isinstance(triple, str):
        raise tcfg.TargetError(f"x86_vendor: triple {triple!r} must be an LLVM triple such as 'x86_64-linux-gnu'")
    if family_of(triple) not in ("x86", "x86_64"):
        return "unimplemented"
    for line in (cpuinfo or "").splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "vendor_id":
            return _X86_VENDORS.get(value.strip(), "unknown")
    return "unknown"


def llvm_get_system_x86_vendor() -> str:
    """This machine's x86 CPU vendor as TVM names it (``intel``, ``amd``, ``unknown``), read from the
    ``vendor_id`` of ``/proc/cpuinfo`` (the CPUID vendor string LLVM reads); ``unimplemented`` off x86."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as file:
            text: str | None = file.read()
    except OSError:
        text = None
    return x86_vendor(llvm_get_system_triple(), text)


def llvm_get_targets() -> list[str]:
    """LLVM 22's registered targets (``llc-22 --version``)."""
    return list(table()["llvm_targets"])


def llvm_get_cpu_archlist(target: Any = None) -> list[str]:
    """The CPUs LLVM 22 has for the target's triple."""
    return list(table()["llvm_cpus"][_family(_target(target))])


def llvm_is_valid_cpu(cpu: str, triple: str) -> bool:
    """Whether LLVM 22 has the CPU ``cpu`` for the LLVM triple ``triple`` (a TargetError for a triple
    whose architecture tcfg has no LLVM tables for)."""
    if not isinstance(cpu, str):
        raise tcfg.TargetError(f"llvm_is_valid_cpu({cpu!r}, {triple!r}): the CPU must be a name such as 'skylake'")
    family = family_of(triple) if isinstance(triple, str) else None
    if family is None:
        raise tcfg.TargetError(
            f"llvm_is_valid_cpu({cpu!r}, {triple!r}): no LLVM CPU table for triple {triple!r} "
            f"(families: {', '.join(sorted(table()['llvm_cpus']))})"
        )
    return cpu in table()["llvm_cpus"][family]


def llvm_get_cpu_features(target: Any = None) -> set[str]:
    """The LLVM features (LLVM's spellings) the target has, its CPU's and ``-mattr``'s."""
    found = _target(target)
    have = {name for name, value in dict(found.features.items()).items() if value is True}
    return {f for f in table()["llvm_features"][_family(found)] if _name(f) in have}


def llvm_cpu_has_features(cpu_features: str | Iterable[str], target: Any = None) -> bool:
    """Whether the target has every feature of ``cpu_features`` (one name or several, LLVM's spellings)."""
    found = _target(target)
    names = [cpu_features] if isinstance(cpu_features, str) else list(cpu_features)
    known = {
        _name(f) for f in table()["llvm_features"].get(family_of(getattr(found.codegen(), "triple", "")) or "", ())
    }
    have = dict(found.features.items())
    return all(_name(f) in known and have.get(_name(f)) is True for f in names)


#: TVM's ``target_has_features`` is the same question.
target_has_features = llvm_cpu_has_features


def llvm_get_vector_width(target: Any = None) -> int:
    """The vector width in bits code generation assumes: ``-vector-width`` if given; on x86 LLVM 22's
    preferred width for the CPU; on RISC-V the least vector length (``vlen_bits``); else 128."""
    found = _target(target)
    given = found.attrs.get("vector-width")
    if given:
        return int(given)
    family = _family(found)
    if family in ("x86", "x86_64"):
        width = getattr(found.codegen(), "preferred_vector_width", None)
        if isinstance(width, int):
            return width
    if family in ("riscv32", "riscv64"):
        vlen = dict(found.features.items()).get("vlen_bits")
        if isinstance(vlen, int):
            return vlen
    return 128
