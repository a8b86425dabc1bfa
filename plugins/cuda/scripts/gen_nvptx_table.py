#!/usr/bin/env python3
"""Generate ``tcfg_cuda/data/nvptx.json``: what LLVM 22's NVPTX backend knows, asked of llc-22.

* ``processors``: every ``sm_XX`` of ``llc-22 -mtriple=nvptx64-nvidia-cuda -mcpu=help``,
  each with the PTX ISA version llc writes in ``.version`` when no ``+ptxNN`` is given
  (the lowest it accepts for that ``.target``: llc refuses a lower one, see the tests);
* ``ptx_versions``: every ``ptxNN`` feature it lists, as ``"N.N"``;
* ``clang_processors``: the processors clang-22's NVPTX target accepts (the list its
  error for an unknown ``-march`` gives): it lags llc's (no family ``sm_XXXf`` arches).

Usage: ``python scripts/gen_nvptx_table.py [--check]`` (``--check`` writes nothing and
exits 1 if the committed file differs from what llc-22 says now).
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

OUT = Path(__file__).resolve().parent.parent / "tcfg_cuda" / "data" / "nvptx.json"
LLC = "llc-22"
CLANG = "clang-22"
TRIPLE = "nvptx64-nvidia-cuda"
KERNEL = (
    f'target triple = "{TRIPLE}"\n'
    "define ptx_kernel void @k(ptr addrspace(1) %p) {\n  store i32 1, ptr addrspace(1) %p\n  ret void\n}\n"
)


def _help() -> str:
    proc = subprocess.run([LLC, f"-mtriple={TRIPLE}", "-mcpu=help"], capture_output=True, text=True, check=False)
    return proc.stdout + proc.stderr


def default_version(cpu: str) -> str:
    """The ``.version`` llc-22 writes for ``-mcpu=cpu`` without a PTX feature."""
    proc = subprocess.run(
        [LLC, f"-mtriple={TRIPLE}", f"-mcpu={cpu}", "-o", "-"], input=KERNEL, capture_output=True, text=True, check=True
    )
    found = re.search(r"^\.version (\d+\.\d+)$", proc.stdout, re.M)
    assert found, proc.stdout
    return found.group(1)


def _order(row: tuple[str, str]) -> tuple[int, str]:
    """sm_20 before sm_100: by the number, then the suffix."""
    return int(re.sub(r"\D", "", row[0])), row[0]


def clang_processors() -> list[str]:
    """The NVPTX processors clang-22 accepts, from its note on an unknown one."""
    proc = subprocess.run(
        [CLANG, "-x", "c", f"--target={TRIPLE}", "-march=sm_unknown", "-S", "-", "-o", "-"],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"valid target CPU values are: (.*)", proc.stderr)
    assert found, proc.stderr
    return [name.strip() for name in found.group(1).split(",")]


def generate() -> dict[str, Any]:
    text = _help()
    cpus = re.findall(r"^  (sm_\w+)\s+- Select", text, re.M)
    ptx = re.findall(r"^  ptx(\d+)\s+- Use PTX", text, re.M)
    version = subprocess.run([LLC, "--version"], capture_output=True, text=True, check=True).stdout.split("\n")
    with ThreadPoolExecutor(2) as pool:
        mins = list(pool.map(default_version, cpus))
    return {
        "source": f"{LLC} -mtriple={TRIPLE} -mcpu=help (processors, ptxNN features), the .version it "
        f"writes for a kernel per -mcpu without +ptxNN, and {CLANG} --target={TRIPLE}'s valid -march values",
        "tool": next(line.strip() for line in version if "LLVM version" in line),
        "date": datetime.date.today().isoformat(),
        "ptx_versions": [f"{int(v) // 10}.{int(v) % 10}" for v in sorted(ptx, key=int)],
        "clang_processors": [c for c in clang_processors() if c in cpus],
        "processors": {cpu: {"min_ptx": m} for cpu, m in sorted(zip(cpus, mins, strict=True), key=_order)},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file; write nothing")
    args = parser.parse_args()
    data = generate()
    if args.check:
        old = json.loads(OUT.read_text())
        same = {k: v for k, v in old.items() if k != "date"} == {k: v for k, v in data.items() if k != "date"}
        print("up to date" if same else f"{OUT} differs from what {LLC} says now")
        return 0 if same else 1
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{OUT}: {len(data['processors'])} processors, {len(data['ptx_versions'])} PTX versions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
