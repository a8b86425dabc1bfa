"""tcfg against Apache TVM 0.27, side by side on the same targets (issue 8; Unix only).

Usage: ``python bench/bench_vs_tvm.py [--runs N] [--repeat N] [--passes N] [--markdown] [--no-profile]
[--tvm-venv DIR | --tvm-python PATH] [--no-install] [--check]``

TVM lives in its own virtual environment (default ``bench/.venv/tvm``, git-ignored),
created from this interpreter and filled with ``apache-tvm`` 0.27.x from PyPI on first
use (``--no-install`` forbids that). TVM's rows run there, in :mod:`tvm_side`; tcfg's run
in this interpreter, with whatever tcfg plugins are installed here. When TVM cannot be
installed or imported, the script says why and prints tcfg's numbers alone (exit 0).

Clocks: CPU time, which other processes on a shared machine inflate far less than wall
time. Fresh processes: the medians over ``--runs`` runs of each kind, run in turn, of
the child's user + system time from ``getrusage`` (wall time too, for information),
with a private, warmed bytecode cache for both libraries. Per call: ``time.process_time``
through :mod:`timeit`, best of ``--repeat`` loops of at least 50 ms each (see
:func:`vs_tvm_common.cpu_us_per_call`), and best over ``--passes`` passes (default 2),
each of which times TVM's rows and then tcfg's, so that load from elsewhere that lasts
less than a pass cannot decide a ratio alone.

"new" inputs differ in every call (a distinct ``model`` annotation), so tcfg's cache of
target strings never answers; rows marked "cached" repeat one input, which tcfg answers
from that cache (TVM has none). ``export()`` and ``str()`` run once on each of many
freshly built targets (tcfg keeps a target's text once computed; TVM may too).

The ratio is TVM's time over tcfg's: above 1, tcfg is faster. Issue 25's budget: the fresh
process (import, one AArch64 target) costs tcfg at most :data:`START_BUDGET` of TVM's
CPU time; ``--check`` exits 1 when it does not, or when TVM could not be measured. For every row where tcfg
is slower, the script profiles tcfg's call with :mod:`cProfile` and prints where the time
goes (unless ``--no-profile``).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import json
import os
import platform
import pstats
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

from vs_tvm_common import KINDS, START_KIND, TAGS, Items, cpu_us_per_call, distinct, new_configs, new_texts, repeated

import tcfg

HERE = Path(__file__).resolve().parent
DEFAULT_VENV = HERE / ".venv" / "tvm"
TVM_REQUIREMENT = "apache-tvm>=0.27,<0.28"
#: Calls profiled for a row where tcfg is slower.
PROFILE_CALLS = 3000
#: Functions shown per profile.
PROFILE_TOP = 12
#: The most tcfg's fresh process (import, one AArch64 target) may cost, as a share of TVM's CPU time.
START_BUDGET = 0.15


@dataclass(frozen=True)
class Case:
    """One row: a tcfg measurement and the TVM measurement (by id) it is compared with."""

    what: str
    tcfg_input: str
    tvm_id: str
    tvm_input: str
    make_items: Items
    call: Callable[[Any], object]


@dataclass(frozen=True)
class Result:
    """A measured row: tcfg's and TVM's value (None: not measured) and TVM's error, if any."""

    case: Case | None
    what: str
    tcfg_input: str
    tcfg_value: float
    tvm_input: str
    tvm_value: float | None
    unit: str
    tvm_error: str = ""

    @property
    def ratio(self) -> float | None:
        """TVM's time over tcfg's (above 1: tcfg is faster)."""
        if self.tvm_value is None or self.tcfg_value <= 0:
            return None
        return self.tvm_value / self.tcfg_value


# -- TVM's environment -----------------------------------------------------------------


@dataclass(frozen=True)
class Tvm:
    """The Python that has TVM, and TVM's version; or why there is none (python is None)."""

    python: Path | None
    version: str = ""
    problem: str = ""


def _tail(text: str, lines: int = 6) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def _probe(python: Path) -> Tvm:
    """Import TVM in ``python``: its version, or the error."""
    try:
        probe = subprocess.run(
            [str(python), "-c", "import tvm; print(tvm.__version__)"], capture_output=True, text=True, check=False
        )
    except OSError as error:
        return Tvm(None, problem=f"cannot run {python}: {error}")
    if probe.returncode != 0:
        return Tvm(None, problem=f"`import tvm` failed in {python}:\n{_tail(probe.stderr)}")
    return Tvm(python, version=probe.stdout.strip())


