"""Generate ``core/tcfg/data/compilers.json``: which names each compiler version knows.

``python core/scripts/generate_compilers.py [--drift]`` asks every installed clang (``clang-13`` ...
``clang-22``) and gcc (``gcc-11``, ``gcc-12``, ``aarch64-linux-gnu-gcc-11``/``-12``), and
writes, per compiler and architecture, each CPU, feature or extension name with the
major versions that accept it:

- ``llvm``: the backend's CPU and feature names (what ``llc -mcpu``/``-mattr`` and clang's
  ``-target-feature`` take), from ``clang-N -Xclang -target-feature -Xclang +help``,
  which prints the backend's tables (the same LLVM as ``llc-N``);
- ``clang``: the driver's CPU names (``--print-supported-cpus``), AArch64's ``+ext``
  names (``-march=armv8-a+EXT`` accepted), x86's ``-mFEATURE`` options (accepted);
- ``gcc``: the CPU names and AArch64 ``+ext`` names gcc lists in its "valid arguments"
  note, and the x86 ``-mFEATURE`` options it accepts.

Candidates for ``+ext`` and ``-mFEATURE`` are clang-22's extension list and LLVM 22's x86
feature names; a compiler "knows" one when it accepts it. Versions not installed are
left out (the table says which were asked in ``source``).

Names also change meaning: clang-16's ``-mcpu=neoverse-v2`` has RME, LLVM 22's does not.
``drift`` records, per tool (``clang`` driver, ``llvm`` backend CPU definitions as llc
reads them), architecture and CPU or ``-march`` name, the hardware features version N's
subtarget has beyond LLVM 22's for the same name (``+f``) or lacks (``-f``), over the
hardware features (the aarch64 and x86 plugins' tables) both versions know; read with
``opt-N``'s inliner as the truth sweep does (``truth/llvm.py``); ``crypto``, LLVM 16's
umbrella for AES+SHA2, is no hardware of its own. For gcc, ``gcc_cpu_options`` holds the
x86 ``-mFEATURE`` options each gcc enables for each ``-march`` (``-Q --help=target``) and
``drift.gcc.aarch64`` the feature macros (``__ARM_FEATURE_*``) where gcc's ``-mcpu``/``-march``
differs from clang-22's.
"""

from __future__ import annotations

import datetime
import functools
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "tcfg" / "data" / "compilers.json"
CLANGS = (13, 14, 15, 16, 17, 18, 19, 20, 21, 22)
GCCS = (11, 12, 13, 14)
#: AArch64 ``-march`` candidates (each compiler is asked which it accepts).
A64_ARCHES = ("armv8-a", *(f"armv8.{m}-a" for m in range(1, 10)), "armv9-a", *(f"armv9.{m}-a" for m in range(1, 7)),
              "armv8-r")  # fmt: skip
#: The triple each architecture's names are asked for.
TRIPLES = {
    "aarch64": "aarch64-linux-gnu",
    "arm": "armv7a-linux-gnueabihf",
    "x86_64": "x86_64-linux-gnu",
    "riscv64": "riscv64-linux-gnu",
    "hexagon": "hexagon",
}
_ENV = {**os.environ, "LC_ALL": "C"}


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, env=_ENV, check=False, timeout=120)


def backend_names(clang: str, triple: str) -> tuple[list[str], list[str]]:
    """(CPU names, feature names) of the backend inside ``clang`` for ``triple``."""
    out = run([clang, f"--target={triple}", "-Xclang", "-target-feature", "-Xclang", "+help", "-c", "-x", "c",
               os.devnull, "-o", os.devnull])  # fmt: skip
    text = out.stdout + out.stderr
    cpus_part, _, feats_part = text.partition("Available features for this target:")
    item = re.compile(r"^\s{2}(\S+)\s+- ", re.M)
    return item.findall(cpus_part), item.findall(feats_part.split("Use +feature")[0])


