"""Generate ``core/tcfg/data/compilers.json``: which names each compiler version knows.

``python core/scripts/generate_compilers.py [--drift]`` asks every installed clang (``clang-13`` ...
``clang-22``) and gcc (``gcc-11``, ``gcc-12``, and the ``aarch64-linux-gnu-``, ``arm-linux-gnueabihf-`` and
``riscv64-linux-gnu-`` cross compilers ``gcc-11``/``-12``), and
writes, per compiler and architecture, each CPU, feature or extension name with the
major versions that accept it:

- ``llvm``: the backend's CPU and feature names (what ``llc -mcpu``/``-mattr`` and clang's
  ``-target-feature`` take), from ``clang-N -Xclang -target-feature -Xclang +help``,
  which prints the backend's tables (the same LLVM as ``llc-N``), or, where that prints
  nothing (clang-14 for RISC-V), from that LLVM's ``llc -mattr=help``;
- ``clang``: the driver's CPU names (``--print-supported-cpus``), AArch64's ``+ext``
  names (``-march=armv8-a+EXT`` accepted), x86's ``-mFEATURE`` options (accepted);
- ``gcc``: the CPU names and AArch64 ``+ext`` names gcc lists in its "valid arguments"
  note, and the x86 ``-mFEATURE`` options it accepts; 32-bit Arm's CPUs, architectures and
  per-start ``+ext`` (:func:`gcc_arm_names`) with the spellings whose feature macros are
  clang-22's (:func:`gcc_arm_drift`); RISC-V's ``-mtune`` CPUs and the ISA extensions whose
  ``__riscv_NAME`` macro gcc defines with a version (:func:`gcc_riscv_names`).

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
differs from clang-22's. Drift covers AArch64, x86-64, 32-bit Arm and RISC-V (RISC-V from
LLVM 17 on: before, LLVM's inliner does not compare RISC-V features one by one, so the
probe cannot read them; clang's is read from the features it gives a function instead, below).

Drift under other triples of an architecture (32-bit Arm bare metal, riscv32), clang's RISC-V
drift before LLVM 17 and Hexagon's are measured by ``drift_classes.py`` (see there);
``--drift-classes`` recomputes only those. ``clang.riscv64.extensions``, the ISA-string
extensions each clang's ``-march`` accepts, is asked by ``riscv_march.py`` (``--riscv-extensions``), and so is
``llvm.riscv64.base_i`` and ``in_c``, the extensions an older LLVM has only inside base I or C, by
``riscv_split.py`` (``--riscv-split``). ``--riscv-backend`` recomputes only ``llvm.riscv64.cpus`` and
``features``.

``clang.aarch64.modifiers`` lists, per ``+ext`` name, the clang versions whose ``+ext`` and
``+noext`` mean clang-22's (:func:`modifier_meaning`); ``clang.hexagon`` the driver's Hexagon
CPUs and HVX options (``-mhvx-qfloat``, ``-mhvx-ieee-fp``) per version. ``--drift``,
``--modifiers``, ``--hexagon`` and ``--gcc-cross`` recompute only their part of an existing table.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import itertools
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import drift_classes
import riscv_march
import riscv_split
from compiler_probes import (
    OUT,
    TRIPLES,
    accepted,
    add,
    backend_names,
    clang_extensions,
    cpu_ok,
    driver_cpus,
    gcc_valid,
    hardware,
    ir_config,
    probe_for,
    run,
    subtargets,
    unknown_options,
    write_table,
)

CLANGS = (13, 14, 15, 16, 17, 18, 19, 20, 21, 22)
GCCS = (11, 12, 13, 14)
#: AArch64 ``-march`` candidates (each compiler is asked which it accepts).
A64_ARCHES = ("armv8-a", *(f"armv8.{m}-a" for m in range(1, 10)), "armv9-a", *(f"armv9.{m}-a" for m in range(1, 7)),
              "armv8-r")  # fmt: skip
_ARM_MACRO = re.compile(r"__ARM_FEATURE_\w+|__ARM_NEON")


def drift_for(majors: list[int], llvm_names: dict[str, dict[str, dict[str, list[int]]]],
              clang_names: dict[str, dict[str, dict[str, list[int]]]],
              arches: tuple[str, ...] = ("aarch64", "x86_64", "arm", "riscv64")) -> dict[str, object]:  # fmt: skip
    """``{"clang": {arch: {what: {name: {version: [+f, -f]}}}}, "llvm": ...}`` for versions before 22."""
    out: dict[str, dict[str, dict[str, dict[str, dict[str, list[str]]]]]] = {"clang": {}, "llvm": {}}
    for arch in arches:
        triple = TRIPLES[arch]
        hw = hardware(arch)
        kinds = [("cpus", "-march=" if arch == "x86_64" else "-mcpu=")]
        if arch == "aarch64":
            kinds.append(("arches", "-march="))
        for major in (m for m in majors if m != 22):
            if arch == "riscv64" and major < 17:  # LLVM's inliner compares RISC-V features from 17 on only
                continue
            feats = {f for f, vs in llvm_names[arch]["features"].items() if major in vs and 22 in vs}
            probe = sorted(hw & feats)
            if arch == "riscv64":
                probe = [f for f in probe_for(major, triple, tuple(probe)) if f in probe_for(22, triple, tuple(probe))]
            for what, option in kinds:
                names = sorted(n for n, vs in clang_names[arch][what].items() if major in vs and 22 in vs)
                if arch == "riscv64":  # clang takes generic-rv32 under a 64-bit triple, LLVM does not
                    names = [c for c in names if cpu_ok(major, triple, c, "m") and cpu_ok(22, triple, c, "m")]
                tried = [(n, ir_config(f"clang-{major}", triple, option + n), ir_config("clang-22", triple, option + n))
                         for n in names]  # fmt: skip
                pairs = [(n, old, new) for n, old, new in tried if old and new]
                olds = subtargets(major, triple, [old for _, old, _ in pairs], probe)
                news = subtargets(22, triple, [new for _, _, new in pairs], probe)
                for (name, _, _), old, new in zip(pairs, olds, news, strict=True):
                    diff = sorted([f"+{f}" for f in old - new] + [f"-{f}" for f in new - old])
                    if diff:
                        out["clang"].setdefault(arch, {}).setdefault(what, {}).setdefault(name, {})[str(major)] = diff
            cpus = sorted(n for n, vs in llvm_names[arch]["cpus"].items() if major in vs and 22 in vs)
            if arch != "aarch64":  # LLVM aborts on a 32-bit-only CPU (athlon, sifive-e31) under a 64-bit triple
                cpus = [c for c in cpus if ir_config("clang-22", triple, f"{kinds[0][1]}{c}") is not None]
            if arch == "riscv64":  # clang-22 takes generic-rv32 there, LLVM does not
                cpus = [c for c in cpus if cpu_ok(major, triple, c, "m") and cpu_ok(22, triple, c, "m")]
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


#: The starts each AArch64 ``+ext``/``+noext`` is measured on (those a version knows): architecture
#: versions old and new, and CPUs from a plain Armv8.0 one to one with SVE2.
MODIFIER_STARTS = (("-march=", ("armv8-a", "armv8.2-a", "armv8.4-a", "armv8.6-a", "armv9-a")),
                   ("-mcpu=", ("cortex-a72", "neoverse-n1", "neoverse-v1", "neoverse-v2")))  # fmt: skip


def modifier_meaning(majors: list[int], clang_names: dict[str, Any], drift: dict[str, Any],
                     llvm_names: dict[str, Any]) -> dict[str, list[int]]:  # fmt: skip
    """AArch64 ``modifiers``: per ``+ext`` name, the clang versions whose ``+ext`` and ``+noext`` mean clang-22's.

    For each version N and each extension both N and clang-22 accept, ``START+ext`` and
    ``START+noext`` are compiled with clang-N and clang-22 for every start of
    :data:`MODIFIER_STARTS` both know; the name counts for N when, on every one, LLVM N's
    subtarget has exactly LLVM 22's features for the same spelling with the start's own
    ``drift`` applied (``+f`` added, ``-f`` removed), over the hardware features both know:
    the model tcfg's spelling search uses. clang-16's ``+noaes`` keeps SHA2 where
    clang-22's removes it: ``aes`` does not count for 16, and tcfg spells AES off another way there.
    """
    triple = TRIPLES["aarch64"]
    hw = hardware("aarch64")
    exts = clang_names["aarch64"]["extensions"]
    out: dict[str, list[int]] = {name: [22] for name, vs in exts.items() if 22 in vs}
    for major in (m for m in majors if m != 22):
        feats = {f for f, vs in llvm_names["aarch64"]["features"].items() if major in vs and 22 in vs}
        probe = sorted(hw & feats)
        table = clang_names["aarch64"]
        starts = [(opt, name) for opt, names in MODIFIER_STARTS for name in names
                  if major in table["arches" if opt == "-march=" else "cpus"].get(name, ())]  # fmt: skip
        rows: list[tuple[str, list[str], tuple[str, str], tuple[str, str]]] = []
        refused: set[str] = set()
        for ext in sorted(n for n, vs in exts.items() if major in vs and 22 in vs):
            for option, start in starts:
                what = "arches" if option == "-march=" else "cpus"
                moved = drift.get("clang", {}).get("aarch64", {}).get(what, {}).get(start, {}).get(str(major), [])
                for mod in (ext, f"no{ext}"):
                    spelled = f"{option}{start}+{mod}"
                    old_config = ir_config(f"clang-{major}", triple, spelled)
                    new_config = ir_config("clang-22", triple, spelled)
                    if (old_config is None) != (new_config is None):
                        refused.add(ext)
                    elif old_config is not None and new_config is not None:
                        rows.append((ext, moved, old_config, new_config))
        olds = subtargets(major, triple, [old for _, _, old, _ in rows], probe)
        news = subtargets(22, triple, [new for _, _, _, new in rows], probe)
        differ = set(refused)
        for (ext, moved, _, _), old, new in zip(rows, olds, news, strict=True):
            plus = {m[1:] for m in moved if m[0] == "+"}
            minus = {m[1:] for m in moved if m[0] == "-"}
            if old != ((new | plus) - minus):
                differ.add(ext)
        for ext in sorted({ext for ext, _, _, _ in rows} - differ):
            out[ext].append(major)
        print(f"modifiers: clang-{major}: {sum(major in v for v in out.values())} of {len(out)} names mean clang-22's")
    return {name: sorted(vs) for name, vs in sorted(out.items())}


def refresh_modifiers() -> int:
    """``--modifiers``: recompute only ``clang.aarch64.modifiers`` from the names and drift in the table."""
    data = json.loads(OUT.read_text(encoding="utf-8"))
    data["clang"]["aarch64"]["modifiers"] = modifier_meaning(
        data["versions"]["clang"], data["clang"], data["drift"], data["llvm"]
    )
    data["source"]["date"] = datetime.date.today().isoformat()
    write_table(data)
    print(f"refreshed the AArch64 modifiers in {OUT}")
    return 0


#: Hexagon driver options tcfg spells (``-mNAME``/``-mno-NAME``), each asked with ``-mhvx``.
HEXAGON_OPTIONS = ("hvx-qfloat", "hvx-ieee-fp")


def hexagon_driver(tool: str) -> tuple[list[str], list[str]]:
    """(driver CPU names, HVX options accepted) of clang ``tool`` for Hexagon.

    An option counts when both ``-mNAME`` and ``-mno-NAME`` compile with ``-mcpu=hexagonv68 -mhvx``.
    """
    base = [tool, "--target=hexagon", "-mcpu=hexagonv68", "-mhvx"]
    options = [name for name in HEXAGON_OPTIONS if len(accepted(base, ([f"-m{name}"], [f"-mno-{name}"]))) == 2]
    return driver_cpus(tool, TRIPLES["hexagon"]), options


def refresh_hexagon() -> int:
    """``--hexagon``: recompute only ``clang.hexagon`` (driver CPUs and HVX options) from the installed clangs."""
    data = json.loads(OUT.read_text(encoding="utf-8"))
    table: dict[str, dict[str, list[int]]] = {}
    for major in data["versions"]["clang"]:
        tool = shutil.which(f"clang-{major}")
        if tool is None:
            print(f"clang-{major} is not installed: rerun the whole generator without it, or install it")
            return 1
        cpus, options = hexagon_driver(tool)
        add(table, "cpus", cpus, major)
        add(table, "options", options, major)
    data["clang"]["hexagon"] = table
    data["source"]["date"] = datetime.date.today().isoformat()
    write_table(data)
    print(f"refreshed clang.hexagon in {OUT}")
    return 0


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


def refresh_drift() -> int:
    """``--drift``: recompute only ``drift`` and ``gcc_cpu_options`` from the names already in the table."""
    data = json.loads(OUT.read_text(encoding="utf-8"))
    data["drift"] = drift_for(data["versions"]["clang"], data["llvm"], data["clang"])
    data["drift"]["llvm"].setdefault("aarch64", {})["implies"] = arch_implies(data["versions"]["clang"], data["llvm"])
    drift_classes.extra_drift(data)
    gcc_parts(data)
    write_table(data)
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
    data["drift"]["gcc"] = {"aarch64": gcc_drift, "arm": gcc_arm_drift(data["versions"]["gcc"], gcc.get("arm", {}))}
    data["gcc_cpu_options"] = {"x86_64": gcc_cpu_options}


#: The 32-bit Arm and RISC-V cross gccs Debian ships (``gcc-N-arm-linux-gnueabihf``, ``gcc-N-riscv64-linux-gnu``).
GCC_CROSS_32 = {"arm": "arm-linux-gnueabihf-gcc-{}", "riscv64": "riscv64-linux-gnu-gcc-{}"}
#: What every 32-bit Arm gcc run is given besides the CPU or architecture: the FPU the name implies
#: (the Debian gcc's configured default, ``vfpv3-d16``, would override it) and an ABI any FPU can use.
ARM_FP = ("-mfpu=auto", "-mfloat-abi=softfp")
#: 32-bit Arm macros whose conditions differ between gcc and clang, for any CPU: never compared.
ARM_MACRO_MEANING = {
    "__ARM_FEATURE_NUMERIC_MAXMIN": "gcc defines it only with NEON, clang for any FPv5 (Armv8-M's too)",
    "__ARM_FEATURE_DIRECTED_ROUNDING": "gcc defines it only with NEON, clang for any FPv5 (Armv8-M's too)",
    "__ARM_FEATURE_COPROC": "gcc leaves it out for Armv8-A, clang defines the v8 coprocessor set there",
}
#: The 32-bit Arm macros compared (name and value): features, NEON, architecture, profile, FP formats.
_ARM32_MACRO = re.compile(r"__ARM_FEATURE_\w+|__ARM_NEON|__ARM_NEON_FP|__ARM_ARCH|__ARM_ARCH_PROFILE|"
                          r"__ARM_ARCH_ISA_(?:ARM|THUMB)|__ARM_FP")  # fmt: skip


def gcc_cross_32(major: int) -> dict[str, str]:
    """The installed 32-bit Arm and RISC-V cross gccs of ``major``, by architecture."""
    found = {arch: shutil.which(name.format(major)) for arch, name in GCC_CROSS_32.items()}
    return {arch: path for arch, path in found.items() if path}


def gcc_arm_riscv_names(major: int, gcc: dict[str, dict[str, dict[str, list[int]]]], tools: dict[str, str]) -> None:
    """Record what the 32-bit Arm and RISC-V gccs of ``major`` know into ``gcc`` (and their versions into ``tools``)."""
    for arch, path in gcc_cross_32(major).items():
        tools[Path(path).name] = run([path, "--version"]).stdout.splitlines()[0]
        if arch == "arm":
            gcc_arm_names(path, major, gcc["arm"])
        else:
            gcc_riscv_names(path, major, gcc["riscv64"])


def _number(text: str) -> str:
    """A macro's value as a decimal (``0xe`` and ``14``, ``'A'`` and ``65`` are the same)."""
    text = text.strip()
    if len(text) == 3 and text[0] == text[2] == "'":
        return str(ord(text[1]))
    try:
        return str(int(text, 0))
    except ValueError:
        return text