def find_tvm(venv: Path, python: Path | None, install: bool) -> Tvm:
    """TVM from ``python``, or from ``venv`` (created and filled on demand if ``install``)."""
    if python is not None:
        return _probe(python)
    venv_python = venv / "bin" / "python"
    if venv_python.exists():
        found = _probe(venv_python)
        if found.python is not None or not install:
            return found
    elif not install:
        return Tvm(None, problem=f"no TVM environment at {venv} (and --no-install was given)")
    print(f"installing {TVM_REQUIREMENT} into {venv} ...", file=sys.stderr)
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(venv_python), "-m", "pip", "install", "--disable-pip-version-check", "-q", TVM_REQUIREMENT],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            return Tvm(None, problem=f"`{' '.join(step)}` failed:\n{_tail(done.stderr or done.stdout)}")
    return _probe(venv_python)


def tvm_rows(tvm: Tvm, repeat: int) -> tuple[dict[str, Any] | None, str]:
    """TVM's measurements (the JSON of :mod:`tvm_side`), or None and why."""
    assert tvm.python is not None
    done = subprocess.run(
        [str(tvm.python), str(HERE / "tvm_side.py"), "--repeat", str(repeat)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return None, f"bench/tvm_side.py failed under {tvm.python}:\n{_tail(done.stderr)}"
    data: dict[str, Any] = json.loads(done.stdout)
    return data, ""


# -- fresh processes -------------------------------------------------------------------


@dataclass(frozen=True)
class Startup:
    """Medians in ms of CPU (user + system) and wall time, per child: python -c pass, tcfg, TVM."""

    cpu: dict[str, float]
    wall: dict[str, float]


def fresh_processes(runs: int, tvm_python: Path | None) -> Startup:
    """Time a bare interpreter, tcfg's and TVM's import + one target, ``runs`` times each, in turn."""
    config = KINDS[START_KIND]
    children: dict[str, list[str]] = {
        "bare": [sys.executable, "-c", "pass"],
        "tcfg": [sys.executable, "-c", f"import tcfg\ntcfg.Target({config!r})\n"],
    }
    if tvm_python is not None:
        children["tvm"] = [str(tvm_python), "-c", f"import tvm\ntvm.target.Target({config!r})\n"]
    with tempfile.TemporaryDirectory(prefix="tcfg-vs-tvm-pyc-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache

        def once(argv: list[str]) -> tuple[float, float]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                status = f"exit status {done.returncode}"
                raise RuntimeError(f"`{argv[0]} -c {argv[2]!r}` failed ({status}):\n{_tail(done.stderr)}")
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            return cpu * 1e3, wall * 1e3

        for argv in children.values():
            once(argv)  # warms the bytecode cache
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in children}
        for _ in range(runs):
            for name, argv in children.items():
                times[name].append(once(argv))
    return Startup(
        {name: statistics.median(c for c, _ in t) for name, t in times.items()},
        {name: statistics.median(w for _, w in t) for name, t in times.items()},
    )


# -- tcfg's rows -----------------------------------------------------------------------


def _strings(spec: str) -> Items:
    """Items: ``spec`` with a distinct ``-model=`` each."""
    return lambda round_, count: [f"{spec} -model=r{round_}n{i}" for i in range(count)]


def _targets(config: dict[str, Any]) -> Items:
    """Items: targets built from :func:`vs_tvm_common.distinct` copies of ``config``."""
    return lambda round_, count: [tcfg.Target(c) for c in distinct(config, round_, count)]


def cases() -> list[Case]:
    """Every per-call row, with tcfg's items and call and the TVM id it compares with."""
    Target = tcfg.Target
    rows: list[Case] = []
    for kind, config in KINDS.items():
        what = f"Target(), {kind}"
        rows += [
            Case(what, "dict, new", f"create/{kind}/dict", "dict, new", new_configs(config), Target),
            Case(what, "JSON text, new", f"create/{kind}/json", "JSON text, new", new_texts(config), Target),
            Case(
                what,
                "string, new",
                f"create/{kind}/dict",
                "dict, new (no string form)",
                _strings(str(Target(config))),
                Target,
            ),
        ]
    what = "Target(), aarch64, same input"
    same_spec = str(Target(KINDS["aarch64"]))
    same_json = json.dumps(KINDS["aarch64"])
    rows += [
        Case(what, "string, cached", "repeat/aarch64/json", "JSON text", repeated(same_spec), Target),
        Case(what, "JSON text, cached", "repeat/aarch64/json", "JSON text", repeated(same_json), Target),
    ]
    for key, name, tvm_name in TAGS:
        what = f"Target() from a tag, {key}"
        new_tag = '{"tag": ..., "model": new}'
        rows += [
            Case(what, f"'{name}', cached", f"tag/{key}/name", f"'{tvm_name}'", repeated(name), Target),
            Case(what, new_tag, f"tag/{key}/dict", new_tag, new_configs({"tag": name}), Target),
            Case(
                what, f"'{name} -model=new'", f"tag/{key}/dict", f"{new_tag} (no string form)", _strings(name), Target
            ),
        ]
    for kind, config in KINDS.items():
        targets = _targets(config)
        rows += [
            Case(f"export(), {kind}", "new target", f"export/{kind}", "new target", targets, Target.export),
            Case(
                f"str(), {kind}", "new target (string grammar)", f"str/{kind}", "new target (JSON text)", targets, str
            ),
        ]
        if kind == "aarch64":
            tvm_str = "str(): new target (JSON text)"
            rows.append(Case(f"to_json(), {kind}", "new target", f"str/{kind}", tvm_str, targets, Target.to_json))
    rows.append(
        Case(
            "list_tags()",
            f"{len(tcfg.list_tags())} names, sorted list",
            "list_tags",
            "its tags, a Map of name -> Target",
            repeated(None),
            lambda _: tcfg.list_tags(),
        )
    )
    return rows


def measure(runs: int, repeat: int, passes: int, tvm: Tvm) -> tuple[list[Result], str]:
    """Every row (TVM's columns empty when TVM is missing) and a note on TVM, if any.

    Each of ``passes`` passes times TVM's rows, then tcfg's; a row keeps each side's best,
    so that a burst of load from elsewhere slows one pass of one side, not the ratio.
    """
    try:
        startup = fresh_processes(runs, tvm.python)
    except RuntimeError as failure:
        if tvm.python is None:
            raise
        tvm = Tvm(None, problem=f"a fresh process failed: {failure}")
        startup = fresh_processes(runs, None)
    note = tvm.problem
    all_cases = cases()
    tvm_values: dict[str, float] = {}
    tvm_errors: dict[str, str] = {}
    tcfg_values = [float("inf")] * len(all_cases)
    for _ in range(passes):
        if tvm.python is not None and not note:
            tvm_data, note = tvm_rows(tvm, repeat)
            for row, value in (tvm_data["rows"] if tvm_data else {}).items():
                tvm_values[row] = min(value, tvm_values.get(row, value))
            tvm_errors.update(tvm_data["errors"] if tvm_data else {})
        for index, case in enumerate(all_cases):
            case.call(case.make_items(-2, 1)[0])  # first use: plugin loading is not a per-call cost
            tcfg_values[index] = min(tcfg_values[index], cpu_us_per_call(case.make_items, case.call, repeat))
    if note:  # a failed pass: show tcfg alone rather than a mix of passes
        tvm_values, tvm_errors = {}, {}
    results: list[Result] = []
    code = f"import …; Target({START_KIND} dict)"
    for clock, values in (("CPU", startup.cpu), ("wall", startup.wall)):
        results.append(
            Result(
                None,
                f"fresh process, {clock} time (median of {runs}; `python -c pass`: {values['bare']:.0f} ms)",
                code,
                values["tcfg"],
                code,
                values.get("tvm"),
                "ms",
            )
        )
    for case, value in zip(all_cases, tcfg_values, strict=True):
        error = tvm_errors.get(case.tvm_id, "")
        results.append(
            Result(case, case.what, case.tcfg_input, value, case.tvm_input, tvm_values.get(case.tvm_id), "µs", error)
        )
    return results, note


# -- output ----------------------------------------------------------------------------


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    return f"{value:.2f} {unit}" if value < 10 else f"{value:.1f} {unit}"


def table(results: Sequence[Result]) -> list[tuple[str, ...]]:
    """The header and one tuple of cells per row."""
    cells: list[tuple[str, ...]] = [("measurement", "tcfg input", "tcfg", "TVM input", "TVM", "TVM / tcfg")]
    for r in results:
        ratio = r.ratio
        if r.tvm_error:
            shown = "TVM error: " + r.tvm_error.splitlines()[0][:60]
        elif ratio is None:
            shown = "-"
        else:
            shown = f"{ratio:.2f}x" + ("" if ratio >= 1 else " (tcfg slower)")
        tcfg_value, tvm_value = _number(r.tcfg_value, r.unit), _number(r.tvm_value, r.unit)
        cells.append((r.what, r.tcfg_input, tcfg_value, r.tvm_input, tvm_value, shown))
    return cells


def print_table(results: Sequence[Result], markdown: bool) -> None:
    """Aligned columns, or a Markdown table."""
    cells = table(results)
    if markdown:
        print("| " + " | ".join(cells[0]) + " |")
        print("|" + "---|" * len(cells[0]))
        for row in cells[1:]:
            print("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
        return
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    for row in cells:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


def profile(case: Case) -> str:
    """Where tcfg's time goes in ``case``: the functions with the most own time, per call."""
    items = case.make_items(10_000, PROFILE_CALLS)
    profiler = cProfile.Profile()
    profiler.enable()
    for item in items:
        case.call(item)
    profiler.disable()
    stats = pstats.Stats(profiler)
    entries = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)  # type: ignore[attr-defined]
    total = sum(v[2] for _, v in entries)
    lines = [f"  {case.what} [{case.tcfg_input}]: {total / len(items) * 1e6:.1f} µs per call under cProfile"]
    lines.append(f"    {'own µs':>7}  {'incl. µs':>8}  {'calls':>5}  function (per call of the row)")
    for (path, line, name), (_, ncalls, own, inclusive, _) in entries[:PROFILE_TOP]:
        where = f"{Path(path).parent.name}/{Path(path).name}:{line}" if line else path
        per = 1e6 / len(items)
        lines.append(f"    {own * per:7.2f}  {inclusive * per:8.2f}  {ncalls / len(items):5.1f}  {name} ({where})")
    return "\n".join(lines)


def describe_setup(tvm: Tvm, tvm_data_note: str) -> str:
    """Date, versions, machine, plugins and clocks."""
    loaded = ", ".join(r.name for r in tcfg.plugins() if r.status == "loaded")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    tvm_text = f"Apache TVM {tvm.version} ({tvm.python})" if tvm.python else "Apache TVM: not available"
    lines = [
        f"{now}; tcfg-core {tcfg.__version__} (plugins: {loaded}); {tvm_text}",
        f"Python {platform.python_version()}, {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs,"
        " load average {:.1f} {:.1f} {:.1f} at the end".format(*os.getloadavg()),
        "clocks: CPU time (fresh processes: getrusage user+system of the child, median;"
        " per call: time.process_time via timeit, best loop)",
    ]
    if tvm_data_note:
        lines.append("TVM NOT MEASURED: " + tvm_data_note)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure both sides, print the table and the profiles of rows where tcfg is slower."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=11, help="fresh processes of each kind (default 11)")
    parser.add_argument("--repeat", type=int, default=5, help="timed loops per row, best counts (default 5)")
    parser.add_argument(
        "--passes", type=int, default=2, help="passes over both sides, best per side counts (default 2)"
    )
    parser.add_argument("--tvm-venv", type=Path, default=DEFAULT_VENV, help="TVM's virtual environment")
    parser.add_argument("--tvm-python", type=Path, help="use this Python, which has TVM, instead of the venv")
    parser.add_argument("--no-install", action="store_true", help="do not create the venv or install TVM")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--no-profile", action="store_true", help="do not profile rows where tcfg is slower")
    parser.add_argument(
        "--check", action="store_true", help=f"exit 1 unless tcfg's fresh process is <= {START_BUDGET:g}x TVM's"
    )
    args = parser.parse_args(argv)

    tvm = find_tvm(args.tvm_venv, args.tvm_python, not args.no_install)
    results, note = measure(args.runs, args.repeat, args.passes, tvm)
    print(describe_setup(tvm, note))
    print()
    print_table(results, args.markdown)
    slower = [r for r in results if r.ratio is not None and r.ratio < 1]
    if tvm.python is None or note:
        print("\nOnly tcfg was measured; the TVM columns are empty (see above).")
    elif slower:
        print(f"\ntcfg is slower than TVM on {len(slower)} row(s).")
        if not args.no_profile:
            print("Profiles (cProfile, own time per call; cProfile adds overhead to every call):")
            for r in slower:
                if r.case is not None:
                    print(profile(r.case))
    else:
        print("\ntcfg is faster than TVM on every row.")
    return 0 if start_budget_met(results) or not args.check else 1


def start_budget_met(results: Sequence[Result]) -> bool:
    """Print issue 25's start-up budget (tcfg's fresh process CPU over TVM's) and whether it is met."""
    start = results[0]  # the CPU row of the fresh processes
    if start.tvm_value is None:
        print(f"start-up budget (tcfg <= {START_BUDGET:g}x TVM, CPU): not measured (no TVM)")
        return False
    share = start.tcfg_value / start.tvm_value
    met = share <= START_BUDGET
    print(
        f"start-up budget: tcfg {start.tcfg_value:.1f} ms / TVM {start.tvm_value:.1f} ms = {share:.3f}x "
        f"(<= {START_BUDGET:g}x: {'PASS' if met else 'FAIL'})"
    )
    return met


if __name__ == "__main__":
    sys.exit(main())
