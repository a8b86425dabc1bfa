"""Regenerate ``tcfg_x86/data/recorded_flags.json``: the x86 feature bits of Windows CPUID dumps and macOS ``sysctl``.

Two sources, both read as published:

* archspec-json (Apache-2.0 OR MIT) ``cpu/cpuid.json``: CPUID leaf (EAX in, ECX in),
  register and bit -> the Linux ``/proc/cpuinfo`` flag, the table archspec reads Windows
  machines with (``cpuid``);
* Apple's XNU (APSL-2.0) ``osfmk/i386/cpuid.h`` and ``cpuid.c``: the names macOS prints in
  ``machdep.cpu.features``, ``machdep.cpu.leaf7_features`` and ``machdep.cpu.extfeatures``
  (the ``feature_map``, ``leaf7_feature_map``, ``leaf7_extfeature_map`` and
  ``extfeature_map`` tables), each name's ``_Bit(n)``/``_HBit(n)`` mask, and the CPUID leaf
  and registers the kernel packs into each 64-bit mask (``quad(reg[hi], reg[lo])`` after
  ``cpuid_fn(leaf, reg)``). Joined with ``cpuid.json`` that gives macOS name -> Linux
  flag (``darwin``). A name whose bit archspec does not name, or whose definition sits
  under another leaf's comment than its table's (``TSCI``, from leaf 0x80000007), is
  listed in ``darwin_unmapped``.

usage: python gen_recorded_flags.py ARCHSPEC_JSON_DIR XNU [--check]
  ARCHSPEC_JSON_DIR: archspec-json's root (the installed archspec's ``json`` folder);
  XNU: a checkout or bare clone of apple-oss-distributions/xnu (read at HEAD).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "tcfg_x86" / "data" / "recorded_flags.json"
REGISTERS = ("eax", "ebx", "ecx", "edx")
#: XNU's name tables and the 64-bit mask each one names bits of (cpuid.c).
TABLES = {
    "feature_map": "cpuid_features",
    "extfeature_map": "cpuid_extfeatures",
    "leaf7_feature_map": "cpuid_leaf7_features",
    "leaf7_extfeature_map": "cpuid_leaf7_extfeatures",
}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def _xnu_file(xnu: Path, path: str) -> str:
    if (xnu / path).is_file():
        return (xnu / path).read_text()
    return _git(xnu, "show", f"HEAD:{path}")


def _packing(cpuid_c: str) -> dict[str, tuple[int, str | None, str]]:
    """mask variable -> (leaf, high register or None, low register), from ``cpuid_fn(leaf, reg)`` then
    ``info_p->VAR = quad(reg[hi], reg[lo])`` or ``= reg[lo]`` (the first assignment of each)."""
    calls = [(m.start(), int(m[1], 0)) for m in re.finditer(r"cpuid_fn\((0x[0-9a-fA-F]+|\d+), reg\)", cpuid_c)]
    out: dict[str, tuple[int, str | None, str]] = {}
    pattern = r"info_p->(cpuid_\w*features)\s*=\s*(?:quad\(reg\[(\w+)\],\s*reg\[(\w+)\]\)|reg\[(\w+)\])"
    for m in re.finditer(pattern, cpuid_c):
        before = [leaf for at, leaf in calls if at < m.start()]
        if before and m[1] not in out:
            out[m[1]] = (before[-1], m[2], m[3]) if m[2] else (before[-1], None, m[4])
    return out


def _masks(cpuid_h: str) -> dict[str, tuple[int, int | None]]:
    """macro -> (bit of the 64-bit mask, leaf named by the comment block above it or None)."""
    out: dict[str, tuple[int, int | None]] = {}
    leaf = None
    for line in cpuid_h.splitlines():
        named = re.search(r"%eax of (0x[0-9a-fA-F]+|\d+)|\{%eax,%ecx\} of \((0x[0-9a-fA-F]+|\d+)|Leaf (\d+)", line)
        if named:
            leaf = int(next(g for g in named.groups() if g), 0)
        define = re.match(r"#define\s+(CPUID_\w+)\s+_(H?)Bit\((\d+)\)", line)
        if define:
            out[define[1]] = (int(define[3]) + (32 if define[2] else 0), leaf)
    return out


def _names(cpuid_c: str, table: str) -> list[tuple[str, str]]:
    body = re.search(rf"\b{table}\[\]\s*=\s*\{{(.*?)\{{0, 0\}}", cpuid_c, re.S)
    if body is None:
        raise SystemExit(f"cpuid.c has no table {table}")
    return re.findall(r"\{\s*(CPUID_\w+),\s*\"([^\"]+)\"\s*\}", body[1])


def build(archspec: Path, xnu: Path) -> dict[str, Any]:
    cpuid = json.loads((archspec / "cpu" / "cpuid.json").read_text())
    bits = []
    for group in (*cpuid["flags"], *cpuid["extension-flags"]):
        leaf, sub = group["input"]["eax"], group["input"]["ecx"]
        for bit in group["bits"]:
            if bit["register"] not in REGISTERS:
                raise SystemExit(f"cpuid.json: unknown register {bit['register']!r} in leaf {leaf:#x}")
            bits.append([leaf, sub, bit["register"], bit["bit"], bit["name"]])
    linux = {(leaf, reg, bit): name for leaf, sub, reg, bit, name in bits if sub == 0}
    cpuid_c, cpuid_h = _xnu_file(xnu, "osfmk/i386/cpuid.c"), _xnu_file(xnu, "osfmk/i386/cpuid.h")
    packing, masks = _packing(cpuid_c), _masks(cpuid_h)
    darwin: dict[str, str] = {}
    unmapped: list[str] = []
    for table, variable in TABLES.items():
        if variable not in packing:
            raise SystemExit(f"cpuid.c: cannot find how {variable} is read (cpuid_fn + quad)")
        leaf, high, low = packing[variable]
        for macro, name in _names(cpuid_c, table):
            position, macro_leaf = masks[macro]
            register = high if position >= 32 else low
            flag = linux.get((leaf, register or "", position % 32))
            if macro_leaf not in (None, leaf) or flag is None:
                unmapped.append(name)
            else:
                darwin[name] = flag
    revision = (
        _git(xnu, "rev-parse", "HEAD").strip()[:12] if (xnu / "HEAD").exists() or (xnu / ".git").exists() else "?"
    )
    import archspec as archspec_package

    return {
        "source": f"archspec {archspec_package.__version__} cpu/cpuid.json (Apache-2.0 OR MIT) and "
        f"apple-oss-distributions/xnu {revision} osfmk/i386/cpuid.{{c,h}} (APSL-2.0), "
        "by plugins/x86/scripts/gen_recorded_flags.py",
        "doc": "cpuid: [EAX in, ECX in, register, bit, Linux flag]; darwin: macOS machdep.cpu feature name -> "
        "Linux flag; darwin_unmapped: macOS names with no Linux flag here.",
        "cpuid": bits,
        "darwin": darwin,
        "darwin_unmapped": sorted(unmapped),
    }


def main(argv: list[str]) -> int:
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 2:
        print(__doc__)
        return 2
    data = build(Path(args[0]), Path(args[1]))
    if check:
        stored = json.loads(OUT.read_text())
        same = all(stored[key] == data[key] for key in ("cpuid", "darwin", "darwin_unmapped"))
        print("recorded_flags.json is up to date" if same else "recorded_flags.json differs from its sources")
        return 0 if same else 1
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}: {len(data['cpuid'])} CPUID bits, {len(data['darwin'])} macOS names")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
