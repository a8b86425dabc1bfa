"""What the tcfg-vs-TVM benchmark measures, shared by both sides (imports neither library).

:mod:`bench_vs_tvm` (tcfg, in the current interpreter) and :mod:`tvm_side` (Apache TVM,
in its own virtual environment) import this module so that both time the same targets
with the same clock and the same loop. It must stay importable by a bare Python 3.10+.
"""

from __future__ import annotations

import json
import time
import timeit
from collections.abc import Callable, Sequence
from typing import Any

#: One target per kind, as a dict both libraries accept (TVM 0.27 takes only dict/JSON).
KINDS: dict[str, dict[str, Any]] = {
    "aarch64": {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mcpu": "cortex-a72", "mattr": ["+neon"]},
    "x86": {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": "skylake-avx512"},
    "cuda": {"kind": "cuda", "arch": "sm_80"},
    "cortex-m": {"kind": "c", "mcpu": "cortex-m55"},
}

#: The same device under each library's tag name: (row key, tcfg tag, TVM tag). TVM's
#: ``arm/rasp4b64`` is its single-target Raspberry Pi 4B tag (``raspberry-pi/4b-aarch64``
#: adds a host target, which tcfg's tag does not have).
TAGS: tuple[tuple[str, str, str], ...] = (
    ("gpu", "nvidia/a100", "nvidia/nvidia-a100"),
    ("cpu", "raspberry-pi/4b", "arm/rasp4b64"),
)

#: What a fresh process builds after importing the library.
START_KIND = "aarch64"

#: A timed loop lasts at least this long (CPU seconds), so that the clock's resolution
#: and the loop's own overhead stay negligible.
MIN_LOOP_SECONDS = 0.05
#: Most calls in one loop (the items of a loop are built before it is timed).
MAX_CALLS = 20_000


#: Builds the items of one timed loop: ``make_items(round, count)``.
Items = Callable[[int, int], Sequence[Any]]


def distinct(config: dict[str, Any], round_: int, count: int) -> list[dict[str, Any]]:
    """``count`` copies of ``config``, each with its own ``model`` annotation (both libraries
    accept ``model`` on every kind), so that no call sees an input an earlier call saw."""
    return [{**config, "model": f"r{round_}n{i}"} for i in range(count)]


def new_configs(config: dict[str, Any]) -> Items:
    """Items: :func:`distinct` copies of ``config``."""
    return lambda round_, count: distinct(config, round_, count)


def new_texts(config: dict[str, Any]) -> Items:
    """Items: :func:`distinct` copies of ``config`` as JSON text."""
    return lambda round_, count: [json.dumps(c) for c in distinct(config, round_, count)]


def repeated(value: Any) -> Items:
    """Items: ``value`` every time."""
    return lambda round_, count: [value] * count


def cpu_us_per_call(make_items: Items, call: Callable[[Any], object], repeat: int) -> float:
    """Best CPU microseconds per ``call(item)``: :mod:`timeit` with ``time.process_time``.

    ``make_items(round, count)`` builds one loop's items outside the timing; each round
    gets a new round number, so items may differ from every earlier round's. A first,
    short round sizes the loops to last at least :data:`MIN_LOOP_SECONDS` (at most
    :data:`MAX_CALLS` calls); then the best of ``repeat`` timed loops counts. Garbage
    collection is off during a loop, as :mod:`timeit` does.
    """
    probe = make_items(-1, 20)
    calibration = _time_loop(probe, call)
    per_call = max(calibration / len(probe), 1e-9)
    count = int(min(MAX_CALLS, max(100, MIN_LOOP_SECONDS / per_call)))
    best = float("inf")
    for round_ in range(repeat):
        items = make_items(round_, count)
        best = min(best, _time_loop(items, call) / len(items))
    return best * 1e6


def _time_loop(items: Sequence[Any], call: Callable[[Any], object]) -> float:
    namespace = {"items": items, "call": call}
    timer = timeit.Timer("for item in items: call(item)", globals=namespace, timer=time.process_time)
    return timer.timeit(number=1)