def driver_cpus(clang: str, triple: str) -> list[str]:
    out = run([clang, f"--target={triple}", "--print-supported-cpus"])
    cpus_part = (out.stdout + out.stderr).split("Available CPUs for this target:")[-1]
    return re.findall(r"^[ \t]+(\S+)", cpus_part.split("Use -mcpu")[0], re.M)


def accepted(compiler: list[str], argvs: Iterable[list[str]]) -> list[list[str]]:
    """The argument lists ``compiler`` accepts (an empty C file compiles with them)."""
    return [argv for argv in argvs if run([*compiler, *argv, "-fsyntax-only", "-x", "c", os.devnull]).returncode == 0]


def unknown_options(compiler: list[str], options: list[str]) -> set[str]:
    """The options among ``options`` the driver reports as unknown (one run)."""
    out = run([*compiler, *options, "-fsyntax-only", "-x", "c", os.devnull])
    return set(re.findall(r"(?:unknown argument|unrecognized command-line option):? '(-m[^']+)'", out.stderr))


def gcc_valid(gcc: str, option: str) -> list[str]:
    out = run([gcc, f"{option}=tcfg-no-such-name", "-fsyntax-only", "-x", "c", os.devnull])
    found = re.search(r"valid arguments (?:to '[^']+' switch )?are: ([^\n]*)", out.stderr)
    return [] if found is None else [n for n in found.group(1).replace(";", "").split() if n != "native"]


def clang_extensions() -> list[str]:
    out = run(["clang-22", "--target=aarch64", "--print-supported-extensions"])
    return re.findall(r"^\s{4}([a-z0-9][a-z0-9.-]*)\s", out.stdout, re.M)


#: AArch64 names whose meaning changed, not hardware of their own: ``crypto`` (LLVM 16's umbrella
#: for AES+SHA2) and ``sve2-bitperm`` (the BitPerm unit until LLVM 19; LLVM 22 calls that
#: ``sve-bitperm`` and makes ``sve2-bitperm`` an umbrella for it and SVE2).
UMBRELLA = frozenset({"crypto", "sve2-bitperm"})
_ARM_MACRO = re.compile(r"__ARM_FEATURE_\w+|__ARM_NEON")


def hardware(arch: str) -> frozenset[str]:
    """The hardware feature names of the plugin that owns ``arch``."""
    if arch == "aarch64":
        from tcfg_aarch64.facts import aarch64

        return aarch64().hardware - UMBRELLA
    from tcfg_x86.facts import tables

    return tables().isa - UMBRELLA


def subtargets(major: int, triple: str, configs: list[tuple[str, str]], probe: list[str]) -> list[frozenset[str]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "truth"))
    import llvm  # the truth sweep's reader of LLVM subtargets

    opt = llvm.find(f"opt-{major}")
    assert opt is not None, f"opt-{major}"
    return llvm.subtarget_features(opt, triple, configs, probe)


@functools.cache
def ir_config(clang: str, triple: str, option: str) -> tuple[str, str] | None:
    out = subprocess.run(
        [clang, f"--target={triple}", option, "-S", "-emit-llvm", "-o", "-", "-x", "c", "-"],
        input="void f(void) {}\n",  # a function, whose attributes carry the CPU and features
        capture_output=True,
        text=True,
        env=_ENV,
        check=False,
        timeout=120,
    )
    if out.returncode != 0:
        return None
    found = dict(re.findall(r'"target-(cpu|features)"="([^"]*)"', out.stdout))
    return found.get("cpu", "generic"), found.get("features", "")


