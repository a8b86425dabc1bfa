#!/usr/bin/env python3
"""The truth sweep: does every target tcfg describes build for exactly that target under the real tools?

Usage: ``python truth/sweep.py [family ...]`` (default: every family below). For each
family it prints one line::

    aarch64: N CPUs x M variants x K features = T checks, D disagreements

then one line per disagreement, and exits 1 if any family disagrees, 0 otherwise (a
family whose tools are missing prints ``skipped: <reason>`` and does not fail the run).

Interface for a family module
-----------------------------
A family ``F`` is swept by the module ``truth/<module>.py`` named in :data:`FAMILIES`
(``aarch64`` and ``arm`` by ``arm_sweep``, ``x86`` by ``x86_sweep``, ``cuda`` by
``cuda_sweep``). The module defines::

    def sweep(family: str, workers: int = 2) -> SweepResult: ...

which runs the real tools (at most ``workers`` processes at a time; cache what can be
cached) and returns a :class:`SweepResult` (import it with ``from sweep import
SweepResult``: ``truth/`` is on ``sys.path`` both under pytest and when this script
runs). When a tool is missing it returns ``SweepResult(family, skipped="clang-22 not
found")`` instead of raising. ``checks`` counts every single comparison made (one
feature of one CPU under one variant against one tool is one check); ``disagreements``
holds one readable line per failed comparison, naming the target, the tool, the
feature and both values. The truth tests call the same function and assert
``result.disagreements == []``, so a sweep module never needs its own report code.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from dataclasses import dataclass, field

__all__ = ["FAMILIES", "SweepResult", "main", "run"]

#: family name -> module in truth/ that sweeps it.
FAMILIES = {
    "aarch64": "arm_sweep",
    "arm": "arm_sweep",
    "x86": "x86_sweep",
    "cuda": "cuda_sweep",
    "portable-cpu": "portable_sweep",
    "portable-hexagon": "portable_sweep",
    "portable-cuda": "portable_sweep",
    "portable-amdgpu": "portable_sweep",
    "portable-vulkan": "portable_sweep",
}


@dataclass
class SweepResult:
    """What one family's sweep checked and found."""

    family: str
    cpus: int = 0
    variants: int = 0
    features: int = 0
    checks: int = 0
    disagreements: list[str] = field(default_factory=list)
    skipped: str | None = None
    seconds: float = 0.0

    def summary(self) -> str:
        """The one-line report."""
        if self.skipped is not None:
            return f"{self.family}: skipped: {self.skipped}"
        return (
            f"{self.family}: {self.cpus} CPUs x {self.variants} variants x {self.features} features"
            f" = {self.checks} checks, {len(self.disagreements)} disagreements ({self.seconds:.0f} s)"
        )


def run(family: str, workers: int = 2) -> SweepResult:
    """Sweep one family with its module (a missing module is a skip, not an error)."""
    try:
        module = importlib.import_module(FAMILIES[family])
    except ModuleNotFoundError as exc:
        return SweepResult(family, skipped=f"no sweep module ({exc.name})")
    start = time.monotonic()
    result: SweepResult = module.sweep(family, workers=workers)
    result.seconds = time.monotonic() - start
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("families", nargs="*", metavar="family", help=f"any of {', '.join(FAMILIES)} (default: all)")
    parser.add_argument("--workers", type=int, default=2, help="tool processes at a time (default 2)")
    parser.add_argument("--max-lines", type=int, default=50, help="disagreements printed per family")
    args = parser.parse_args(argv)
    unknown = [f for f in args.families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown family {', '.join(unknown)}; choose from {', '.join(FAMILIES)}")
    failed = False
    for family in args.families or list(FAMILIES):
        result = run(family, workers=args.workers)
        print(result.summary(), flush=True)
        for line in result.disagreements[: args.max_lines]:
            print(f"  {line}")
        if len(result.disagreements) > args.max_lines:
            print(f"  ... and {len(result.disagreements) - args.max_lines} more")
        failed |= bool(result.disagreements)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.modules.setdefault("sweep", sys.modules["__main__"])  # modules import SweepResult from here
    sys.exit(main())