def arm_macros(argv: list[str]) -> frozenset[str]:
    """``NAME=value`` of the 32-bit Arm feature macros ``argv`` defines (empty if it refuses the options).

    ``__ARM_FP`` leaves out its half-precision bit, which gcc sets only with ``-mfp16-format=ieee``
    (as it does ``__ARM_FP16_FORMAT_IEEE``, not compared); :data:`ARM_MACRO_MEANING` are left out.
    """
    out = run([*argv, "-dM", "-E", "-x", "c", os.devnull])
    if out.returncode != 0:
        return frozenset()
    found = set()
    for name, value in re.findall(r"^#define (\S+) ?(.*)$", out.stdout, re.M):
        if _ARM32_MACRO.fullmatch(name) and name not in ARM_MACRO_MEANING:
            number = _number(value)
            if name == "__ARM_FP" and number.isdecimal():
                number = str(int(number) & ~2)
            found.add(f"{name}={number}")
    return frozenset(found)


def arm_mode(gcc: str, spelled: str) -> str | None:
    """``-mthumb`` or ``-marm``: the instruction set ``gcc`` takes ``spelled`` in (Thumb if it can); None if neither."""
    for mode in ("-mthumb", "-marm"):
        if run([gcc, spelled, mode, *ARM_FP, "-fsyntax-only", "-x", "c", os.devnull]).returncode == 0:
            return mode
    return None