def drift_for(majors: list[int], llvm_names: dict[str, dict[str, dict[str, list[int]]]],
              clang_names: dict[str, dict[str, dict[str, list[int]]]]) -> dict[str, object]:  # fmt: skip
    """``{"clang": {arch: {what: {name: {version: [+f, -f]}}}}, "llvm": ...}`` for versions before 22."""
    out: dict[str, dict[str, dict[str, dict[str, dict[str, list[str]]]]]] = {"clang": {}, "llvm": {}}
    for arch in ("aarch64", "x86_64"):
        triple = TRIPLES[arch]
        hw = hardware(arch)
        kinds = [("cpus", "-mcpu=" if arch == "aarch64" else "-march=")]
        if arch == "aarch64":
            kinds.append(("arches", "-march="))
        for major in (m for m in majors if m != 22):
            feats = {f for f, vs in llvm_names[arch]["features"].items() if major in vs and 22 in vs}
            probe = sorted(hw & feats)
            for what, option in kinds:
                names = sorted(n for n, vs in clang_names[arch][what].items() if major in vs and 22 in vs)
                pairs = [(n, ir_config(f"clang-{major}", triple, option + n), ir_config("clang-22", triple, option + n))
                         for n in names]  # fmt: skip
                pairs = [(n, old, new) for n, old, new in pairs if old and new]
                olds = subtargets(major, triple, [old for _, old, _ in pairs], probe)
                news = subtargets(22, triple, [new for _, _, new in pairs], probe)
                for (name, _, _), old, new in zip(pairs, olds, news, strict=True):
                    diff = sorted([f"+{f}" for f in old - new] + [f"-{f}" for f in new - old])
                    if diff:
                        out["clang"].setdefault(arch, {}).setdefault(what, {}).setdefault(name, {})[str(major)] = diff
            cpus = sorted(n for n, vs in llvm_names[arch]["cpus"].items() if major in vs and 22 in vs)
            if arch == "x86_64":  # LLVM aborts on a 32-bit-only CPU (athlon) under a 64-bit triple; clang refuses it
                cpus = [c for c in cpus if ir_config("clang-22", triple, f"-march={c}") is not None]
            olds = subtargets(major, triple, [(c, "") for c in cpus], probe)
            news = subtargets(22, triple, [(c, "") for c in cpus], probe)
            for cpu, old, new in zip(cpus, olds, news, strict=True):
                diff = sorted([f"+{f}" for f in old - new] + [f"-{f}" for f in new - old])
                if diff:
                    out["llvm"].setdefault(arch, {}).setdefault("cpus", {}).setdefault(cpu, {})[str(major)] = diff
    return dict(out)


def arch_implies(majors: list[int], llvm_names: dict[str, dict[str, dict[str, list[int]]]]) -> dict[str, Any]:
    """AArch64 ``implies``: per architecture flag (``v9a``), what version N's ``+v9a`` brings beyond LLVM 22's.

    ``{flag: {version: ["+f", "-g"]}}``: LLVM 16's ``v9a`` implies SVE2, LLVM 22's does not, so
    ``-sve2`` there also removes ``v9a``: a target with Armv9-A and without SVE2 has no spelling.
    """
    from tcfg_aarch64.facts import aarch64

    triple = TRIPLES["aarch64"]
    hw = hardware("aarch64")
    out: dict[str, dict[str, list[str]]] = {}
    for major in (m for m in majors if m != 22):
        feats = {f for f, vs in llvm_names["aarch64"]["features"].items() if major in vs and 22 in vs}
        probe = sorted(hw & feats)
        flags = sorted(aarch64().arch_flags & feats)
        olds = subtargets(major, triple, [("generic", f"+{f}") for f in flags], probe)
        news = subtargets(22, triple, [("generic", f"+{f}") for f in flags], probe)
        for flag, old, new in zip(flags, olds, news, strict=True):
            diff = sorted([f"+{f}" for f in old - new] + [f"-{f}" for f in new - old])
            if diff:
                out.setdefault(flag, {})[str(major)] = diff
    return out


def macros(argv: list[str]) -> set[str]:
    out = run([*argv, "-dM", "-E", "-x", "c", os.devnull])
    return {m for m in re.findall(r"^#define (\S+)", out.stdout, re.M) if _ARM_MACRO.fullmatch(m)}


