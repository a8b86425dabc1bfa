"""Drift the generator's per-architecture sweep (``drift_for``) cannot see, measured apart for clang and llc.

``generate_compilers.py`` calls :func:`extra_drift` after ``drift_for`` (and ``--drift``
recomputes it); it adds, to ``drift.{clang,llvm}``:

- **Triple classes** (``ARCH.by_triple.CLASS.CPU.VERSION``). A CPU name can mean something
  else under another triple of its architecture than under ``TRIPLES``' (``armv7a-linux-gnueabihf``,
  ``riscv64-linux-gnu``): clang before 17 adds ``+strict-align`` for every 32-bit Arm CPU
  under a bare-metal triple (OS ``none``), LLVM 13's M-profile subtargets lack the
  architecture flags LLVM 22's have under their own ``thumbv7em``/``thumbv8.1m.main``
  triple, and 32-bit RISC-V CPUs (``sifive-e31``) are refused under riscv64. Per class
  (:data:`CLASSES`, named as ``tcfg._model.compilers.triple_class`` names a triple) every
  CPU both versions know is measured under its own triple of that class (for Arm bare
  metal, the one clang-22 derives from ``--target=arm-none-eabi -mcpu=CPU``) the way
  ``drift_for`` measures: LLVM N's subtarget against LLVM 22's, read with the inliner probe.
  Each drift is then undone as tcfg undoes it (its items after the CPU's) and measured
  again: what still differs goes in ``ARCH.left_by_triple.CLASS.CPU.VERSION`` (LLVM 13's
  ``-perfmon`` takes ``v7`` with it under ``thumbv7em``: drift ``["+perfmon"]``, left
  ``["-armv7e-m", "-v7"]``), and tcfg refuses that CPU there.
- **RISC-V before LLVM 17**, whose subtargets the inliner probe cannot read: for clang,
  the features clang-N gives a function for ``-mcpu=CPU`` against those clang-22 gives,
  over the features both LLVMs know (what the truth test compares there): LLVM 15 and 16
  derive no Zmmul from M. (llc's CPU definitions before 17 stay unmeasured.)
- **Hexagon**, whose subtargets the inliner probe cannot read in any version: the object
  LLVM N writes for ``-mcpu=hexagonvNN`` (clang-N ``-c``; llc-N ``-filetype=obj``), its ELF
  ``e_flags`` (architecture, tiny core) and, from LLVM 17 on, its build attributes
  (``Tag_arch``, ``Tag_zreg``, ``Tag_audio``, ``Tag_cabac``, ``Tag_hvx*``), against LLVM 22's
  object; before 17, over the ``e_flags`` items only. ``drift.{clang,llvm}.hexagon.cpus``.
"""

from __future__ import annotations

import functools
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import compiler_probes as ask

from tcfg._model.compilers import undo

#: ``(table architecture, class)``: the triple the class is measured under (Arm: each CPU under clang-22's from it).
CLASSES = {("arm", "none"): "arm-none-eabi", ("riscv64", "riscv32"): "riscv32-linux-gnu"}
#: Items clang gives a function that are code-model or linker choices, not hardware.
NOT_HARDWARE = frozenset({"long-calls", "relax"})
#: Hexagon build attributes (LLVM 17+) and the LLVM feature each names.
HEXAGON_TAGS = {"Tag_zreg": "zreg", "Tag_audio": "audio", "Tag_cabac": "cabac", "Tag_hvxieeefp": "hvx-ieee-fp",
                "Tag_hvxqfloat": "hvx-qfloat"}  # fmt: skip
_ELF_ARCH = {0x4: "v5", 0x5: "v55"}  # e_flags' architecture, else the hexadecimal digits: 0x68 is v68
_ELF_TINY = 0x8000

Names = dict[str, dict[str, dict[str, list[int]]]]


def _diff(old: frozenset[str] | set[str], new: frozenset[str] | set[str]) -> list[str]:
    return sorted([f"+{f}" for f in old - new] + [f"-{f}" for f in new - old])


def _both(names: dict[str, list[int]], major: int) -> list[str]:
    return sorted(n for n, vs in names.items() if major in vs and 22 in vs)


@functools.cache
def _ir_triple(triple: str, cpu: str) -> str | None:
    """The triple clang-22 makes of ``--target=triple -mcpu=cpu`` (``thumbv7em-unknown-none-eabi``)."""
    done = ask.run(["clang-22", f"--target={triple}", f"-mcpu={cpu}", "-S", "-emit-llvm", "-o", "-", "-x", "c",
                    "/dev/null"])  # fmt: skip
    found = re.search(r'^target triple = "([^"]+)"', done.stdout, re.M)
    return found.group(1) if done.returncode == 0 and found else None


def _enabled(features: str, known: set[str]) -> frozenset[str]:
    return frozenset(i[1:] for i in features.split(",") if i.startswith("+") and i[1:] in known) - NOT_HARDWARE


