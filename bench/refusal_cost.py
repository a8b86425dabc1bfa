"""What refusing a huge input costs (issue 30): time and extra memory at about 100 MB of input.

Usage: ``python bench/refusal_cost.py [--mb N] [--check]``

Each row builds one input of about ``--mb`` MB (counted as its JSON text; made of one
repeated item, so that the input itself costs little memory) and times ``tcfg.Target``
refusing it, in a fresh process (``--child ROW``) that has refused a small input of the
same shape first (the plugins are loaded, the code paths warm). Time is CPU time
(``time.process_time``, as the other benches: the machine is shared); extra memory is
``tracemalloc``'s peak during the call, measured in a second call. Issue 30's budget:
under 50 ms and 10 MB for every row; ``--check`` exits 1 if a row is over. (At
``29e6cae`` the dict rows took seconds to minutes and up to 3 GB: see docs/performance.md.)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

MB = 1_000_000
#: Issue 30's budget per row.
BUDGET_MS, BUDGET_MB = 50.0, 10.0


def _deep_host(levels: int) -> dict[str, Any]:
    spec: dict[str, Any] = {"kind": "llvm"}
    for _ in range(levels):
        spec = {"kind": "llvm", "host": spec}
    return spec


#: Each row: (what, the input of about ``size`` characters).
ROWS: dict[str, Callable[[int], Any]] = {
    "dict, long mattr list": lambda size: {"kind": "llvm", "mattr": ["+neon"] * (size // 9)},
    "dict, long keys list": lambda size: {"kind": "llvm", "keys": ["cpu"] * (size // 7)},
    "dict, many devices (dicts)": lambda size: {"kind": "composite", "devices": [{"kind": "llvm"}] * (size // 18)},
    "dict, many devices (strings)": lambda size: {"kind": "composite", "devices": ["llvm"] * (size // 8)},
    "dict, 333,333 devices (the issue's)": lambda size: {
        "kind": "composite",
        "devices": [{"kind": "c", "model": "d"}] * 333_333,
    },
    "dict, host in host 100,000 deep": lambda size: _deep_host(100_000),
    "dict, a long model string": lambda size: {"kind": "llvm", "model": "x" * size},
    "dict, a long tag name": lambda size: {"tag": "x" * size},
    "string": lambda size: "llvm -model=" + "x" * size,
    "JSON text": lambda size: json.dumps({"kind": "llvm", "model": "x" * size}),
}


def child(row: str, megabytes: int) -> dict[str, float]:
    """Refuse the row's input; its CPU time (ms) and tracemalloc peak (MB)."""
    import tcfg

    make = ROWS[row]
    with contextlib.suppress(tcfg.TargetError):
        tcfg.Target(make(300_000))  # warm: the same shape, just past the limit
    spec = make(megabytes * MB)
    start = time.process_time()
    try:
        tcfg.Target(spec)
        refused = False
    except tcfg.TargetError:
        refused = True
    spent = time.process_time() - start
    tracemalloc.start()
    with contextlib.suppress(tcfg.TargetError):
        tcfg.Target(spec)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"ms": spent * 1000, "mb": peak / MB, "refused": float(refused)}


def run_row(row: str, megabytes: int) -> dict[str, float]:
    """:func:`child` in a fresh process."""
    argv = [sys.executable, __file__, "--child", row, "--mb", str(megabytes)]
    done = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ), timeout=600, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=100, help="input size in MB (default 100)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a row is over the budget")
    parser.add_argument("--child", metavar="ROW", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        print(json.dumps(child(args.child, args.mb)))
        return 0
    print(f"| input (about {args.mb} MB) | CPU time | extra memory |")
    print("|---|---|---|")
    over = []
    for row in ROWS:
        mine = run_row(row, args.mb)
        note = "" if mine["refused"] else " (built!)"
        print(f"| {row} | {mine['ms']:.1f} ms | {mine['mb']:.2f} MB |{note}", flush=True)
        if mine["ms"] > BUDGET_MS or mine["mb"] > BUDGET_MB or not mine["refused"]:
            over.append(row)
    if over:
        print(f"over the budget ({BUDGET_MS:.0f} ms, {BUDGET_MB:.0f} MB): {', '.join(over)}")
    return 1 if args.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