def gcc_arm_names(gcc: str, major: int, table: dict[str, dict[str, list[int]]]) -> None:
    """32-bit Arm: CPUs and architectures (gcc's "valid arguments"), and per start the ``+ext`` it takes.

    ``extensions`` holds every modifier name (``crypto``, ``nofp``), ``start_extensions``
    ``START+ext`` for each start that takes it: the names gcc lists for the start, their
    ``no`` forms, ``nofp`` and ``nosimd``, each kept when gcc compiles with it; ``fpus`` the
    ``-mfpu`` names of :data:`ARM_FPUS_WITHOUT_NEON` it takes.
    """
    cpus, arches = gcc_valid(gcc, "-mcpu"), gcc_valid(gcc, "-march")
    add(table, "cpus", cpus, major)
    add(table, "arches", arches, major)
    ok = accepted([gcc, "-mcpu=cortex-a53", "-mfloat-abi=softfp"], ([f"-mfpu={n}"] for n in ARM_FPUS_WITHOUT_NEON))
    add(table, "fpus", (argv[0].split("=", 1)[1] for argv in ok), major)
    for option, names in (("-mcpu=", cpus), ("-march=", arches)):
        for name in names:
            mode = arm_mode(gcc, option + name)
            if mode is None:
                continue
            note = run([gcc, f"{option}{name}+tcfgnosuch", mode, *ARM_FP, "-fsyntax-only", "-x", "c", os.devnull])
            found = re.search(r"valid feature names are: ([^\n]*)", note.stderr)
            listed = found.group(1).split() if found else []
            candidates = dict.fromkeys(
                [*listed, *(f"no{n}" for n in listed if not n.startswith("no")), "nofp", "nosimd"]
            )
            ok = accepted([gcc, mode, *ARM_FP], ([f"{option}{name}+{mod}"] for mod in candidates))
            mods = [argv[0].rsplit("+", 1)[1] for argv in ok]
            add(table, "extensions", mods, major)
            add(table, "start_extensions", (f"{name}+{mod}" for mod in mods), major)


