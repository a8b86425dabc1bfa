"""RISC-V Linux machines from their ``/proc/cpuinfo``: the CPU LLVM's host detection names and the
extensions the ``isa`` line lists.

The CPU follows LLVM 22's ``sys::getHostCPUName``: the ``uarch`` line through
``data/host_cpus.json`` (generated from LLVM's ``Host.cpp`` by ``scripts/gen_host_cpu.py``),
else ``generic-rv64``/``generic-rv32`` by the ``isa`` line's width. The ``isa`` line's
extensions (``rv64imafdcv_zicbom_...``: single letters, then ``_``-separated names) that
LLVM 22 knows as ratified extensions and the CPU lacks become ``-mattr`` additions.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tcfg.plugin import TargetError, package_json
from tcfg_riscv.facts import tables
from tcfg_riscv.resolve import riscv_cpu

__all__ = ["cpu_name", "host_cpus", "is_riscv", "isa_extensions", "native_attrs", "recorded_triple"]


@cache
def host_cpus() -> dict[str, str]:
    """``uarch`` value -> LLVM CPU (``data/host_cpus.json``)."""
    found: dict[str, str] = package_json("tcfg_riscv", "data/host_cpus.json")["uarch"]
    return found


def _field(text: str, key: str) -> str | None:
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip() == key:
            return value.strip()
    return None


def cpu_name(text: str) -> str:
    """The CPU LLVM's ``getHostCPUNameForRISCV`` names from the ``uarch`` line, or ``""`` (LLVM's
    caller then says ``generic-rv32``/``generic-rv64``)."""
    return host_cpus().get(_field(text, "uarch") or "", "")


def is_riscv(text: str) -> bool:
    """Whether a ``/proc/cpuinfo`` text describes a RISC-V machine (its ``isa`` line starts ``rv``)."""
    return (_field(text, "isa") or "").lower().startswith(("rv32", "rv64"))


def isa_extensions(isa: str) -> tuple[int, list[str]]:
    """The width and extensions of an ``isa`` line: ``rv64imafdc_zicsr`` -> ``(64, [i, m, a, f, d, c, zicsr])``."""
    isa = isa.lower()
    if not isa.startswith(("rv32", "rv64")):
        raise TargetError(f"/proc/cpuinfo isa line {isa!r} does not start with rv32 or rv64")
    head, *rest = isa[4:].split("_")
    return int(isa[2:4]), [*head, *(name for name in rest if name)]


def recorded_triple(text: str) -> str:
    """The Linux triple of the RISC-V machine a ``/proc/cpuinfo`` text records."""
    xlen, _ = isa_extensions(_field(text, "isa") or "")
    return f"riscv{xlen}-unknown-linux-gnu"


def native_attrs(text: str) -> dict[str, Any]:
    """``mcpu`` and ``mattr`` for the RISC-V machine ``text`` (a /proc/cpuinfo) describes."""
    isa = _field(text, "isa")
    if isa is None:
        raise TargetError("/proc/cpuinfo has no 'isa' line: not a RISC-V Linux machine, or an unreadable one")
    xlen, extensions = isa_extensions(isa)
    cpu = cpu_name(text) or f"generic-rv{xlen}"
    known = tables().extensions
    has = riscv_cpu(cpu).extensions
    adds = [e for e in dict.fromkeys(extensions) if e in known and not known[e]["experimental"] and e not in has]
    attrs: dict[str, Any] = {"mcpu": cpu}
    if adds:
        attrs["mattr"] = tuple(f"+{e}" for e in adds)
    return attrs