def gcc_aarch64_drift(gcc: str, major: int, names: dict[str, dict[str, list[int]]]) -> dict[str, dict[str, object]]:
    """Per CPU and architecture gcc ``major`` knows: the feature macros it defines unlike clang-22 (``+M``/``-M``).

    Only macros both compilers define for some name count (clang defines
    ``__ARM_FEATURE_DIV`` everywhere, gcc never does: that says nothing about a CPU).
    """
    rows: list[tuple[str, str, set[str], set[str]]] = []
    for what, option in (("cpus", "-mcpu="), ("arches", "-march=")):
        for name, versions in names.get(what, {}).items():
            if major not in versions or name == "generic":
                continue
            ours = macros(["clang-22", "--target=aarch64-linux-gnu", option + name])
            if ours:  # clang-22 refuses the name otherwise: nothing to compare
                rows.append((what, name, macros([gcc, option + name]), ours))
    both = set().union(*(row[2] for row in rows)) & set().union(*(row[3] for row in rows))
    out: dict[str, dict[str, object]] = {}
    for what, name, theirs, ours in rows:
        diff = sorted([f"+{m}" for m in (theirs - ours) & both] + [f"-{m}" for m in (ours - theirs) & both])
        if diff:
            out.setdefault(what, {}).setdefault(name, {})[str(major)] = diff  # type: ignore[index]
    return out


def gcc_options_enabled(gcc: str, cpu: str, options: set[str]) -> list[str]:
    out = run([gcc, f"-march={cpu}", "-Q", "--help=target"])
    on = re.findall(r"^\s+-m(\S+)\s+\[enabled\]", out.stdout, re.M)
    return sorted(set(on) & options)


def add(table: dict[str, dict[str, list[int]]], what: str, names: Iterable[str], version: int) -> None:
    for name in names:
        table.setdefault(what, {}).setdefault(name, []).append(version)


def refresh_drift() -> int:
    """``--drift``: recompute only ``drift`` and ``gcc_cpu_options`` from the names already in the table."""
    data = json.loads(OUT.read_text(encoding="utf-8"))
    data["drift"] = drift_for(data["versions"]["clang"], data["llvm"], data["clang"])
    data["drift"]["llvm"].setdefault("aarch64", {})["implies"] = arch_implies(data["versions"]["clang"], data["llvm"])
    gcc_parts(data)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"refreshed the drift in {OUT}")
    return 0


def gcc_parts(data: dict[str, Any]) -> None:
    """Fill ``gcc_cpu_options`` and ``drift.gcc`` from the installed gccs (names from ``data``)."""
    gcc = data["gcc"]
    gcc_cpu_options: dict[str, dict[str, list[str]]] = {}
    gcc_drift: dict[str, dict[str, Any]] = {}
    for major in data["versions"]["gcc"]:
        native, cross = shutil.which(f"gcc-{major}"), shutil.which(f"aarch64-linux-gnu-gcc-{major}")
        if native is not None:
            options = {o for o, vs in gcc["x86_64"].get("options", {}).items() if major in vs}
            for cpu, versions in gcc["x86_64"].get("cpus", {}).items():
                if major in versions:
                    gcc_cpu_options.setdefault(cpu, {})[str(major)] = gcc_options_enabled(native, cpu, options)
        if cross is not None:
            for what, names in gcc_aarch64_drift(cross, major, gcc["aarch64"]).items():
                for name, per in names.items():
                    gcc_drift.setdefault(what, {}).setdefault(name, {}).update(per)
    data["drift"]["gcc"] = {"aarch64": gcc_drift}
    data["gcc_cpu_options"] = {"x86_64": gcc_cpu_options}


