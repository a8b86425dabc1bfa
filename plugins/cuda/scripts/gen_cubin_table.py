#!/usr/bin/env python3
"""Generate ``tcfg_cuda/data/cubin.json``: where nvlink departs from the documented cubin rule.

The CUDA C++ Programming Guide ("Binary Compatibility") documents that a cubin for
compute capability X.y runs on devices of X.z with z >= y, and not on Tegra devices
unless built for them. nvlink applies the rule when it links relocatable cubins for a
GPU. This script compiles an empty kernel for every arch the installed ptxas knows,
links it for every plain GPU arch, and records the pairs of the same major version
where nvlink refuses what ``sm_XY``'s major/minor rule would allow (the Tegra parts
sm_87 and sm_88 among them). It fails if nvlink accepts a pair the rule refuses.

Usage: ``python scripts/gen_cubin_table.py [--check]`` (``--check`` compares with the
committed table and writes nothing).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tcfg_cuda.facts import arch_info, documented_cubin_rule  # noqa: E402
from tcfg_cuda.probes import cubin_links, find_ptxas  # noqa: E402

OUT = HERE.parent / "tcfg_cuda" / "data" / "cubin.json"
DATE = "2026-11-26"


def table() -> dict[str, Any]:
    ptxas = find_ptxas()
    if ptxas is None:
        raise SystemExit("ptxas is not installed (CUDA toolkit on PATH or in /usr/local/cuda/bin)")
    codes = sorted(arch for arch in ptxas.arches if not arch_info(arch).variant)
    pairs = [(code, gpu) for code, gpu in itertools.product(codes, codes) if code != gpu]
    links = cubin_links(ptxas, pairs)
    if links is None:
        raise SystemExit(f"nvlink is not installed beside {ptxas.path}")
    wrong = [pair for pair, ok in links.items() if ok and not documented_cubin_rule(*pair)]
    if wrong:
        raise SystemExit(f"nvlink links cubins the documented rule refuses: {wrong}")
    refused = sorted([code, gpu] for (code, gpu), ok in links.items() if not ok and documented_cubin_rule(code, gpu))
    return {
        "source": "CUDA C++ Programming Guide 13.0, 'Binary Compatibility' (no binary compatibility for Tegra "
        "devices), applied by nvlink: each pair below is a cubin (first) that nvlink -arch=GPU (second) "
        "refuses although the GPU has the same major version and a minor version at least as high",
        "tool": f"nvlink and ptxas of CUDA {ptxas.release}",
        "date": DATE,
        "not_binary_compatible": refused,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed table; write nothing")
    args = parser.parse_args()
    made = table()
    if args.check:
        committed = json.loads(OUT.read_text())
        same = committed["not_binary_compatible"] == made["not_binary_compatible"]
        print("cubin.json matches nvlink" if same else "cubin.json differs from nvlink: regenerate it")
        return 0 if same else 1
    OUT.write_text(json.dumps(made, indent=1) + "\n")
    print(f"wrote {OUT} ({len(made['not_binary_compatible'])} pairs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
