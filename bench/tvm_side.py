"""Apache TVM's side of the tcfg-vs-TVM benchmark; run it in the Python that has TVM.

Usage: ``<tvm-venv>/bin/python bench/tvm_side.py [--repeat N]``

Prints one JSON object: ``{"tvm": version, "python": version, "tags": count,
"rows": {id: microseconds}, "errors": {id: message}}``, where each id names a
measurement that :mod:`bench_vs_tvm` compares with tcfg's (see there for the table),
timed by :func:`vs_tvm_common.cpu_us_per_call` (CPU time per call, best of ``--repeat``
loops). A row whose TVM call raises is reported in ``errors``, not measured.
Imports no tcfg.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from collections.abc import Callable, Sequence
from typing import Any

from vs_tvm_common import KINDS, TAGS, Items, cpu_us_per_call, distinct, new_configs, new_texts, repeated


def measure(repeat: int) -> dict[str, Any]:
    """Every TVM measurement, keyed by the ids :mod:`bench_vs_tvm` looks up."""
    import tvm
    from tvm.target import Target, list_tags

    rows: dict[str, float] = {}
    errors: dict[str, str] = {}

    def row(name: str, make_items: Items, call: Callable[[Any], object]) -> None:
        try:
            call(make_items(-2, 1)[0])  # first-use costs (LLVM initialisation) are not per-call costs
            rows[name] = cpu_us_per_call(make_items, call, repeat)
        except Exception as error:  # any failure of TVM's is reported, not hidden
            errors[name] = f"{type(error).__name__}: {error}"

    def new_targets(config: dict[str, Any]) -> Items:
        return lambda round_, count: [Target(c) for c in distinct(config, round_, count)]

    for kind, config in KINDS.items():
        row(f"create/{kind}/dict", new_configs(config), Target)
        row(f"create/{kind}/json", new_texts(config), Target)
        row(f"export/{kind}", new_targets(config), Target.export)
        row(f"str/{kind}", new_targets(config), str)
    row("repeat/aarch64/json", repeated(json.dumps(KINDS["aarch64"])), Target)
    for key, _, name in TAGS:
        row(f"tag/{key}/name", repeated(name), Target)
        row(f"tag/{key}/dict", new_configs({"tag": name}), Target)
    row("list_tags", repeated(None), lambda _: list_tags())
    tags = list_tags()
    return {
        "tvm": tvm.__version__,
        "python": platform.python_version(),
        "tags": len(tags) if tags is not None else 0,
        "rows": rows,
        "errors": errors,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5, help="timed loops per row, best counts (default 5)")
    args = parser.parse_args(argv)
    json.dump(measure(args.repeat), sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
