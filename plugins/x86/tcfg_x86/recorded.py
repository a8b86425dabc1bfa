"""x86 machines recorded on macOS (``sysctl -a``) and on Windows (CPUID leaves), read into LLVM's terms.

Both are turned into what ``/proc/cpuinfo`` says (vendor, family, model, Linux flag names)
and described by :func:`tcfg_x86.detect.describe`, so they get LLVM 22's host CPU name as a
Linux recording does. The bit and name tables (``data/recorded_flags.json``) are generated
by ``scripts/gen_recorded_flags.py`` from archspec-json's ``cpuid.json`` and Apple's XNU.

* ``sysctl``: the ``machdep.cpu.*`` lines. ``features``, ``leaf7_features`` and
  ``extfeatures`` name the features (XNU's names); ``machdep.cpu.xsave.extended_state1``
  (CPUID leaf 0xD sub-leaf 1, EAX to EDX) gives ``xsaveopt``, ``xsavec`` and ``xsaves``
  when recorded. The family and model are ``machdep.cpu.family`` and ``model`` (XNU
  folds the extended model in, as LLVM does), else decoded from ``machdep.cpu.signature``
  (CPUID leaf 1 EAX); a recording with a model but neither is read as family 6, the
  family of every Intel CPU Apple shipped in a Mac.
* ``cpuid``: one line per CPUID leaf, ``EAX-in, ECX-in, EAX, EBX, ECX, EDX`` in decimal (as
  archspec-json records Windows machines). The vendor is leaf 0's EBX, EDX, ECX; the family
  and model come from leaf 1's EAX as LLVM's ``detectX86FamilyModel`` computes them; the
  name is the brand string of leaves 0x80000002-4. Leaves above the highest leaf that leaf
  0 (or 0x80000000) reports are ignored. The operating system's support for AVX and
  AVX-512 state (XCR0) is not in such a recording and is assumed.
"""

from __future__ import annotations

import re
import struct
from functools import cache
from typing import Any

from tcfg.plugin import TargetError, package_json
from tcfg_x86.detect import HostCpu, describe, spec_of

__all__ = ["is_x86_sysctl", "parse_cpuid_dump", "parse_sysctl", "recorded_specs"]

_CPUID_FORM = "'EAX-in, ECX-in, EAX, EBX, ECX, EDX' (six decimal numbers, one CPUID leaf a line, as archspec records)"
_REGISTERS = ("eax", "ebx", "ecx", "edx")


@cache
def _table() -> Any:
    return package_json("tcfg_x86", "data/recorded_flags.json")


def _bits_set(leaf: int, sub: int, registers: dict[str, int]) -> set[str]:
    return {
        flag
        for in_leaf, in_sub, register, bit, flag in _table()["cpuid"]
        if (in_leaf, in_sub) == (leaf, sub) and registers[register] >> bit & 1
    }


def _family_model(eax: int) -> tuple[int, int]:
    """LLVM's ``detectX86FamilyModel``: the extended family for family 0xF, the extended model for 6 and 0xF."""
    family, model = eax >> 8 & 0xF, eax >> 4 & 0xF
    if family in (6, 0xF):
        if family == 0xF:
            family += eax >> 20 & 0xFF
        model += (eax >> 16 & 0xF) << 4
    return family, model