def _class_triples(arch: str, base: str, cpus: list[str]) -> dict[str, list[str]]:
    """The CPUs of ``cpus`` grouped by the triple each is measured under in a class based on ``base``."""
    groups: dict[str, list[str]] = {}
    for cpu in cpus:
        triple = _ir_triple(base, cpu) if arch == "arm" else base
        if triple is not None:
            groups.setdefault(triple, []).append(cpu)
    return groups


def _probe(major: int, arch: str, triple: str, llvm_names: Names) -> list[str]:
    feats = set(_both(llvm_names[arch]["features"], major))
    probe = sorted(ask.hardware(arch) & feats)
    if arch == "riscv64":
        probe = [f for f in ask.probe_for(major, triple, tuple(probe)) if f in ask.probe_for(22, triple, tuple(probe))]
    return probe


def class_drift(majors: list[int], llvm_names: Names, clang_names: Names) -> dict[str, dict[str, Any]]:
    """``{"clang"|"llvm": {arch: {key: {class: {cpu: {version: [+f, -f]}}}}}}`` (see the module doc).

    ``key`` is ``by_triple`` (the drift) or ``left_by_triple`` (what differs with it undone).
    """
    out: dict[str, dict[str, Any]] = {"clang": {}, "llvm": {}}
    for (arch, cls), base in CLASSES.items():
        for major in (m for m in majors if m != 22):
            for tool, names in (("clang", clang_names), ("llvm", llvm_names)):
                cpus = _both(names[arch]["cpus"], major)
                if arch == "riscv64":  # the class's own CPUs: those LLVM builds a subtarget for under it
                    cpus = [c for c in cpus if ask.cpu_ok(major, base, c, "m") and ask.cpu_ok(22, base, c, "m")]
                for triple, group in _class_triples(arch, base, cpus).items():
                    measured = _measure(tool, major, arch, triple, group, llvm_names)
                    for key, found in zip(("by_triple", "left_by_triple"), measured, strict=True):
                        for cpu, diff in found.items():
                            table = out[tool].setdefault(arch, {}).setdefault(key, {}).setdefault(cls, {})
                            table.setdefault(cpu, {})[str(major)] = diff
    return out


