"""The per-target rows of issue 25, through tcfg's public names only, against another checkout.

Usage: ``python bench/per_target_rows.py [--baseline PYTHONPATH] [--rounds N] [--repeat N] [--check]``

Issue 25's budget: a new dict, the same dict again, a tag with an override, ``str()`` and
``export()`` of a new target no more than 10% slower than at ``29e6cae``, and
``list_tags()`` of 300 tags under 1 ms (:data:`LIST_TAGS_US`). Each row is
timed in a fresh process (``python bench/per_target_rows.py --child``) that imports
only ``tcfg`` (so it runs against any checkout, whatever its private modules are
called), as microseconds of CPU time per call, best of ``--repeat`` loops with garbage
collection off (:func:`bench_core.best_us`). With ``--baseline``, the children alternate
between this checkout's ``tcfg`` and the one ``PYTHONPATH=BASELINE`` imports,
``--rounds`` times each, and every row keeps each side's best: load from elsewhere that
lasts less than a round cannot decide a ratio on its own. ``--check`` exits 1 when a
row is more than :data:`SLOWER` slower than the baseline, or ``list_tags()`` is over budget.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench_core import CALLS, DICT_SPEC, MANY_TAGS, SPEC, Row, best_us, report

import tcfg

#: The most a row may cost over the baseline (issue 25: 10%).
SLOWER = 1.10
ROWS = ("new dict", "same dict again", "tag, new override", "str() of a new target", "export()")
#: ``list_tags()`` of :data:`bench_core.MANY_TAGS` tags in an isolated registry: an absolute budget, in us.
LIST_TAGS = "list_tags(), 300 tags"
LIST_TAGS_US = 1000.0


def child(repeat: int) -> dict[str, float]:
    """Time the rows in this process, with the ``tcfg`` this interpreter imports."""
    target_of = tcfg.Target
    tags = tcfg.list_tags()
    tag = tags[0] if tags else None

    def new_dicts(round_: int) -> list[dict[str, Any]]:
        return [{**DICT_SPEC, "model": f"r{round_}n{i}"} for i in range(CALLS)]

    def new_targets(round_: int) -> list[Any]:
        return [target_of(f"{SPEC} -model=p{round_}n{i}") for i in range(CALLS)]

    same = dict(DICT_SPEC)
    target_of(same)
    exported = target_of(SPEC)
    rows = {
        "new dict": best_us(new_dicts, target_of, repeat),
        "same dict again": best_us(lambda r: [same] * CALLS * 10, target_of, repeat),
        "str() of a new target": best_us(new_targets, str, repeat),
        "export()": best_us(lambda r: [exported] * CALLS, target_of.export, repeat),
    }
    isolated = tcfg.Registry(autoload=False)
    for i in range(MANY_TAGS):
        isolated.register_tag(f"bench/board-{i:03d}", {**DICT_SPEC, "num-cores": i % 16 + 1, "model": f"board-{i}"})
    rows[LIST_TAGS] = best_us(lambda r: [None] * (CALLS // 10), lambda _: isolated.list_tags(), repeat)
    if tag is not None:
        target_of(tag)
        rows["tag, new override"] = best_us(
            lambda r: [f"{tag} -model=t{r}n{i}" for i in range(CALLS)], target_of, repeat
        )
    return rows


def run_child(pythonpath: str | None, repeat: int, python: str = sys.executable) -> dict[str, float]:
    """One fresh child's rows, run by ``python`` with ``PYTHONPATH`` set to ``pythonpath`` (None: inherited)."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    argv = [python, str(Path(__file__).resolve()), "--child", "--repeat", str(repeat)]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    rows: dict[str, float] = json.loads(done.stdout)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Print each row (and the baseline's, and their ratio); under ``--check`` exit 1 when one is over."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--baseline", help="PYTHONPATH of the checkout to compare with (e.g. 29e6cae's core and plugins)"
    )
    parser.add_argument(
        "--baseline-python",
        default=sys.executable,
        help="the interpreter that runs the baseline (default: this one); an older checkout may need a venv "
        "whose installed plugins' entry points it reads (29e6cae refuses the feature.* manifest entries)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="fresh children per side, alternating (default 5)")
    parser.add_argument("--repeat", type=int, default=20, help="timed loops per row in a child, best counts")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when a row is over {SLOWER:g}x the baseline")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.repeat)))
        return 0
    sides = {"now": os.environ.get("PYTHONPATH")}
    if args.baseline is not None:
        sides["baseline"] = args.baseline
    best: dict[str, dict[str, float]] = {side: {} for side in sides}
    for _ in range(args.rounds):
        for side, pythonpath in sides.items():
            python = args.baseline_python if side == "baseline" else sys.executable
            for row, value in run_child(pythonpath, args.repeat, python).items():
                best[side][row] = min(value, best[side].get(row, value))
    rows = []
    for row in (*ROWS, LIST_TAGS):
        if row not in best["now"]:
            continue
        now, then = best["now"][row], best.get("baseline", {}).get(row)
        shown = f"{now:.2f} us" + ("" if then is None else f" vs {then:.2f} us = {now / then:.2f}x")
        if row == LIST_TAGS:
            rows.append(Row(row, shown, f"< {LIST_TAGS_US:g} us", now < LIST_TAGS_US))
        elif then is not None:
            rows.append(Row(f"{row} vs the baseline", shown, f"<= {SLOWER:g}x", now / then <= SLOWER))
        else:
            rows.append(Row(row, shown))
    return report(rows, args.check)


if __name__ == "__main__":
    sys.exit(main())
