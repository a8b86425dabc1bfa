#!/usr/bin/env python3
"""Generate ``tcfg_hexagon/data/hexagon.json``: every Hexagon CPU and HVX version LLVM 22 knows.

Everything comes from the tools, nothing is typed in:

* the CPUs: ``clang-22 --target=hexagon -print-supported-cpus`` (``generic`` is kept
  out: clang refuses ``-mcpu=generic`` for Hexagon, it spells it ``hexagongeneric``);
* per CPU: the features clang gives the function without HVX (``"target-features"`` of
  ``-S -emit-llvm``), the HVX feature ``-mhvx`` adds, and the predefined macros
  ``__HEXAGON_ARCH__``, ``__HEXAGON_PHYSICAL_SLOTS__``, ``__HEXAGON_AUDIO__``;
* the backend's feature names: ``llc-22 -mtriple=hexagon -mattr=help``;
* per HVX version (each ``hvxvNN`` llc knows): the vector length ``-mhvx=vNN`` picks when
  none is given, and whether clang accepts ``-mhvx-qfloat`` and ``-mhvx-ieee-fp`` with it;
* clang's CPU when none is given, and the features clang always adds (``-long-calls``).

Usage: ``python scripts/generate_data.py [--check]`` (``--check`` writes nothing and
exits 1 if the committed file differs from what the tools say now).
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tcfg_hexagon" / "data" / "hexagon.json"
CLANG = "clang-22"
LLC = "llc-22"
SOURCE = (
    "clang-22 --target=hexagon (-print-supported-cpus, -S -emit-llvm target-features, -dM -E "
    "predefined macros, -mhvx/-mhvx=vNN/-mhvx-length/-mhvx-qfloat/-mhvx-ieee-fp) and "
    "llc-22 -mtriple=hexagon -mattr=help"
)
_FEATURES = re.compile(r'"target-features"="([^"]*)"')
_CPU = re.compile(r'"target-cpu"="([^"]*)"')


def _run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, input=stdin, capture_output=True, text=True, check=False)


def _listing(args: list[str]) -> str:
    """What a ``help``-style command prints (clang and llc print these lists on stderr)."""
    proc = _run(args)
    return proc.stdout + proc.stderr


def clang_ir(flags: list[str]) -> tuple[str, list[str]] | None:
    """(target-cpu, target-features) clang gives a function with ``flags``; None if clang refuses them."""
    src = "int f(int x) { return x + 1; }"
    proc = _run([CLANG, "--target=hexagon", *flags, "-S", "-emit-llvm", "-x", "c", "-", "-o", "-"], src)
    if proc.returncode != 0:
        return None
    cpu, feats = _CPU.search(proc.stdout), _FEATURES.search(proc.stdout)
    assert cpu and feats, proc.stdout
    return cpu.group(1), feats.group(1).split(",")


def clang_macros(flags: list[str]) -> dict[str, str]:
    proc = subprocess.run(
        [CLANG, "--target=hexagon", *flags, "-dM", "-E", "-x", "c", "/dev/null"],
        capture_output=True,
        text=True,
        check=True,
    )
    return {m.group(1): m.group(2) for m in re.finditer(r"#define (\S+) (.*)", proc.stdout)}


def clang_version() -> str:
    return _run([CLANG, "--version"]).stdout.splitlines()[0]


def clang_cpus() -> list[str]:
    out = _listing([CLANG, "--target=hexagon", "-print-supported-cpus"])
    tail = out.split("Available CPUs for this target:", 1)[1]
    names = [line.strip() for line in tail.splitlines() if line.startswith("\t")]
    return [n for n in names if n and n != "generic"]


def llc_features() -> list[str]:
    out = _listing([LLC, "-mtriple=hexagon", "-mattr=help"])
    tail = out.split("Available features for this target:", 1)[1].split("Use +feature", 1)[0]
    return sorted({line.split()[0] for line in tail.splitlines() if line.strip()})


def cpu_row(cpu: str) -> dict[str, Any]:
    plain = clang_ir([f"-mcpu={cpu}"])
    hvx = clang_ir([f"-mcpu={cpu}", "-mhvx"])
    assert plain is not None and hvx is not None, cpu
    macros = clang_macros([f"-mcpu={cpu}"])
    added = sorted(set(hvx[1]) - set(plain[1]))
    hvx_feature = [f for f in added if re.fullmatch(r"\+hvxv\d+", f)]
    assert len(hvx_feature) == 1, (cpu, added)
    return {
        "arch": int(macros["__HEXAGON_ARCH__"]),
        "physical_slots": int(macros["__HEXAGON_PHYSICAL_SLOTS__"]),
        "audio": macros.get("__HEXAGON_AUDIO__") == "1",
        "features": sorted(f for f in plain[1] if f.startswith("+")),
        "mhvx": hvx_feature[0],
    }


def hvx_row(version: int, probe_cpu: str) -> dict[str, Any]:
    base = [f"-mcpu={probe_cpu}", f"-mhvx=v{version}"]
    got = clang_ir(base)
    assert got is not None, version
    lengths = [f for f in got[1] if f.startswith("+hvx-length")]
    assert len(lengths) == 1, got
    return {
        "default_length": int(lengths[0].removeprefix("+hvx-length").removesuffix("b")),
        "qfloat": clang_ir([*base, "-mhvx-qfloat"]) is not None,
        "ieee_fp": clang_ir([*base, "-mhvx-ieee-fp"]) is not None,
    }


def generate() -> dict[str, Any]:
    cpus = clang_cpus()
    feats = llc_features()
    default = clang_ir([])
    assert default is not None
    always = sorted(f for f in default[1] if f.startswith("-"))
    versions = sorted(int(f.removeprefix("hvxv")) for f in feats if re.fullmatch(r"hvxv\d+", f))
    with ThreadPoolExecutor(4) as pool:
        rows = dict(zip(cpus, pool.map(cpu_row, cpus), strict=True))
        hvx = dict(zip(versions, pool.map(lambda v: hvx_row(v, cpus[-1]), versions), strict=True))
    return {
        "source": SOURCE,
        "tool": clang_version(),
        "date": datetime.date.today().isoformat(),
        "default_cpu": default[0],
        "always_features": always,
        "cpus": rows,
        "hvx_versions": {str(v): row for v, row in hvx.items()},
        "llc_features": feats,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file; write nothing")
    args = parser.parse_args()
    data = generate()
    if args.check:
        old = json.loads(OUT.read_text())
        same = {k: v for k, v in old.items() if k != "date"} == {k: v for k, v in data.items() if k != "date"}
        print("up to date" if same else f"{OUT} differs from what {CLANG}/{LLC} say now")
        return 0 if same else 1
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    counts = f"{len(data['cpus'])} CPUs, {len(data['hvx_versions'])} HVX versions, {len(data['llc_features'])} features"
    print(f"{OUT}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
