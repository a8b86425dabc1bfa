"""Instructions per new target, counted by valgrind's cachegrind (Linux, valgrind installed).

Usage: ``python bench/count_instructions.py [--calls N] [KIND-FORM ...]``

CPU time on a shared machine moves by 10% or more from run to run; instruction counts
do not, so this is the tool for deciding whether a change to the builder helps.
For each case (a kind of :data:`vs_tvm_common.KINDS` and an input form: ``dict``,
``json`` or ``string``; all twelve by default) it runs a child under cachegrind twice:
both build ``N`` distinct inputs (each with its own ``model``) after warming the
registry on other inputs of the same shape, and one of them also calls ``Target`` on
each. The difference, over ``N``, is the instructions per call (the ``Target()``
call, the builder and freeing the result; not building the input).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from vs_tvm_common import KINDS  # noqa: E402

FORMS = ("dict", "json", "string")
WARM_CALLS = 600  # more than the registry's cache of strings holds


def as_string(config: dict[str, Any]) -> str:
    """``config`` in the string grammar (lists joined by commas)."""
    options = [
        f"-{name}={','.join(value) if isinstance(value, list) else value}"
        for name, value in config.items()
        if name != "kind"
    ]
    return " ".join([config["kind"], *options])


def inputs(kind: str, form: str, prefix: str, count: int) -> list[Any]:
    """``count`` inputs of ``form`` for ``kind``, each with the model ``{prefix}{i}``."""
    configs = [{**KINDS[kind], "model": f"{prefix}{i}"} for i in range(count)]
    if form == "json":
        return [json.dumps(c) for c in configs]
    if form == "string":
        return [as_string(c) for c in configs]
    return configs


def child(kind: str, form: str, calls: int, call: bool) -> None:
    """The measured process: warm up, build the inputs, call ``Target`` on them if ``call``."""
    import gc

    from tcfg import Target

    for item in inputs(kind, form, "warm", WARM_CALLS):
        Target(item)
    items = inputs(kind, form, "m", calls)
    gc.disable()
    if call:
        for item in items:
            Target(item)


def instructions(case: str, calls: int, call: bool) -> int:
    """Instructions the child executes (cachegrind's ``I refs``)."""
    argv = [sys.executable, __file__, "--child", case, "--calls", str(calls)] + (["--call"] if call else [])
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *argv],
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed on {case}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: Sequence[str] | None = None) -> int:
    """Print instructions per call for each case."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    cases = [f"{kind}-{form}" for kind in KINDS for form in FORMS]
    parser.add_argument("cases", nargs="*", metavar="KIND-FORM", help=f"cases (default: all of {', '.join(cases)})")
    parser.add_argument("--calls", type=int, default=3000, help="calls counted per case (default 3000)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--call", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, form = args.child.rsplit("-", 1)
        child(kind, form, args.calls, args.call)
        return 0
    unknown = [c for c in args.cases if c not in cases]
    if unknown:
        parser.error(f"unknown cases {unknown}; choose from {', '.join(cases)}")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install valgrind)")
    for case in args.cases or cases:
        per_call = (instructions(case, args.calls, True) - instructions(case, args.calls, False)) / args.calls
        print(f"{case:18s} {per_call:10,.0f} instructions per Target() call", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