#: The clang ``+ext`` that moves each 32-bit Arm macro: what gcc's reading of a spelling is searched in.
ARM_MACRO_MODS = {
    "__ARM_FEATURE_CRYPTO": ("crypto",),
    "__ARM_NEON": ("simd",),
    "__ARM_NEON_FP": ("simd",),
    "__ARM_FP": ("fp", "fp.dp"),
    "__ARM_FEATURE_FMA": ("fp", "fp.dp"),
    "__ARM_FEATURE_CRC32": ("crc",),
    "__ARM_FEATURE_DSP": ("dsp",),
    "__ARM_FEATURE_SIMD32": ("dsp",),
    "__ARM_FEATURE_DOTPROD": ("dotprod",),
    "__ARM_FEATURE_MATMUL_INT8": ("i8mm",),
    "__ARM_FEATURE_BF16_VECTOR_ARITHMETIC": ("bf16",),
    "__ARM_FEATURE_BF16_SCALAR_ARITHMETIC": ("bf16",),
    "__ARM_FEATURE_FP16_SCALAR_ARITHMETIC": ("fp16",),
    "__ARM_FEATURE_FP16_VECTOR_ARITHMETIC": ("fp16",),
    "__ARM_FEATURE_FP16_FML": ("fp16fml",),
    "__ARM_FEATURE_MVE": ("mve", "mve.fp"),
}