def _measure(
    tool: str, major: int, arch: str, triple: str, cpus: list[str], llvm_names: Names
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Per CPU of ``cpus`` under ``triple``: how ``tool`` ``major``'s meaning differs from LLVM 22's (if it does),
    and what still differs with that undone."""
    if arch == "riscv64" and major < 17:
        return (_item_drift(major, triple, cpus, llvm_names) if tool == "clang" else {}), {}
    probe = _probe(major, arch, triple, llvm_names)
    if tool == "clang":
        clang, clang22 = f"clang-{major}", "clang-22"
        rows = [(c, ask.ir_config(clang, triple, f"-mcpu={c}"), ask.ir_config(clang22, triple, f"-mcpu={c}"))
                for c in cpus]  # fmt: skip
        pairs = [(c, old, new) for c, old, new in rows if old and new]
    else:
        pairs = [(c, (c, ""), (c, "")) for c in cpus]
    olds = ask.subtargets(major, triple, [old for _, old, _ in pairs], probe)
    news = ask.subtargets(22, triple, [new for _, _, new in pairs], probe)
    found = {c: _diff(o, n) for (c, _, _), o, n in zip(pairs, olds, news, strict=True) if o != n}
    # undo each drift as tcfg does (its items after the CPU's): what still differs cannot be undone
    undone = [
        (c, (old[0], ",".join(x for x in [old[1], *undo(found[c])] if x)), new) for c, old, new in pairs if c in found
    ]
    fixed = ask.subtargets(major, triple, [old for _, old, _ in undone], probe)
    again = ask.subtargets(22, triple, [new for _, _, new in undone], probe)
    left = {cpu: _diff(o, n) for (cpu, _, _), o, n in zip(undone, fixed, again, strict=True) if o != n}
    return found, left


def _item_drift(major: int, triple: str, cpus: list[str], llvm_names: Names) -> dict[str, list[str]]:
    """clang-N's function features for ``-mcpu=CPU`` against clang-22's, over the features both LLVMs know."""
    known = set(_both(llvm_names["riscv64"]["features"], major))
    out: dict[str, list[str]] = {}
    for cpu in cpus:
        old = ask.ir_config(f"clang-{major}", triple, f"-mcpu={cpu}")
        new = ask.ir_config("clang-22", triple, f"-mcpu={cpu}")
        if old and new and _enabled(old[1], known) != _enabled(new[1], known):
            out[cpu] = _diff(_enabled(old[1], known), _enabled(new[1], known))
    return out


def riscv_item_drift(majors: list[int], llvm_names: Names, clang_names: Names) -> dict[str, dict[str, list[str]]]:
    """``{cpu: {version: [+f, -f]}}``: clang's RISC-V drift under riscv64 before LLVM 17 (see the module doc)."""
    triple = ask.TRIPLES["riscv64"]
    out: dict[str, dict[str, list[str]]] = {}
    for major in (m for m in majors if m < 17):
        cpus = [c for c in _both(clang_names["riscv64"]["cpus"], major) if ask.cpu_ok(22, triple, c, "m")]
        for cpu, diff in _item_drift(major, triple, cpus, llvm_names).items():
            out.setdefault(cpu, {})[str(major)] = diff
    return out


def _hexagon_items(argv_obj: list[str], argv_asm: list[str]) -> tuple[frozenset[str], frozenset[str] | None] | None:
    """(items from the object's ``e_flags``, items from its build attributes or None before LLVM 17), or None."""
    with tempfile.TemporaryDirectory(prefix="tcfg-hexagon-") as tmp:
        obj = Path(tmp) / "f.o"
        if ask.run([*argv_obj, "-o", str(obj)]).returncode != 0 or not obj.exists():
            return None
        flags = int.from_bytes(obj.read_bytes()[36:40], "little")  # ELF32 e_flags
    arch = flags & 0xFFF
    items = {_ELF_ARCH.get(arch, f"v{arch:x}")} | ({"tinycore"} if flags & _ELF_TINY else set())
    text = ask.run([*argv_asm, "-o", "-"]).stdout
    tags: dict[str, str] = {}
    for value, tag in re.findall(r"\.attribute\s+\d+,\s*(\d+)\s*//\s*(Tag_\w+)", text):
        tags[tag] = value
    if not tags:
        return frozenset(items), None
    attrs = {HEXAGON_TAGS[t] for t, v in tags.items() if t in HEXAGON_TAGS and v != "0"}
    if "Tag_arch" in tags:
        attrs.add(f"v{tags['Tag_arch']}")
    if tags.get("Tag_hvxarch", "0") != "0":
        attrs.add(f"hvxv{tags['Tag_hvxarch']}")
    return frozenset(items), frozenset(attrs)


def _hexagon_reading(tool: str, major: int, cpu: str) -> tuple[frozenset[str], frozenset[str] | None] | None:
    if tool == "clang":
        base = [f"clang-{major}", "--target=hexagon", f"-mcpu={cpu}", "-x", "c", "/dev/null"]
        return _hexagon_items([*base, "-c"], [*base, "-S"])
    module = Path(tempfile.gettempdir()) / "tcfg-hexagon-probe.ll"
    module.write_text("define void @f() {\n  ret void\n}\n", encoding="utf-8")
    base = [f"llc-{major}", "-mtriple=hexagon", f"-mcpu={cpu}", str(module)]
    return _hexagon_items([*base, "-filetype=obj"], base)


def hexagon_drift(majors: list[int], llvm_names: Names, clang_names: Names) -> dict[str, dict[str, Any]]:
    """``{"clang"|"llvm": {"hexagon": {"cpus": {cpu: {version: [+f, -f]}}}}}`` from the objects (module doc)."""
    out: dict[str, dict[str, Any]] = {"clang": {}, "llvm": {}}
    for tool, names in (("clang", clang_names), ("llvm", llvm_names)):
        for major in (m for m in majors if m != 22):
            if shutil.which(f"{'clang' if tool == 'clang' else 'llc'}-{major}") is None:
                continue
            for cpu in (c for c in _both(names["hexagon"]["cpus"], major) if c.startswith("hexagonv")):
                old, new = _hexagon_reading(tool, major, cpu), _hexagon_reading(tool, 22, cpu)
                if old is None or new is None:
                    continue
                got, want = old[0] | (old[1] or frozenset()), new[0] | (new[1] or frozenset())
                if old[1] is None:  # no build attributes before LLVM 17: compare the e_flags items
                    want = new[0]
                if got != want:
                    table = out[tool].setdefault("hexagon", {}).setdefault("cpus", {})
                    table.setdefault(cpu, {})[str(major)] = _diff(got, want)
    return out


def extra_drift(data: dict[str, Any]) -> None:
    """Add the triple classes, RISC-V before 17 and Hexagon to ``data["drift"]`` (names from ``data``)."""
    majors, llvm_names, clang_names = data["versions"]["clang"], data["llvm"], data["clang"]
    drift = data["drift"]
    for part in (class_drift(majors, llvm_names, clang_names), hexagon_drift(majors, llvm_names, clang_names)):
        for tool, arches in part.items():
            for arch, whats in arches.items():
                for what, table in whats.items():
                    drift.setdefault(tool, {}).setdefault(arch, {}).setdefault(what, {}).update(table)
    for cpu, per in riscv_item_drift(majors, llvm_names, clang_names).items():
        drift["clang"].setdefault("riscv64", {}).setdefault("cpus", {}).setdefault(cpu, {}).update(per)
