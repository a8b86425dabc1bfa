"""How fast the core is, on this machine, against the budgets of issues 2 and 25 (Unix only).

Usage: ``python bench/bench_core.py [--check] [--runs N] [--repeat N]``

Prints one table row per measurement, with its budget (if it has one) and PASS/FAIL.
Budgets are judged on CPU time, which other processes on a busy machine do not
inflate (on an idle machine it is close to wall time):

- fresh processes against ``python -c pass`` (medians of ``--runs`` runs each, run
  round-robin, of the child's CPU time, user + system from ``getrusage``, and for
  information of wall time; each with a private bytecode cache, ``PYTHONPYCACHEPREFIX``
  with ``PYTHONDONTWRITEBYTECODE`` removed, warmed by one untimed run, as an installed
  wheel would have compiled bytecode): one that only imports tcfg (budget 1.5x: importing
  does no work); one that imports tcfg, builds one AArch64 target from a dict and reads a
  feature, against one that imports pluggy and scans the ``tcfg`` entry points with
  importlib-metadata (the cost of tcfg's own tools; budget: at most 25 ms more), and for
  information one that does what that one does and then imports the first target's shape
  alone (:mod:`first_target_shape`: as many empty modules, the same record types, the same
  standard modules); one that
  imports tcfg, loads every installed plugin and builds one tag target (the first of
  ``tcfg.list_tags()``, or ``llvm`` when no tag is installed; no budget); and per
  installed plugin, its load cost:
  a process that loads it and the plugins before it in load order (``TCFG_LOAD_PLUGINS``)
  and builds an ``llvm`` target, without and with listing tags, less the same without it;
- microseconds of CPU time (``time.process_time``) per call, best of ``--repeat``
  timed loops of :data:`CALLS` calls (garbage collection off during each loop, as
  :mod:`timeit` does): a Target from a string that is new each call (distinct
  ``-model=`` values, so the registry's cache never hits; budget 40 us), from a string
  whose CPU configuration is new each call (a distinct triple vendor, so nothing the
  builder remembers applies either; budget 40 us), from a dict, from the same dict
  again (budget 1 us),
  from a tag with an override, from a string seen before (cached; budget 2 us),
  ``export()``, ``str()`` and ``to_json()`` of targets that have not printed
  themselves yet, and ``list_tags()`` for the installed tags and for 300 tags in an
  isolated registry (budget 1 ms).

The in-process rows use the process-wide registry: the installed plugins, filtered by
the ``TCFG_*`` environment variables. ``--check`` exits 1 when a budget fails.

Issue 25's other budgets are checked where their comparison is measured:
``bench/per_target_rows.py --baseline PYTHONPATH --check`` (the per-target rows at most
10% slower than at ``29e6cae``, alternating fresh processes of both checkouts) and
``bench/bench_vs_tvm.py --check`` (the fresh process at most 0.15x TVM 0.27's).
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
from pathlib import Path
from typing import Any

import first_target_shape

import tcfg

#: The AArch64 target the issue compares with Apache TVM (180-270 us per target there).
SPEC = "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon"
DICT_SPEC: dict[str, Any] = {
    "kind": "llvm",
    "mtriple": "aarch64-linux-gnu",
    "mcpu": "cortex-a72",
    "mattr": ["+neon"],
}
#: What the fresh processes run: import, load every plugin, build one tag target ...
CHILD = "import tcfg\ntags = tcfg.list_tags()\ntcfg.Target(tags[0] if tags else 'llvm')\n"
#: ... and import, build one AArch64 target from a dict, read a feature (issue 15's measure) ...
START_CHILD = f"import tcfg\ntcfg.Target({DICT_SPEC!r}).features.neon\n"
#: ... against the cost of tcfg's own tools: pluggy, and one scan of the tcfg entry points.
TOOLS_CHILD = "import pluggy, importlib_metadata\nimportlib_metadata.entry_points(group='tcfg')\n"
#: The most a first target may cost over TOOLS_CHILD, in ms of CPU time.
OVER_TOOLS_MS = 25.0
#: What a plugin's load cost is measured with (``TCFG_LOAD_PLUGINS`` naming it, or none):
#: the registry's load of every plugin allowed (a plugin with a manifest otherwise loads
#: only when a target needs it), and with the tags.
LOAD_CHILD = (
    "import tcfg\nfrom tcfg._registry.registry import default_registry\n"
    "tcfg.Target('llvm')\ndefault_registry()._loader.load_all_pending()\n"
)
TAGS_CHILD = "import tcfg\ntcfg.list_tags()\n"
#: The tag the in-process rows register when no installed plugin provides one.
FALLBACK_TAG = "bench/aarch64-board"
#: One target per device kind, timed like the first in-process row (a new string each call),
#: each where its plugin is installed, and compared with the cuda one (issue 17: a GPU kind
#: of a new plugin costs what a cuda target costs).
KIND_SPECS = (
    "cuda -arch=sm_80",
    "nvptx -mcpu=sm_90a -mattr=+ptx85",
    "rocm -mcpu=gfx942:sramecc+:xnack-",
    "vulkan -vulkan_api_version=4206592 -supports_float16=true -max_threads_per_block=1024",
    "opencl -device=adreno",
    "webgpu",
    "metal",
    "hexagon -mcpu=hexagonv73 -mattr=+hvxv73,+hvx-length128b",
    "trn -num-cores=2",
    "llvm -mtriple=riscv64-unknown-linux-gnu -mcpu=spacemit-x60 -mattr=+zvfh -mabi=lp64d",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake -compiler=dnnl -libs=mkl",
    "cuda -arch=sm_80 -compiler=cutlass -libs=cudnn",
)
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
class Child:
    """A fresh process to time: its code and the environment variables it adds."""

    code: str
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Timing:
    """Medians over the fresh processes of one child, in ms: wall time and CPU time (user + system)."""

    wall: float
    cpu: float


def fresh_processes(children: dict[str, Child], runs: int) -> dict[str, Timing]:
    """Time each child ``runs`` times, round-robin (so that load from elsewhere hits all alike).

    Every child runs with a private bytecode cache (``PYTHONPYCACHEPREFIX``, with
    ``PYTHONDONTWRITEBYTECODE`` removed) warmed by one untimed run, as an installed wheel
    would have compiled bytecode.
    """
    with tempfile.TemporaryDirectory(prefix="tcfg-bench-pyc-") as cache:
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base["PYTHONPYCACHEPREFIX"] = cache

        def once(child: Child) -> tuple[float, float]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", child.code], env={**base, **dict(child.env)}, check=True)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            return wall * 1e3, cpu * 1e3

        for child in children.values():
            once(child)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in children}
        for _ in range(runs):
            for name, child in children.items():
                samples[name].append(once(child))
    return {
        name: Timing(statistics.median(w for w, _ in got), statistics.median(c for _, c in got))
        for name, got in samples.items()
    }


def installed_plugins() -> list[str]:
    """The names of the plugins the environment lets load (the core aside), in load order."""
    return [r.name for r in tcfg.plugins() if r.status == "loaded" and r.name != "core"]


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
    plugins = installed_plugins()
    only = "TCFG_LOAD_PLUGINS"
    children = {
        "bare": Child("pass"),
        "import": Child("import tcfg"),
        "tools": Child(TOOLS_CHILD),
        "start": Child(START_CHILD),
        "full": Child(CHILD),
    }
    shape = first_target_shape.probe(TOOLS_CHILD, START_CHILD)
    package = tempfile.TemporaryDirectory(prefix="tcfg-bench-shape-")
    path = os.pathsep.join(p for p in (package.name, os.environ.get("PYTHONPATH", "")) if p)
    shape_code = first_target_shape.write_package(shape, Path(package.name))
    children["shape"] = Child(TOOLS_CHILD + shape_code, (("PYTHONPATH", path),))
    for count in range(len(plugins) + 1):  # the core, then one more plugin each, in load order
        loaded = ",".join(plugins[:count])
        children[f"load {count}"] = Child(LOAD_CHILD, ((only, loaded),))
        children[f"tags {count}"] = Child(TAGS_CHILD, ((only, loaded),))
    with package:
        timed = fresh_processes(children, runs)
    bare = timed["bare"]
    for key, what, budget in (
        ("import", "import tcfg", 1.5),
        ("start", "import, one AArch64 target from a dict, one feature", None),
        ("full", "import, load every plugin and its tags, one tag target", None),
    ):
        ratio = timed[key].cpu / bare.cpu
        rows.append(
            Row(
                f"fresh process ({what}) vs python -c pass, CPU (median of {runs})",
                f"{timed[key].cpu:.1f} ms vs {bare.cpu:.1f} ms = {ratio:.2f}x",
                "" if budget is None else f"<= {budget:g}x",
                None if budget is None else ratio <= budget,
            )
        )
        rows.append(
            Row(
                f"  the same, wall time (median of {runs})",
                f"{timed[key].wall:.1f} ms vs {bare.wall:.1f} ms = {timed[key].wall / bare.wall:.2f}x",
            )
        )
    over = timed["start"].cpu - timed["tools"].cpu
    rows.append(
        Row(
            "fresh process: first AArch64 target over import pluggy + one tcfg entry-point scan, CPU",
            f"{timed['start'].cpu:.1f} ms - {timed['tools'].cpu:.1f} ms = {over:+.1f} ms",
            f"<= {OVER_TOOLS_MS:g} ms",
            over <= OVER_TOOLS_MS,
        )
    )
    fixed = timed["shape"].cpu - timed["tools"].cpu
    dataclasses = sum("dataclass" in r for r in shape["records"])
    rows.append(
        Row(
            f"  of which its shape alone: {len(shape['modules'])} empty modules with its {dataclasses} dataclass "
            f"and {len(shape['records']) - dataclasses} NamedTuple types, and "
            f"{', '.join(first_target_shape.top(shape))}, CPU",
            f"{timed['shape'].cpu:.1f} ms - {timed['tools'].cpu:.1f} ms = {fixed:+.1f} ms",
        )
    )
    rows.append(Row("  and the rest: tcfg's work and module bodies, CPU", f"{over - fixed:+.1f} ms"))
    rows.append(Row("fresh process loading the core alone (no plugin), CPU", f"{timed['load 0'].cpu:.1f} ms"))
    for count, name in enumerate(plugins, 1):  # a plugin may need those before it (tensorrt: cuda)
        load = timed[f"load {count}"].cpu - timed[f"load {count - 1}"].cpu
        tags = timed[f"tags {count}"].cpu - timed[f"tags {count - 1}"].cpu
        rows.append(
            Row(
                f"  plugin {name}: load cost over the plugins before it, without / with tags, CPU",
                f"{load:+.1f} ms / {tags:+.1f} ms",
            )
        )

    from tcfg._registry.registry import default_registry

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
    same_dict = dict(DICT_SPEC)
    Target(same_dict)
    again = best_us(lambda r: [same_dict] * CALLS * 10, Target, repeat)
    rows.append(Row("Target(dict), the same dict again", f"{again:.2f} us", "<= 1 us", again <= 1))
    kinds = set(tcfg.list_kinds())
    per_kind: dict[str, float] = {}
    for spec in KIND_SPECS:
        try:
            Target(spec)
        except tcfg.TargetError:  # its plugin is not installed here
            continue
        per_kind[spec] = best_us(distinct(spec), Target, repeat)
    cuda = per_kind.get(KIND_SPECS[0])
    for spec, us in per_kind.items():
        versus = f" ({us / cuda:.2f}x the cuda row)" if cuda and spec != KIND_SPECS[0] else ""
        rows.append(Row(f"Target('{spec} -model=...'), new each call", f"{us:.1f} us{versus}"))
    rows.append(Row("kinds installed", ", ".join(sorted(kinds))))
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
    return report(rows, args.check)


def report(rows: Sequence[Row], check: bool) -> int:
    """Print the table; 1 under ``check`` if a budget failed (saying how many), else 0."""
    print_table(rows)
    failed = [r.what for r in rows if r.ok is False]
    if failed and check:
        print(f"{len(failed)} budget(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