#: The FPUs without NEON a CPU with NEON is measured with (``-mcpu=X -mfpu=Y``): a target with NEON
#: removed, which no ``+ext`` of gcc's says for most CPUs.
ARM_FPUS_WITHOUT_NEON = ("vfpv3-d16", "vfpv3", "vfpv4-d16", "vfpv4", "fp-armv8")


@functools.cache
def clang_arm_macros(spelled: str, mode: str) -> frozenset[str]:
    """:func:`arm_macros` of clang-22 for ``spelled`` (``-mcpu=X+ext``) in ``mode``, soft-float-ABI calls."""
    return arm_macros(["clang-22", "--target=arm-linux-gnueabihf", spelled, mode, "-mfloat-abi=softfp"])


def reads_as(spelled: str, mode: str, theirs: frozenset[str], diff: list[str], compared: set[str]) -> str | None:
    """The clang-22 spelling (``spelled`` plus up to three ``+ext``) whose macros are gcc's ``theirs``, or None."""
    mods: list[str] = []
    for item in diff:
        for mod in ARM_MACRO_MODS.get(item[1:].split("=")[0], ()):
            mods += [m for m in (mod, f"no{mod}") if m not in mods]
    for size in (1, 2, 3):
        for combo in itertools.combinations(mods, size):
            candidate = "+".join([spelled, *combo])
            ours = frozenset(m for m in clang_arm_macros(candidate, mode) if m.split("=")[0] in compared)
            if ours and ours == theirs:
                return candidate
    return None