def main() -> int:
    if "--drift" in sys.argv[1:]:
        return refresh_drift()
    if shutil.which("clang-22") is None:
        print("clang-22 is needed (its extension list and LLVM 22's x86 features are the candidates)")
        return 1
    data: dict[str, Any] = {}
    llvm: dict[str, dict[str, dict[str, list[int]]]] = {arch: {} for arch in TRIPLES}
    clang: dict[str, dict[str, dict[str, list[int]]]] = {"aarch64": {}, "x86_64": {}, "arm": {}, "riscv64": {}}
    gcc: dict[str, dict[str, dict[str, list[int]]]] = {"aarch64": {}, "x86_64": {}}
    exts = clang_extensions()
    x86_features = backend_names("clang-22", TRIPLES["x86_64"])[1]
    tools: dict[str, str] = {}
    clang_versions, gcc_versions = [], []
    for major in CLANGS:
        tool = shutil.which(f"clang-{major}")
        if tool is None:
            continue
        clang_versions.append(major)
        tools[f"clang-{major}"] = run([tool, "--version"]).stdout.splitlines()[0]
        for arch, triple in TRIPLES.items():
            cpus, feats = backend_names(tool, triple)
            add(llvm[arch], "cpus", cpus, major)
            add(llvm[arch], "features", feats, major)
            if arch in clang:
                add(clang[arch], "cpus", driver_cpus(tool, triple), major)
        base = [tool, "--target=aarch64-linux-gnu"]
        ok = accepted(base, ([f"-march=armv8-a+{e}"] for e in exts))
        add(clang["aarch64"], "extensions", (argv[0].split("+", 1)[1] for argv in ok), major)
        ok = accepted(base, ([f"-march={a}"] for a in A64_ARCHES))
        add(clang["aarch64"], "arches", (argv[0].split("=", 1)[1] for argv in ok), major)
        options = [f"-m{f}" for f in x86_features]
        bad = unknown_options([tool, "--target=x86_64-linux-gnu"], options)
        add(clang["x86_64"], "options", (o[2:] for o in options if o not in bad), major)
    for major in GCCS:
        native, cross = shutil.which(f"gcc-{major}"), shutil.which(f"aarch64-linux-gnu-gcc-{major}")
        if native is None and cross is None:
            continue
        gcc_versions.append(major)
        if native is not None:
            tools[f"gcc-{major}"] = run([native, "--version"]).stdout.splitlines()[0]
            add(gcc["x86_64"], "cpus", gcc_valid(native, "-march"), major)
            options = [f"-m{f}" for f in x86_features]
            bad = unknown_options([native], options)
            add(gcc["x86_64"], "options", (o[2:] for o in options if o not in bad), major)
        if cross is not None:
            tools[f"aarch64-linux-gnu-gcc-{major}"] = run([cross, "--version"]).stdout.splitlines()[0]
            add(gcc["aarch64"], "cpus", gcc_valid(cross, "-mcpu"), major)
            ok = accepted([cross], ([f"-march={a}"] for a in A64_ARCHES))
            add(gcc["aarch64"], "arches", (argv[0].split("=", 1)[1] for argv in ok), major)
            note = run([cross, "-march=armv8-a+tcfgnosuch", "-fsyntax-only", "-x", "c", os.devnull]).stderr
            found = re.search(r"valid arguments are: ([^\n]*)", note)
            add(gcc["aarch64"], "extensions", found.group(1).replace(";", "").split() if found else [], major)
    data["drift"] = drift_for(clang_versions, llvm, clang)
    data["drift"]["llvm"].setdefault("aarch64", {})["implies"] = arch_implies(clang_versions, llvm)
    data["source"] = {
        "generator": "core/scripts/generate_compilers.py",
        "date": datetime.date.today().isoformat(),
        "tools": tools,
        "method": __doc__.split("\n\n")[1].replace("\n", " ") if __doc__ else "",
    }
    data["versions"] = {"llvm": clang_versions, "clang": clang_versions, "llc": clang_versions, "gcc": gcc_versions}
    data["llvm"] = llvm
    data["clang"] = clang
    data["gcc"] = gcc
    gcc_parts(data)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT} (clang {clang_versions}, gcc {gcc_versions})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
