"""Host detection on Arm Linux: ``/proc/cpuinfo`` to an LLVM CPU name and ``-mattr`` corrections.

The CPU comes from the ``CPU implementer``, ``CPU part``, ``CPU variant`` and ``Hardware``
lines, by LLVM 22's ``sys::getHostCPUName`` rules (``data/cpuinfo.json``, generated from
LLVM's ``Host.cpp`` by ``scripts/gen_host_cpu.py``): a known big.LITTLE pair of distinct
parts names the big core; otherwise the last part listed names the CPU; Samsung's
Exynos parts are read with their variant. The ``Features`` line (Linux hwcaps) then
corrects the CPU's default features: a checked feature the CPU implies but the kernel
does not report becomes ``-f``; one it reports that the CPU lacks becomes ``+f``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tcfg.plugin import TargetError
from tcfg_aarch64.facts import cpuinfo_table
from tcfg_aarch64.resolve import family_of_cpu

__all__ = [
    "CpuInfo",
    "cpu_name",
    "is_apple_sysctl",
    "is_arm",
    "native_attrs",
    "parse_cpuinfo",
    "read_host",
    "recorded_triple",
    "sysctl_attrs",
]

CPUINFO = "/proc/cpuinfo"


class CpuInfo(NamedTuple):
    """The Arm facts of a ``/proc/cpuinfo`` text."""

    implementer: str
    parts: tuple[str, ...]
    hwcaps: frozenset[str]
    variant: str = ""
    hardware: str = ""


def _field(line: str) -> str:
    return line.split(":", 1)[1].strip().lower() if ":" in line else ""


def parse_cpuinfo(text: str) -> CpuInfo:
    """The implementer, the part numbers (in order), the hwcaps of the first core listing them, the
    last ``CPU variant`` and the ``Hardware`` line."""
    implementer = variant = hardware = ""
    parts: list[str] = []
    hwcaps: frozenset[str] | None = None
    for line in text.splitlines():
        if line.startswith("CPU implementer"):
            implementer = _field(line)
        elif line.startswith("Hardware"):
            hardware = line.split(":", 1)[1].strip() if ":" in line else ""
        elif line.startswith("CPU part"):
            parts.append(_field(line))
        elif line.startswith("CPU variant"):
            variant = _field(line)
        elif line.startswith("Features") and hwcaps is None:
            hwcaps = frozenset(_field(line).split())
    return CpuInfo(implementer, tuple(parts), hwcaps or frozenset(), variant, hardware)


def _number(text: str) -> int | None:
    try:
        return int(text, 0)
    except ValueError:
        return None


def cpu_name(info: CpuInfo) -> str:
    """The LLVM CPU name of the machine ``info`` describes, by LLVM 22's rules; ``generic`` when unknown."""
    table = cpuinfo_table()
    implementer = info.implementer
    part = info.parts[-1] if info.parts else ""
    for suffix, cpu in table["hardware"].get(implementer, ()):
        if info.hardware.endswith(suffix):
            return str(cpu)
    distinct = set(info.parts)
    for big, little, cpu in table["big_little"].get(implementer, ()):
        if distinct == {big, little} and big != little:
            return str(cpu)
    by_variant = table["variant_parts"].get(implementer)
    if by_variant is not None:
        number, variant = _number(part), _number(info.variant or "0")
        code = ((variant or 0) << 12) | (number or 0)
        cases = {int(key, 16): cpu for key, cpu in by_variant["cases"].items()}
        return str(cases.get(code, by_variant["default"]))
    return str(table["parts"].get(implementer, {}).get(part, "generic"))


def is_arm(text: str) -> bool:
    """Whether a ``/proc/cpuinfo`` text describes an Arm machine (it has a ``CPU implementer`` line)."""
    return any(line.startswith("CPU implementer") for line in text.splitlines())