def gcc_arm_drift(majors: list[int], names: dict[str, dict[str, list[int]]]) -> dict[str, Any]:
    """Fill ``names["spellings"]``: per 32-bit Arm gcc spelling, the gcc versions whose macros are clang-22's for it.

    Spellings are each CPU and architecture a version knows, alone and with up to
    two of the ``+ext`` it takes (``cortex-a72+crypto``), compiled with
    :data:`ARM_FP` and the start's instruction set; clang-22 gets the same under
    ``arm-linux-gnueabihf``. A spelling counts when :func:`arm_macros` agree over the
    macros both compilers define for some spelling: for it, tcfg can use clang-22's meaning
    (its own resolver) for gcc. Returned (``drift.gcc.arm``): ``differs``, the others with
    their ``+M=v``/``-M=v`` per version, and ``reads_as``, for those with at most one
    ``+ext``, the clang-22 spelling gcc's macros are (:func:`reads_as`: gcc's
    ``-mcpu=cortex-a72`` is clang's ``-mcpu=cortex-a72+nocrypto``), and for each CPU with
    NEON and FPU of :data:`ARM_FPUS_WITHOUT_NEON`, what ``-mcpu=X -mfpu=Y`` reads as
    (``-mcpu=cortex-a53 -mfpu=fp-armv8`` is clang's ``-mcpu=cortex-a53+nosimd+nocrypto``).
    """
    rows: list[tuple[int, str, str, frozenset[str], frozenset[str]]] = []
    for major in majors:
        gcc = gcc_cross_32(major).get("arm")
        if gcc is None:
            continue
        per_start = names.get("start_extensions", {})
        for what, option in (("cpus", "-mcpu="), ("arches", "-march=")):
            for name, versions in sorted(names.get(what, {}).items()):
                mode = arm_mode(gcc, option + name) if major in versions else None
                if mode is None:
                    continue
                mods = [s.split("+", 1)[1] for s, vs in per_start.items() if s.split("+", 1)[0] == name and major in vs]
                forms = [name, *(f"{name}+{m}" for m in mods)]
                forms += [f"{name}+{a}+{b}" for i, a in enumerate(mods) for b in mods[i + 1 :]]
                for spelled in forms:
                    ours = clang_arm_macros(option + spelled, mode)
                    if ours:  # clang-22 refuses the spelling otherwise: it has no meaning tcfg can use
                        theirs = arm_macros([gcc, option + spelled, mode, *ARM_FP])
                        rows.append((major, option + spelled, mode, theirs, ours))
    both = set().union(*(r[3] for r in rows)) & set().union(*(r[4] for r in rows)) if rows else set()
    names_both = {m.split("=")[0] for m in both}
    spellings: dict[str, list[int]] = {}
    differs: dict[str, dict[str, list[str]]] = {}
    read: dict[str, dict[str, list[str]]] = {}
    for major, spelled, mode, theirs, ours in rows:
        theirs = frozenset(m for m in theirs if m.split("=")[0] in names_both)
        ours = frozenset(m for m in ours if m.split("=")[0] in names_both)
        if theirs == ours:
            spellings.setdefault(spelled, []).append(major)
            continue
        diff = sorted([f"+{m}" for m in theirs - ours] + [f"-{m}" for m in ours - theirs])
        differs.setdefault(spelled, {})[str(major)] = diff
        if spelled.count("+") <= 1 and theirs:
            found = reads_as(spelled, mode, theirs, diff, names_both)
            if found is not None:
                read.setdefault(spelled, {})[str(major)] = [found]
    for major, name, mode in sorted({(r[0], r[1].partition("=")[2], r[2]) for r in rows if r[1].startswith("-mcpu=")}):
        if "+" in name:
            continue
        gcc = gcc_cross_32(major)["arm"]
        ours = frozenset(m for m in clang_arm_macros(f"-mcpu={name}", mode) if m.split("=")[0] in names_both)
        for fpu in ARM_FPUS_WITHOUT_NEON:
            theirs = arm_macros([gcc, f"-mcpu={name}", mode, f"-mfpu={fpu}", "-mfloat-abi=softfp"])
            theirs = frozenset(m for m in theirs if m.split("=")[0] in names_both)
            if theirs and "__ARM_NEON=1" in ours:
                diff = sorted([f"+{m}" for m in theirs - ours] + [f"-{m}" for m in ours - theirs])
                found = reads_as(f"-mcpu={name}", mode, theirs, diff, names_both)
                if found is not None:
                    read.setdefault(f"-mcpu={name} -mfpu={fpu}", {})[str(major)] = [found]
    print(f"gcc arm: {len(spellings)} spellings mean clang-22's, {len(differs)} differ, {len(read)} read as another")
    names["spellings"] = {name: sorted(vs) for name, vs in sorted(spellings.items())}
    return {"differs": differs, "reads_as": read}


