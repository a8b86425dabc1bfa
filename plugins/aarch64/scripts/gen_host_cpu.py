"""Regenerate the host-detection rules of ``data/cpuinfo.json`` from LLVM's ``Host.cpp``.

LLVM names an Arm host's CPU in ``getHostCPUNameForARMFromComponents``
(``llvm/lib/TargetParser/Host.cpp``) from the ``/proc/cpuinfo`` lines ``CPU implementer``,
``CPU part`` (every core's), ``CPU variant`` and ``Hardware``. This script reads that
function and writes its rules as data, keeping the file's other keys (``hwcaps``,
``checked``):

* ``parts``: implementer -> part -> CPU (the ``StringSwitch`` on the last part listed);
* ``big_little``: implementer -> ``[big, little, CPU]`` (``MatchBigLittle``: the machine
  has exactly these two distinct parts);
* ``hardware``: implementer -> ``[suffix, CPU]`` (a ``Hardware`` line ending so);
* ``variant_parts``: implementer -> ``{"cases": {(variant << 12 | part): CPU}, "default": CPU}``
  (Samsung's Exynos switch);
* ``apple_cpufamily``: macOS ``hw.cpufamily`` (hex) -> CPU, and ``default`` (the
  ``getHostCPUName`` of ``__APPLE__`` and ``__aarch64__``);
* ``feat``: an Arm ``FEAT_*`` name (macOS ``sysctl hw.optional.arm.FEAT_*``) -> the LLVM
  backend features it turns on, read from ``clang-22 --print-supported-extensions`` and
  ``clang-22 -march=armv8-a+EXT -###``.

usage: python gen_host_cpu.py PATH/TO/llvm/lib/TargetParser/Host.cpp LLVM-REVISION [--check]
(``--check`` compares instead of writing; exit 1 on a difference.)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "tcfg_aarch64" / "data" / "cpuinfo.json"

_FUNCTION = re.compile(r"getHostCPUNameForARMFromComponents\(StringRef Implementer.*?\n}\n", re.S)
_IMPLEMENTERS = re.compile(r'if \((Implementer == "0x[0-9a-f]+"(?: \|\| Implementer == "0x[0-9a-f]+")*)\)')
_CASE = re.compile(r'\.Case\("(0x[0-9a-f]+)",\s*"([a-z0-9.-]+)"\)')
_BIG_LITTLE = re.compile(r'MatchBigLittle\(Parts, "(0x[0-9a-f]+)", "(0x[0-9a-f]+)"\)\)\s*return "([a-z0-9-]+)"')
_HARDWARE = re.compile(r'Hardware\.ends_with\("([^"]+)"\)')
_RETURN = re.compile(r'return "([a-z0-9-]+)"')
_SWITCH_CASE = re.compile(r'case (0x[0-9a-f]+):\s*return "([a-z0-9-]+)"')


def _blocks(function: str) -> list[tuple[list[str], str]]:
    """``(implementers, text)`` for each ``if (Implementer == ...)`` block, in order."""
    found = list(_IMPLEMENTERS.finditer(function))
    blocks = []
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(function)
        implementers = re.findall(r'"(0x[0-9a-f]+)"', match.group(1))
        blocks.append((implementers, function[match.end() : end]))
    return blocks


def rules(host_cpp: str) -> dict[str, Any]:
    """The ``parts``, ``big_little``, ``hardware`` and ``variant_parts`` rules of ``Host.cpp``'s text."""
    match = _FUNCTION.search(host_cpp)
    if match is None:
        raise SystemExit("Host.cpp has no getHostCPUNameForARMFromComponents: is it LLVM 20 or later?")
    parts: dict[str, dict[str, str]] = {}
    big_little: dict[str, list[list[str]]] = {}
    hardware: dict[str, list[list[str]]] = {}
    variant_parts: dict[str, dict[str, Any]] = {}
    for implementers, text in _blocks(match.group(0)):
        cases = dict(_CASE.findall(text))
        pairs = [list(m) for m in _BIG_LITTLE.findall(text)]
        soc = []
        for line in text.splitlines():
            if "Hardware.ends_with" in line:
                tail = text[text.index(line) :]
                returned = _RETURN.search(tail)
                soc += [[suffix, returned.group(1)] for suffix in _HARDWARE.findall(line) if returned]
        switch = dict(_SWITCH_CASE.findall(text))
        for implementer in implementers:
            if cases:
                parts[implementer] = cases
            if pairs:
                big_little[implementer] = pairs
            if soc:
                hardware[implementer] = soc
            if switch and "getAsInteger" in text:
                default = re.search(r'default:.*?return "([a-z0-9-]+)"', text, re.S)
                variant_parts[implementer] = {
                    "cases": switch,
                    "default": default.group(1) if default else "generic",
                }
    return {"parts": parts, "big_little": big_little, "hardware": hardware, "variant_parts": variant_parts}