def recorded_triple(text: str) -> str:
    """The Linux triple of the Arm machine a ``/proc/cpuinfo`` text records: AArch64 when its
    hwcaps are AArch64's (``asimd``/``fp``), else 32-bit Arm of its ``CPU architecture``."""
    info = parse_cpuinfo(text)
    if info.hwcaps & {"asimd", "fp", "cpuid"}:
        return "aarch64-unknown-linux-gnu"
    arch = next((_field(line) for line in text.splitlines() if line.startswith("CPU architecture")), "7")
    version = arch if arch.isdigit() and int(arch) <= 7 else "7"
    abi = "gnueabihf" if info.hwcaps & {"vfp", "vfpv3", "vfpv4"} else "gnueabi"
    return f"armv{version}-unknown-linux-{abi}"


def native_attrs(text: str) -> dict[str, Any]:
    """``mcpu`` and ``mattr`` for the machine that ``text`` (a /proc/cpuinfo) describes."""
    info = parse_cpuinfo(text)
    if not info.implementer:
        raise TargetError("/proc/cpuinfo has no 'CPU implementer' line: not an Arm CPU, or an unreadable one")
    table = cpuinfo_table()
    present = {feat for cap in info.hwcaps for feat in table["hwcaps"].get(cap, ())}
    return _attrs(cpu_name(info), present)


def _attrs(name: str, present: set[str], absent: set[str] | None = None) -> dict[str, Any]:
    """``mcpu`` (unless generic) and the ``mattr`` that makes its checked features ``present``, and
    not ``absent`` (default: every checked feature not present)."""
    attrs: dict[str, Any] = {}
    family = family_of_cpu(name)
    defaults = family.cpus[name].features if family is not None and name != "generic" else frozenset()
    if name != "generic":
        attrs["mcpu"] = name
    checked = set(cpuinfo_table()["checked"])
    if family is None or family.name == "aarch64":
        adds = sorted((present & checked) - defaults)
        drops = sorted((defaults & checked) - present if absent is None else (defaults & checked & absent) - present)
        mattr = [f"+{f}" for f in adds] + [f"-{f}" for f in drops]
        if mattr:
            attrs["mattr"] = tuple(mattr)
    return attrs


def _sysctl(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            found.setdefault(key.strip(), value.strip())
    return found


def is_apple_sysctl(text: str) -> bool:
    """Whether a macOS ``sysctl -a`` text describes an Apple silicon (Arm) Mac."""
    values = _sysctl(text)
    return values.get("hw.cputype") == "16777228" or any(k.startswith("hw.optional.arm") for k in values)


def sysctl_attrs(text: str) -> dict[str, Any]:
    """``mcpu`` and ``mattr`` for the Apple silicon Mac a ``sysctl -a`` text describes.

    The CPU is LLVM's for ``hw.cpufamily`` (none recorded counts as 0, ``generic``). A
    ``hw.optional.arm.FEAT_*`` entry of 1 adds its features, one of 0 removes them; a
    feature no entry reports (older macOS lists fewer) keeps the CPU's default.
    """
    values = _sysctl(text)
    table = cpuinfo_table()
    family = _number(values.get("hw.cpufamily", "0"))
    if family is None:
        raise TargetError(f"sysctl hw.cpufamily is {values.get('hw.cpufamily')!r}, not a number")
    rules = table["apple_cpufamily"]
    name = rules.get(f"{family & 0xFFFFFFFF:#x}", rules["default"])
    said: dict[str, set[str]] = {"1": set(), "0": set()}  # features FEAT_* entries say present, absent
    for key, value in values.items():
        if key.startswith("hw.optional.arm.FEAT_") and value in said:
            said[value].update(table["feat"].get(key.removeprefix("hw.optional.arm."), ()))
    return _attrs(str(name), said["1"], said["0"])


def read_host() -> str | None:
    """The text of this machine's /proc/cpuinfo, or None where there is none."""
    try:
        with open(CPUINFO, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None