def gcc_riscv_names(gcc: str, major: int, table: dict[str, dict[str, list[int]]]) -> None:
    """RISC-V: the CPUs gcc tunes for (``-mtune``) and the ISA extensions it knows in ``-march``.

    Candidates are the riscv plugin's CPUs and extensions. An extension counts when gcc,
    given it (next to ``imafdc``, or ``imafdcv`` for vector ones), defines its ``__riscv_NAME``
    macro with a version: gcc 12 takes an unknown ``z`` name silently and defines it as 0.
    """
    from tcfg_riscv.facts import tables as riscv_tables
    from tcfg_riscv.spelling import isa_string as riscv_isa

    rv = riscv_tables()
    ok = accepted([gcc], ([f"-mtune={cpu}"] for cpu in sorted(rv.cpus)))
    add(table, "cpus", (argv[0].split("=", 1)[1] for argv in ok), major)
    known = []
    for name in sorted(rv.extensions):
        if name == "e":
            tries = [("rv32e", "ilp32e")]
        elif len(name) == 1:
            tries = [(riscv_isa(64, {*"imafd", name}), "lp64d"), (riscv_isa(64, {"i", name}), "lp64")]
        else:
            tries = [(riscv_isa(64, {*"imafdc", name}), "lp64d"), (riscv_isa(64, {*"imafdcv", name}), "lp64d")]
        for march, abi in tries:
            out = run([gcc, f"-march={march}", f"-mabi={abi}", "-dM", "-E", "-x", "c", os.devnull])
            if re.search(rf"^#define __riscv_{re.escape(name)} [1-9]", out.stdout, re.M):
                known.append(name)
                break
    add(table, "extensions", known, major)


def refresh_gcc_cross() -> int:
    """``--gcc-cross``: recompute only the 32-bit Arm and RISC-V gcc names and ``drift.gcc.arm``."""
    data = json.loads(OUT.read_text(encoding="utf-8"))
    gcc = data["gcc"]
    gcc["arm"], gcc["riscv64"] = {}, {}
    tools = data["source"]["tools"]
    for major in GCCS:
        if gcc_cross_32(major):
            gcc_arm_riscv_names(major, gcc, tools)
            if major not in data["versions"]["gcc"]:
                data["versions"]["gcc"] = sorted([*data["versions"]["gcc"], major])
    data["drift"].setdefault("gcc", {})["arm"] = gcc_arm_drift(data["versions"]["gcc"], gcc["arm"])
    data["source"]["date"] = datetime.date.today().isoformat()
    data["source"]["method"] = __doc__.split("\n\n")[1].replace("\n", " ") if __doc__ else ""
    write_table(data)
    print(f"refreshed the 32-bit Arm and RISC-V gcc names in {OUT}")
    return 0


