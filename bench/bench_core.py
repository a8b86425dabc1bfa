"""How fast the core is, on this machine, against the budgets of issue 2 (Unix only).

Usage: ``python bench/bench_core.py [--check] [--runs N] [--repeat N]``

Prints one table row per measurement, with its budget (if it has one) and PASS/FAIL.
Budgets are judged on CPU time, which other processes on a busy machine do not
inflate (on an idle machine it is close to wall time):

- a fresh process that imports tcfg, loads every installed plugin and builds one tag
  target (the first of ``tcfg.list_tags()``, or ``llvm`` when no tag is installed),
  against ``python -c pass``: medians of ``--runs`` runs each, run alternately, of the
  child's CPU time (user + system, from ``getrusage``; budget 4x) and, for
  information, of wall time. Both run with a private bytecode cache
  (``PYTHONPYCACHEPREFIX``, with ``PYTHONDONTWRITEBYTECODE`` removed) warmed by one
  untimed run, as an installed wheel would have compiled bytecode;
- microseconds of CPU time (``time.process_time``) per call, best of ``--repeat``
  timed loops of :data:`CALLS` calls (garbage collection off during each loop, as
  :mod:`timeit` does): a Target from a string that is new each call (distinct
  ``-model=`` values, so the registry's cache never hits; budget 40 us), from a string
  whose CPU configuration is new each call (a distinct triple vendor, so nothing the
  builder remembers applies either; budget 40 us), from a dict,
  from a tag with an override, from a string seen before (cached; budget 2 us),
  ``export()``, ``str()`` and ``to_json()`` of targets that have not printed
  themselves yet, and ``list_tags()`` for the installed tags and for 300 tags in an
  isolated registry (budget 1 ms).

The in-process rows use the process-wide registry: the installed plugins, filtered by
the ``TCFG_*`` environment variables. ``--check`` exits 1 when a budget fails.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import tcfg

#: The AArch64 target the issue compares with Apache TVM (180-270 us per target there).
SPEC = "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon"
DICT_SPEC: dict[str, Any] = {
    "kind": "llvm",
    "mtriple": "aarch64-linux-gnu",
    "mcpu": "cortex-a72",
    "mattr": ["+neon"],
}
#: What the fresh process runs: import, load every plugin, build one tag target.
CHILD = "import tcfg\ntags = tcfg.list_tags()\ntcfg.Target(tags[0] if tags else 'llvm')\n"
#: The tag the in-process rows register when no installed plugin provides one.
FALLBACK_TAG = "bench/aarch64-board"
#: Calls per timed loop: short loops, so that the best of many dodges other processes' noise.
CALLS = 250
MANY_TAGS = 300


@dataclass(frozen=True)
class Row:
    """One measurement: what, its value as text, its budget as text, and pass/fail (None: no budget)."""

    what: str
    value: str
    budget: str = ""
    ok: bool | None = None


@dataclass(frozen=True)
class Startup:
    """Medians over the fresh processes, in ms: wall time and CPU time (user + system)."""

    bare_wall: float
    full_wall: float
    bare_cpu: float
    full_cpu: float


def fresh_processes(runs: int) -> Startup:
    """Time ``python -c pass`` and :data:`CHILD`, ``runs`` times each, alternately."""
    with tempfile.TemporaryDirectory(prefix="tcfg-bench-pyc-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache

        def once(code: str) -> tuple[float, float]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=env, check=True)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            return wall * 1e3, cpu * 1e3

        once("pass")
        once(CHILD)
        bare: list[tuple[float, float]] = []
        full: list[tuple[float, float]] = []
        for _ in range(runs):
            bare.append(once("pass"))
            full.append(once(CHILD))
    return Startup(
        statistics.median(w for w, _ in bare),
        statistics.median(w for w, _ in full),
        statistics.median(c for _, c in bare),
        statistics.median(c for _, c in full),
    )


def best_us(make_items: Callable[[int], Sequence[Any]], call: Callable[[Any], object], repeat: int) -> float:
    """Best microseconds per ``call(item)`` over ``repeat`` loops, each over fresh items.

    ``make_items(round)`` builds the items of one loop outside the timing (so that each
    round can use values no earlier round has seen).
    """
    best = float("inf")
    for round_ in range(repeat):
        items = make_items(round_)
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            start = time.process_time()
            for item in items:
                call(item)
            elapsed = time.process_time() - start
        finally:
            if gc_was_enabled:
                gc.enable()
        best = min(best, elapsed / len(items))
    return best * 1e6


def tag_for_bench() -> str:
    """The first installed tag, or :data:`FALLBACK_TAG` registered in the process-wide registry."""
    tags = tcfg.list_tags()
    if tags:
        return tags[0]
    tcfg.register_tag(FALLBACK_TAG, SPEC)
    return FALLBACK_TAG


def measure(runs: int, repeat: int) -> list[Row]:
    """Every row of the table."""
    rows: list[Row] = []
    startup = fresh_processes(runs)
    ratio = startup.full_cpu / startup.bare_cpu
    rows.append(
        Row(
            f"fresh process vs python -c pass, CPU time (median of {runs})",
            f"{startup.full_cpu:.1f} ms vs {startup.bare_cpu:.1f} ms = {ratio:.2f}x",
            "<= 4x",
            ratio <= 4.0,
        )
    )
    rows.append(
        Row(
            f"fresh process vs python -c pass, wall time (median of {runs})",
            f"{startup.full_wall:.1f} ms vs {startup.bare_wall:.1f} ms = {startup.full_wall / startup.bare_wall:.2f}x",
        )
    )

    from tcfg._engine_registry import default_registry

    registry = default_registry()
    tag = tag_for_bench()
    Target = tcfg.Target

    def distinct(spec: str) -> Callable[[int], list[str]]:
        return lambda round_: [f"{spec} -model=r{round_}n{i}" for i in range(CALLS)]

    def fresh_targets(round_: int) -> list[tcfg.Target]:
        return [Target(s) for s in distinct(SPEC)(round_ + repeat)]

    uncached = best_us(distinct(SPEC), Target, repeat)
    rows.append(Row("Target(str), new string each call", f"{uncached:.1f} us", "< 40 us", uncached < 40))
    new_cpu = best_us(lambda r: [SPEC.replace("-linux-", f"-r{r}v{i}-linux-") for i in range(CALLS)], Target, repeat)
    rows.append(Row("Target(str), new CPU configuration each call", f"{new_cpu:.1f} us", "< 40 us", new_cpu < 40))
    dicts = best_us(lambda r: [{**DICT_SPEC, "model": f"r{r}n{i}"} for i in range(CALLS)], Target, repeat)
    rows.append(Row("Target(dict), same attributes", f"{dicts:.1f} us"))
    tagged = best_us(distinct(tag), Target, repeat)
    rows.append(Row(f"Target('{tag} -model=...'), new each call", f"{tagged:.1f} us"))
    Target(SPEC)
    cached = best_us(lambda r: [SPEC] * CALLS * 10, Target, repeat)
    rows.append(Row("Target(str), repeated string (cached)", f"{cached:.2f} us", "< 2 us", cached < 2))
    target = Target(SPEC)
    exported = best_us(lambda r: [target] * CALLS, tcfg.Target.export, repeat)
    rows.append(Row("export()", f"{exported:.2f} us"))
    printed = best_us(fresh_targets, str, repeat)
    rows.append(Row("str() of a target not printed before", f"{printed:.2f} us"))
    as_json = best_us(fresh_targets, tcfg.Target.to_json, repeat)
    rows.append(Row("to_json() of a target not printed before", f"{as_json:.2f} us"))
    installed = len(registry.list_tags())
    listed = best_us(lambda r: [None] * CALLS, lambda _: registry.list_tags(), repeat)
    rows.append(Row(f"list_tags(), {installed} tags (process-wide registry)", f"{listed:.2f} us"))

    isolated = tcfg.Registry(autoload=False)
    for i in range(MANY_TAGS):
        config = {**DICT_SPEC, "num-cores": i % 16 + 1, "model": f"board-{i}"}
        isolated.register_tag(f"bench/board-{i:03d}", config)
    many = best_us(lambda r: [None] * (CALLS // 10), lambda _: isolated.list_tags(), repeat)
    rows.append(Row(f"list_tags(), {MANY_TAGS} tags", f"{many:.1f} us", "< 1000 us", many < 1000))
    return rows


def describe_setup() -> str:
    """The target string used, versions, machine and the plugins the in-process rows use."""
    records = tcfg.plugins()
    loaded = ", ".join(r.name for r in records if r.status == "loaded")
    other = ", ".join(f"{r.name} ({r.status})" for r in records if r.status != "loaded")
    return (
        f"target string: {SPEC!r}\n"
        f"tcfg-core {tcfg.__version__}, Python {platform.python_version()} ({sys.executable}), "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs; "
        f"plugins loaded: {loaded}" + (f"; not loaded: {other}" if other else "")
    )


def print_table(rows: Sequence[Row]) -> None:
    """The rows as aligned columns."""
    header = ("measurement", "value", "budget", "result")
    cells = [header]
    for r in rows:
        result = "-" if r.ok is None else ("PASS" if r.ok else "FAIL")
        cells.append((r.what, r.value, r.budget or "-", result))
    widths = [max(len(c[i]) for c in cells) for i in range(3)]
    for c in cells:
        print("  ".join(c[i].ljust(widths[i]) for i in range(3)) + "  " + c[3])


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, print the table, and return 1 under ``--check`` if a budget fails."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 when a budget fails")
    parser.add_argument("--runs", type=int, default=21, help="fresh processes of each kind (default 21)")
    parser.add_argument("--repeat", type=int, default=30, help="timed loops per row, best counts (default 30)")
    args = parser.parse_args(argv)
    rows = measure(args.runs, args.repeat)
    print(describe_setup())
    print_table(rows)
    failed = [r.what for r in rows if r.ok is False]
    if failed and args.check:
        print(f"{len(failed)} budget(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