_DEFINE = re.compile(r"#define (CPUFAMILY_\w+) (0x[0-9a-f]+|0)\b")
_APPLE = re.compile(r"sysctlbyname\(\"hw\.cpufamily\".*?\n}\n", re.S)


def apple_rules(host_cpp: str) -> dict[str, str]:
    """``hw.cpufamily`` (``0x...``) -> CPU, with ``default``, from the Apple ``getHostCPUName``."""
    values = {name: int(value, 16) for name, value in _DEFINE.findall(host_cpp)}
    match = _APPLE.search(host_cpp)
    if match is None:
        raise SystemExit("Host.cpp has no Apple getHostCPUName reading hw.cpufamily")
    found: dict[str, str] = {}
    pending: list[str] = []
    for line in match.group(0).splitlines():
        case = re.search(r"case (CPUFAMILY_\w+):", line)
        if case:
            pending.append(f"{values[case.group(1)]:#x}")
        if re.search(r"default:", line):
            pending.append("default")
        returned = _RETURN.search(line)
        if returned and pending:
            found.update(dict.fromkeys(pending, returned.group(1)))
            pending = []
    return found


def _clang_features(clang: str, march: str) -> set[str]:
    run = subprocess.run(
        [clang, "--target=aarch64-linux-gnu", f"-march={march}", "-###", "-c", "-x", "c", "/dev/null"],
        capture_output=True,
        text=True,
        check=False,
    )
    return set(re.findall(r'"-target-feature" "\+([^"]+)"', run.stderr))


def feat_map(clang: str) -> dict[str, list[str]]:
    """``FEAT_*`` -> the backend features its ``-march`` extension adds to armv8-a (clang's word)."""
    listing = subprocess.run(
        [clang, "--target=aarch64-linux-gnu", "--print-supported-extensions"], capture_output=True, text=True
    ).stdout
    base = _clang_features(clang, "armv8-a")
    found: dict[str, set[str]] = {}
    for line in listing.splitlines():
        row = re.match(r"\s+([a-z0-9-]+)\s+(FEAT_\w+(?:, FEAT_\w+)*)\s", line)
        if row is None:
            continue
        added = _clang_features(clang, f"armv8-a+{row.group(1)}") - base
        for feat in row.group(2).split(", "):
            found.setdefault(feat, set()).update(added)
    return {feat: sorted(features) for feat, features in sorted(found.items()) if features}


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--check"]
    if len(args) != 2:
        raise SystemExit(__doc__)
    host_cpp, revision = Path(args[0]).read_text(encoding="utf-8"), args[1]
    table = json.loads(DATA.read_text(encoding="utf-8"))
    new = {**table, **rules(host_cpp), "apple_cpufamily": apple_rules(host_cpp), "feat": feat_map("clang-22")}
    new["source"] = {
        **table.get("source", {}),
        "parts": (
            f"LLVM llvm/lib/TargetParser/Host.cpp at {revision}, getHostCPUNameForARMFromComponents "
            "(parts, big_little, hardware, variant_parts) and the Apple getHostCPUName (apple_cpufamily), "
            "by plugins/aarch64/scripts/gen_host_cpu.py"
        ),
        "feat": "clang-22 --print-supported-extensions (FEAT_* of each extension) and -march=armv8-a+EXT -###",
    }
    text = json.dumps(new, indent=1, sort_keys=True) + "\n"
    if "--check" in sys.argv:
        if DATA.read_text(encoding="utf-8") != text:
            raise SystemExit(f"{DATA} differs from what {args[0]} gives; run without --check")
        return
    DATA.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