def refresh_drift_classes() -> int:
    """``--drift-classes``: recompute only what ``drift_classes.py`` measures (its entries replaced)."""
    data = json.loads(OUT.read_text(encoding="utf-8"))
    for tool in ("clang", "llvm"):
        for arch in data["drift"].get(tool, {}).values():
            arch.pop("by_triple", None)
            arch.pop("left_by_triple", None)
        data["drift"].get(tool, {}).pop("hexagon", None)
        cpus = data["drift"].get(tool, {}).get("riscv64", {}).get("cpus", {})
        for cpu, per in list(cpus.items()):
            cpus[cpu] = {major: diff for major, diff in per.items() if int(major) >= 17}
            if not cpus[cpu]:
                del cpus[cpu]
    drift_classes.extra_drift(data)
    write_table(data)
    print(f"refreshed the triple-class, RISC-V before 17 and Hexagon drift in {OUT}")
    return 0


def _add_riscv_backend(table: dict[str, dict[str, list[int]]], tool: str, major: int) -> None:
    cpus, feats = backend_names(tool, TRIPLES["riscv64"])
    for what, names in (("cpus", cpus), ("features", feats)):
        add(table, what, names, major)


def _refresh_riscv_backend() -> int:
    """``--riscv-backend``: recompute only ``llvm.riscv64.cpus``/``features`` (:func:`backend_names`) per clang."""
    return riscv_march.refresh_part("llvm", _add_riscv_backend, "llvm.riscv64.cpus and features")


#: The partial modes: each recomputes one part of the table from the names already in it.
_MODES = {
    "gcc_cross": ("--gcc-cross", "only the 32-bit Arm and RISC-V gcc parts", refresh_gcc_cross),
    "riscv_extensions": ("--riscv-extensions", "only clang's RISC-V -march extensions", riscv_march.refresh),
    "riscv_backend": ("--riscv-backend", "only LLVM's RISC-V CPU and feature names", _refresh_riscv_backend),
    "riscv_split": ("--riscv-split", "only the RISC-V extensions an LLVM has inside base I or C", riscv_split.refresh),
    "drift_classes": (
        "--drift-classes",
        "only the triple-class, RISC-V before 17 and Hexagon drift",
        refresh_drift_classes,
    ),
    "drift": ("--drift", "only the drift and gcc's per-CPU options", refresh_drift),
    "modifiers": ("--modifiers", "only clang's AArch64 modifiers", refresh_modifiers),
    "hexagon": ("--hexagon", "only the Hexagon names", refresh_hexagon),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    modes = parser.add_mutually_exclusive_group()
    for dest, (flag, help_text, _) in _MODES.items():
        modes.add_argument(flag, dest=dest, action="store_true", help=help_text)
    args = parser.parse_args()
    for dest, (_, _, run_mode) in _MODES.items():
        if getattr(args, dest):
            return run_mode()
    if shutil.which("clang-22") is None:
        print("clang-22 is needed (its extension list and LLVM 22's x86 features are the candidates)")
        return 1
    data: dict[str, Any] = {}
    llvm: dict[str, dict[str, dict[str, list[int]]]] = {arch: {} for arch in TRIPLES}
    clang: dict[str, dict[str, dict[str, list[int]]]] = {"aarch64": {}, "x86_64": {}, "arm": {}, "riscv64": {},
                                                         "hexagon": {}}  # fmt: skip
    gcc: dict[str, dict[str, dict[str, list[int]]]] = {"aarch64": {}, "x86_64": {}, "arm": {}, "riscv64": {}}
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
            if arch in clang and arch != "hexagon":
                add(clang[arch], "cpus", driver_cpus(tool, triple), major)
        from riscv_march import march_extensions  # beside this script
        from riscv_split import add_split

        add(clang["riscv64"], "extensions", march_extensions(tool), major)
        add_split(llvm["riscv64"], tool, major)
        hexagon_cpus, hexagon_options = hexagon_driver(tool)
        add(clang["hexagon"], "cpus", hexagon_cpus, major)
        add(clang["hexagon"], "options", hexagon_options, major)
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
        if native is None and cross is None and not gcc_cross_32(major):
            continue
        gcc_versions.append(major)
        gcc_arm_riscv_names(major, gcc, tools)
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
    drift_classes.extra_drift(data)
    gcc_parts(data)
    clang["aarch64"]["modifiers"] = modifier_meaning(clang_versions, clang, data["drift"], llvm)
    write_table(data)
    print(f"wrote {OUT} (clang {clang_versions}, gcc {gcc_versions})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
