"""Host detection on Arm Linux: ``/proc/cpuinfo`` to an LLVM CPU name and ``-mattr`` corrections.

The CPU comes from the ``CPU implementer`` and ``CPU part`` lines, as LLVM's
``sys::getHostCPUName`` reads them (the last part listed, as LLVM does when it does not
recognise a big.LITTLE pair). The ``Features`` line (Linux hwcaps) then corrects the
CPU's default features: a checked feature the CPU implies but the kernel does not
report becomes ``-f``; one it reports that the CPU lacks becomes ``+f``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tcfg.plugin import TargetError
from tcfg_aarch64.facts import cpuinfo_table
from tcfg_aarch64.resolve import family_of_cpu

__all__ = ["CpuInfo", "native_attrs", "parse_cpuinfo", "read_host"]

CPUINFO = "/proc/cpuinfo"


class CpuInfo(NamedTuple):
    """The Arm facts of a ``/proc/cpuinfo`` text."""

    implementer: str
    parts: tuple[str, ...]
    hwcaps: frozenset[str]


def _field(line: str) -> str:
    return line.split(":", 1)[1].strip().lower() if ":" in line else ""


def parse_cpuinfo(text: str) -> CpuInfo:
    """The implementer, the part numbers (in order) and the hwcaps of the first core listing them."""
    implementer = ""
    parts: list[str] = []
    hwcaps: frozenset[str] | None = None
    for line in text.splitlines():
        if line.startswith("CPU implementer"):
            implementer = _field(line)
        elif line.startswith("CPU part"):
            parts.append(_field(line))
        elif line.startswith("Features") and hwcaps is None:
            hwcaps = frozenset(_field(line).split())
    return CpuInfo(implementer, tuple(parts), hwcaps or frozenset())


def cpu_name(info: CpuInfo) -> str:
    """The LLVM CPU name for the implementer and last part, or ``generic``."""
    table = cpuinfo_table()["parts"].get(info.implementer, {})
    if not info.parts:
        return "generic"
    part = info.parts[-1]
    name = table.get(part)
    if name is None and part.startswith("0x"):  # LLVM lists some parts both as 0xaf and 0x0af
        number = int(part, 16)
        name = next((n for p, n in table.items() if int(p, 16) == number), None)
    return name or "generic"


def native_attrs(text: str) -> dict[str, Any]:
    """``mcpu`` and ``mattr`` for the machine that ``text`` (a /proc/cpuinfo) describes."""
    info = parse_cpuinfo(text)
    if not info.implementer:
        raise TargetError("/proc/cpuinfo has no 'CPU implementer' line: not an Arm CPU, or an unreadable one")
    name = cpu_name(info)
    table = cpuinfo_table()
    present = {feat for cap in info.hwcaps for feat in table["hwcaps"].get(cap, ())}
    attrs: dict[str, Any] = {}
    family = family_of_cpu(name)
    defaults = family.cpus[name].features if family is not None and name != "generic" else frozenset()
    if name != "generic":
        attrs["mcpu"] = name
    checked = set(table["checked"])
    if family is None or family.name == "aarch64":
        adds = sorted((present & checked) - defaults)
        drops = sorted((defaults & checked) - present)
        mattr = [f"+{f}" for f in adds] + [f"-{f}" for f in drops]
        if mattr:
            attrs["mattr"] = tuple(mattr)
    return attrs


def read_host() -> str | None:
    """The text of this machine's /proc/cpuinfo, or None where there is none."""
    try:
        with open(CPUINFO, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None