def _sysctl_values(text: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip().startswith("machdep.cpu."):
            values.setdefault(key.strip(), value.strip())
    return values


def is_x86_sysctl(text: str) -> bool:
    """Whether a ``sysctl -a`` text describes an Intel Mac (it has ``machdep.cpu.features``)."""
    return "machdep.cpu.features" in _sysctl_values(text)


def _sysctl_number(values: dict[str, str], key: str) -> int | None:
    if key not in values:
        return None
    if not values[key].isdigit():
        raise TargetError(f"recorded sysctl: line '{key}: {values[key]}': expected a decimal number")
    return int(values[key])


def parse_sysctl(text: str) -> HostCpu:
    """The x86 CPU of an Intel Mac's recorded ``sysctl -a`` (or its ``machdep.cpu`` lines).

    Raises :class:`TargetError` naming the line for a feature name XNU does not print, a
    number that is not one, or a recording without the model.
    """
    values = _sysctl_values(text)
    darwin, unmapped = _table()["darwin"], set(_table()["darwin_unmapped"])
    flags = set()
    for line in ("machdep.cpu.features", "machdep.cpu.leaf7_features", "machdep.cpu.extfeatures"):
        for name in values.get(line, "").split():
            if name in darwin:
                flags.add(darwin[name])
            elif name not in unmapped:
                raise TargetError(
                    f"recorded sysctl: line '{line}' names {name!r}, which macOS does not print "
                    f"(expected XNU's names, such as {', '.join(sorted(darwin)[:6])}, ...)"
                )
    xsave = values.get("machdep.cpu.xsave.extended_state1")
    if xsave is not None:
        words = xsave.split()
        if len(words) != 4 or not all(w.isdigit() for w in words):
            raise TargetError(
                f"recorded sysctl: line 'machdep.cpu.xsave.extended_state1: {xsave}': expected four decimal "
                "numbers (CPUID leaf 0xD sub-leaf 1, EAX EBX ECX EDX)"
            )
        flags |= _bits_set(13, 1, dict(zip(_REGISTERS, map(int, words), strict=True)))
    family, model = _sysctl_number(values, "machdep.cpu.family"), _sysctl_number(values, "machdep.cpu.model")
    signature = _sysctl_number(values, "machdep.cpu.signature")
    if signature is not None and (family is None or model is None):
        family, model = _family_model(signature)
    if model is None:
        raise TargetError("recorded sysctl: no 'machdep.cpu.model' or 'machdep.cpu.signature' line: expected sysctl -a")
    vendor = values.get("machdep.cpu.vendor")
    if family is None and vendor == "GenuineIntel":
        family = 6  # every Intel CPU in a Mac
    cores = _sysctl_number(values, "machdep.cpu.core_count")
    return describe(vendor, family, model, frozenset(flags), values.get("machdep.cpu.brand_string"), cores)


def _cpuid_leaves(text: str) -> dict[tuple[int, int], dict[str, int]]:
    leaves: dict[tuple[int, int], dict[str, int]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 6 or not all(f.isdigit() for f in fields) or any(int(f) >= 1 << 32 for f in fields):
            raise TargetError(f"recorded cpuid: line {number} {line.strip()!r:.80}: expected {_CPUID_FORM}")
        leaf, sub, *registers = (int(f) for f in fields)
        leaves[(leaf, sub)] = dict(zip(_REGISTERS, registers, strict=True))
    for needed in ((0, 0), (1, 0)):
        if needed not in leaves:
            raise TargetError(f"recorded cpuid: no line for leaf {needed[0]} sub-leaf 0: expected {_CPUID_FORM}")
    return leaves


def parse_cpuid_dump(text: str) -> HostCpu:
    """The x86 CPU of a recorded CPUID dump (Windows, as archspec records it).

    Raises :class:`TargetError` naming the line that is not six decimal numbers, or the
    leaf (0 or 1) that is missing.
    """
    leaves = _cpuid_leaves(text)
    top = leaves[(0, 0)]
    vendor = struct.pack("<III", top["ebx"], top["edx"], top["ecx"]).decode("ascii", errors="replace")
    highest_ext = leaves.get((0x80000000, 0), {}).get("eax", 0)
    flags: set[str] = set()
    for (leaf, sub), registers in leaves.items():
        if leaf <= top["eax"] or 0x80000000 <= leaf <= highest_ext:
            flags |= _bits_set(leaf, sub, registers)
    family, model = _family_model(leaves[(1, 0)]["eax"])
    brand = None
    if all((leaf, 0) in leaves for leaf in (0x80000002, 0x80000003, 0x80000004)) and highest_ext >= 0x80000004:
        words = [leaves[(leaf, 0)][r] for leaf in (0x80000002, 0x80000003, 0x80000004) for r in _REGISTERS]
        brand = (
            re.sub(r"\s+", " ", struct.pack("<12I", *words).decode("ascii", errors="replace").strip("\x00 ")) or None
        )
    return describe(vendor, family, model, frozenset(flags), brand)


def recorded_specs(sources: dict[str, tuple[str, ...]] | Any) -> list[dict[str, object]]:
    """The ``llvm`` targets of a recorded Intel Mac ``sysctl`` and of recorded ``cpuid`` dumps (Windows)."""
    found = []
    for text in sources.get("sysctl", ()):
        if is_x86_sysctl(text):
            found.append(spec_of(parse_sysctl(text), "x86_64-apple-macos"))
    for text in sources.get("cpuid", ()):
        host = parse_cpuid_dump(text)
        found.append(spec_of(host, "x86_64-pc-windows-msvc" if "64bit" in host.features else "i686-pc-windows-msvc"))
    return found
