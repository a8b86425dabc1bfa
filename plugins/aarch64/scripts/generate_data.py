#!/usr/bin/env python3
"""Generate the aarch64 plugin's CPU and extension tables from a real clang and LLVM backend.

Every fact comes from running the named tools (default ``clang-22`` and ``opt-22``, LLVM
22, the same major version that llvmlite 0.50 bundles):

* clang ``-S -emit-llvm`` on an empty C file and its ``"target-cpu"``/``"target-features"``
  attributes give what clang hands the backend for each CPU, architecture version and
  ``-march=...+ext``/``+noext`` (the frontend's view);
* ``--print-supported-cpus``/``--print-supported-extensions`` (and, for 32-bit Arm, the
  extension names of the installed ``ARMTargetParser.def``) give the names;
* ``-cc1 -target-feature +help`` gives every LLVM backend feature (valid ``-mattr`` names);
* the backend's own feature sets come from LLVM's subtarget itself: ``opt -passes=inline``
  inlines a callee into a caller only when the callee's subtarget features are a subset of
  the caller's, so a caller with a (CPU, feature string) and one callee per LLVM feature
  ``F`` (same CPU, same string plus ``+F``) tells which features that subtarget has; this
  is how llc builds its subtarget from ``-mcpu``/``-mattr`` (same library, same code).
  It gives what each LLVM feature implies (SubtargetFeature implication) and each CPU's
  *backend* definition, which can have fewer features than clang's CPU table.
  What clang's strings mean to the backend then follows by LLVM's own rule, applied here
  in Python: ``+F`` sets F and what it implies, ``-F`` clears F and what implies it;
* ``-###`` gives the triple clang picks for a 32-bit Arm CPU, and ``-S`` (assembly)
  the ``.fpu`` directive LLVM's Arm assembly printer writes for a set of FP features.

Files (:func:`layout`): ``arm.json``; the AArch64 table in parts, ``aarch64.json`` (features),
``aarch64-arch.json`` (architectures and extensions) and one file per CPU in
``aarch64-cpus/``; and ``index.json``, the names and descriptions that
registering the plugin needs (derived from the tables, so that registration reads none).

Usage: ``python scripts/generate_data.py [--clang clang-22] [--opt opt-22] [--out DIR]``;
``--check`` runs no tool and fails when ``index.json`` or the CPU files disagree with the
tables. The output holds no date, so regenerating with the same tools gives byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

A64_TRIPLE = "aarch64-linux-gnu"
ARM_TRIPLE = "arm-none-eabihf"
A64_ARCHES = [f"8.{i}" for i in range(10)] + [f"9.{i}" for i in range(8)]
ARM_ARCHES = (
    "armv4",
    "armv4t",
    "armv5t",
    "armv5te",
    "armv6",
    "armv6k",
    "armv6kz",
    "armv6t2",
    "armv6-m",
    "armv7-m",
    "armv7e-m",
    "armv8-m.base",
    "armv8-m.main",
    "armv8.1-m.main",
    "armv7-a",
    "armv8-a",
    "armv8.1-a",
    "armv8.2-a",
    "armv8.3-a",
    "armv8.4-a",
    "armv8.5-a",
    "armv8.6-a",
    "armv8.7-a",
    "armv8.8-a",
    "armv8.9-a",
    "armv9-a",
    "armv7-r",
    "armv8-r",
)
FPU_NAMES = (
    "vfpv2",
    "vfpv3",
    "vfpv3-fp16",
    "vfpv3-d16",
    "vfpv3-d16-fp16",
    "vfpv3xd",
    "vfpv3xd-fp16",
    "vfpv4",
    "vfpv4-d16",
    "fpv4-sp-d16",
    "fpv5-d16",
    "fpv5-sp-d16",
    "fp-armv8",
    "fp-armv8-fullfp16-d16",
    "fp-armv8-fullfp16-sp-d16",
    "neon",
    "neon-fp16",
    "neon-vfpv4",
    "neon-fp-armv8",
    "crypto-neon-fp-armv8",
)
FP_FEATURE = re.compile(r"^(vfp\w*|fp-armv8\w*|fp64|d32|fp16|fullfp16|fpregs\w*|neon|crypto|aes|sha2)$")
#: Modes, not hardware: never part of a target's feature set. ``execute-only`` is also
#: the one AArch64 feature the inliner compares inverted, so the probe cannot read it.
MODES = frozenset({"fmv", "soft-float", "thumb-mode", "execute-only", "noarm"})
_ATTR = re.compile(r'"target-(cpu|features)"="([^"]*)"')
_T = TypeVar("_T")
_R = TypeVar("_R")

Fs = tuple[str, ...]  # an LLVM feature string as items: ("+neon", "-sve")


def _pmap(fn: Callable[[_T], _R], items: Iterable[_T]) -> list[_R]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(fn, items))


class Clang:
    """Runs one clang binary on an empty C translation unit."""

    def __init__(self, exe: str) -> None:
        self.exe = exe
        self.version = self.run(["--version"]).splitlines()[0].strip()
        major = re.search(r"version (\d+)\.", self.version)
        if major is None:
            raise SystemExit(f"cannot read the LLVM version from {self.version!r}")
        self.llvm_major = int(major.group(1))

    def run(self, args: Sequence[str], check: bool = True) -> str:
        proc = subprocess.run([self.exe, *args], input="", capture_output=True, text=True, check=False)
        if check and proc.returncode != 0:
            raise RuntimeError(f"{self.exe} {' '.join(args)} failed: {proc.stderr.strip()}")
        return proc.stdout + proc.stderr

    def attrs(self, args: Sequence[str]) -> tuple[str, Fs] | None:
        """(target-cpu, target-features items in order) of an empty function, or None if refused.

        A warning is not a refusal: clang warns about an extension an architecture lacks
        (``armv7-a+crypto``) and goes on, so tcfg accepts it too.
        """
        proc = subprocess.run(
            [self.exe, *args, "-x", "c", "-S", "-emit-llvm", "-o", "-", "-"],
            input="void f(void) {}\n",
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            return None
        found = dict(_ATTR.findall(proc.stdout))
        return found.get("cpu", "generic"), tuple(filter(None, found.get("features", "").split(",")))

    def must(self, args: Sequence[str]) -> tuple[str, Fs]:
        got = self.attrs(args)
        if got is None:
            raise RuntimeError(f"{self.exe} refused {' '.join(args)}")
        return got

    def asm(self, args: Sequence[str]) -> str:
        return self.run([*args, "-x", "c", "-S", "-o", "-", "-"])

    def cc1_triple(self, args: Sequence[str]) -> str:
        out = self.run(["-###", *args, "-x", "c", "-c", "-"])
        found = re.search(r'"-triple" "([^"]+)"', out)
        if found is None:
            raise RuntimeError(f"no -triple in clang -### {' '.join(args)}")
        return found.group(1)

    def cpus(self, triple: str) -> list[str]:
        out = self.run([f"--target={triple}", "--print-supported-cpus"])
        names = re.findall(r"^\s+([a-z0-9][a-z0-9.\-_]*)$", out, re.M)
        return sorted(n for n in names if n != "generic")

    def extensions(self, triple: str) -> dict[str, str]:
        out = self.run([f"--target={triple}", "--print-supported-extensions"])
        rows: dict[str, str] = {}
        for line in out.splitlines():
            m = re.match(r"^    (\S+)\s+(?:((?:FEAT_\w+)(?:, FEAT_\w+)*)\s+)?(.*)$", line)
            if m and m.group(1) != "Name":
                rows[m.group(1)] = m.group(3).strip()
        return rows

    def backend_features(self, triple: str) -> dict[str, str]:
        out = self.run(["-cc1", "-triple", triple, "-target-feature", "+help", "-S", "-o", "/dev/null", "-"])
        section = out.split("Available features for this target:", 1)[1]
        return dict(re.findall(r"^  (\S+)\s+- (.*?)\.?$", section, re.M))

    def arm_extension_names(self) -> list[str]:
        """The -march extension names of LLVM's ARMTargetParser.def (installed with clang's LLVM)."""
        prefix = self.run(["-print-resource-dir"]).strip().split("/lib/clang/")[0]
        text = Path(prefix, "include/llvm/TargetParser/ARMTargetParser.def").read_text()
        names = re.findall(r'^ARM_ARCH_EXT_NAME\("([^"]+)"', text, re.M)
        return [n for n in names if n not in ("invalid", "none")]


class Backend:
    """LLVM's subtarget feature sets, read through the inliner's feature-subset rule (``opt``)."""

    def __init__(self, exe: str, universe: dict[str, Sequence[str]]) -> None:
        self.exe = exe
        self.universe = universe  # triple family -> the features to probe

    def sets(self, triple: str, configs: Sequence[tuple[str, Fs]], family: str) -> list[frozenset[str]]:
        """For each (CPU, feature string): the LLVM features its subtarget has, of ``universe[family]``."""
        probe = list(self.universe[family])
        per = max(1, 1200 // max(1, len(probe)))  # each callee is a subtarget: keep opt's memory small
        out: list[frozenset[str]] = []
        for at in range(0, len(configs), per):
            out += self._batch(triple, configs[at : at + per], probe)
        return out

    def _batch(self, triple: str, configs: Sequence[tuple[str, Fs]], probe: list[str]) -> list[frozenset[str]]:
        lines: list[str] = []
        attr = 0
        for k, (cpu, fs) in enumerate(configs):
            base = ",".join(fs)
            lines.append(f"define void @c{k}() #{attr} {{")
            lines += [f"  call void @p{k}_{i}()" for i in range(len(probe))]
            lines.append("  ret void\n}")
            lines.append(f'attributes #{attr} = {{ "target-cpu"="{cpu}" "target-features"="{base}" }}')
            attr += 1
            for i, feat in enumerate(probe):
                callee = f"{base},+{feat}" if base else f"+{feat}"
                lines.append(f"define internal void @p{k}_{i}() #{attr} {{\n  ret void\n}}")
                lines.append(f'attributes #{attr} = {{ "target-cpu"="{cpu}" "target-features"="{callee}" }}')
                attr += 1
        proc = subprocess.run(
            [self.exe, f"-mtriple={triple}", "-passes=inline", "-S", "-o", "-", "-"],
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0 or "not a recognized feature" in proc.stderr:
            if len(configs) > 1:
                return [got for c in configs for got in self._batch(triple, [c], probe)]
            raise RuntimeError(f"{self.exe} on {triple} {configs[0]}: {proc.stderr.strip()[:2000]}")
        kept: dict[int, set[int]] = {}
        for k, i in re.findall(r"call void @p(\d+)_(\d+)\(\)", proc.stdout):
            kept.setdefault(int(k), set()).add(int(i))
        return [frozenset(f for i, f in enumerate(probe) if i not in kept.get(k, set())) for k in range(len(configs))]


class Graph:
    """LLVM's SubtargetFeature implication, and its rule for applying a feature string."""

    def __init__(self, implies: dict[str, frozenset[str]]) -> None:
        self.implies = implies
        self.implied_by: dict[str, set[str]] = {}
        for feat, closure in implies.items():
            for other in closure:
                self.implied_by.setdefault(other, set()).add(feat)

    def apply(self, start: Iterable[str], items: Iterable[str]) -> frozenset[str]:
        """MCSubtargetInfo's ApplyFeatureFlag over ``items``: ``+F`` sets F and what it implies,
        ``-F`` clears F and every feature that implies it."""
        bits = set(start)
        for item in items:
            feat = item[1:]
            if feat not in self.implies:
                continue  # a mode or unknown name: not part of the hardware view
            if item[0] == "+":
                bits |= {feat} | self.implies[feat]
            else:
                bits -= {feat} | self.implied_by.get(feat, set())
        return frozenset(bits)


def _implications(
    backend: Backend, triple: str, family: str, zero_cpu: str, seeds: Iterable[str]
) -> dict[str, frozenset[str]]:
    """What each LLVM feature reachable from ``seeds`` implies (transitively), from an empty start."""
    base = backend.sets(triple, [(zero_cpu, ())], family)[0]
    clear = tuple(f"-{f}" for f in sorted(base))
    residue = backend.sets(triple, [(zero_cpu, clear)], family)[0]
    known = set(backend.universe[family])
    implies: dict[str, frozenset[str]] = {}
    todo = sorted(set(seeds) & known)
    while todo:
        got = backend.sets(triple, [(zero_cpu, (*clear, f"+{f}")) for f in todo], family)
        for feat, found in zip(todo, got, strict=True):
            implies[feat] = frozenset(found - residue - {feat})
        todo = sorted({g for f in todo for g in implies[f]} - set(implies))
    return implies


def _version_of(features: Iterable[str]) -> tuple[str, str]:
    """(version, profile) from the arch flags (v8.2a, v9a, v8r) in a feature set."""
    best = (0, 0)
    profile = "a"
    for feat in features:
        m = re.fullmatch(r"v(\d+)(?:\.(\d+))?([ar])", feat)
        if m:
            best = max(best, (int(m.group(1)), int(m.group(2) or 0)))
            profile = "r" if m.group(3) == "r" else profile
    return f"{best[0]}.{best[1]}", profile


def _positive(items: Fs) -> set[str]:
    return {i[1:] for i in items if i[0] == "+"}


def _hardware(graph: Graph, seen: Iterable[Fs]) -> frozenset[str]:
    """Every feature some clang string enables, and what those imply, less the modes."""
    names: set[str] = set()
    for items in seen:
        for feat in _positive(items):
            if feat in graph.implies:
                names |= {feat} | graph.implies[feat]
    return frozenset(names - MODES)


def _hw_items(items: Fs, hw: frozenset[str]) -> list[str]:
    """The items of a clang feature string that name hardware features, in clang's order."""
    return [i for i in items if i[1:] in hw]


def _removal(graph: Graph, items: Fs) -> set[str]:
    """What the ``-F`` items of a clang string clear: each F and what implies it."""
    out: set[str] = set()
    for item in items:
        if item[0] == "-" and item[1:] in graph.implies:
            out |= {item[1:]} | graph.implied_by.get(item[1:], set())
    return out


def aarch64_data(clang: Clang, opt: str) -> dict[str, Any]:
    t = f"--target={A64_TRIPLE}"
    backend_names = clang.backend_features(A64_TRIPLE)
    backend = Backend(opt, {"aarch64": sorted(set(backend_names) - MODES)})
    names = ["generic", *clang.cpus(A64_TRIPLE)]
    cpu_fs = dict(zip(names, _pmap(lambda c: clang.must([t, f"-mcpu={c}"]), names), strict=True))
    llc = dict(zip(names, backend.sets(A64_TRIPLE, [(c, ()) for c in names], "aarch64"), strict=True))
    arch_fs: dict[str, tuple[str, Fs]] = {}
    for ver in A64_ARCHES:
        major, minor = ver.split(".")
        march = f"armv{major}-a" if minor == "0" else f"armv{ver}-a"
        got = clang.attrs([t, f"-march={march}"])
        if got is not None:
            arch_fs[ver] = (march, got[1])
    exts = clang.extensions(A64_TRIPLE)
    base_fs = clang.must([t, "-march=armv8-a+nofp"])[1]
    add_fs = dict(zip(exts, _pmap(lambda e: clang.attrs([t, f"-march=armv8-a+nofp+{e}"]), exts), strict=True))
    top = arch_fs[max(arch_fs, key=lambda v: tuple(map(int, v.split("."))))][0]
    usable = [e for e in exts if add_fs[e] is not None and clang.attrs([t, f"-march={top}+{e}"]) is not None]
    maximal = f"-march={top}+" + "+".join(usable)
    full_fs = clang.must([t, maximal])[1]
    rem_fs = dict(zip(usable, _pmap(lambda e: clang.attrs([t, f"{maximal}+no{e}"]), usable), strict=True))
    pairs = [(v, e) for v in arch_fs for e in usable]
    ver_add = dict(
        zip(pairs, _pmap(lambda p: clang.attrs([t, f"-march={arch_fs[p[0]][0]}+{p[1]}"]), pairs), strict=True)
    )

    seen = [fs for _, fs in cpu_fs.values()] + [fs for _, fs in arch_fs.values()] + [full_fs]
    seen += [g[1] for g in add_fs.values() if g is not None]
    seeds = {f for fs in seen for f in _positive(fs)}
    graph = Graph(_implications(backend, A64_TRIPLE, "aarch64", "generic", seeds))
    hw = _hardware(graph, seen)

    def closed(cpu: str, items: Fs) -> frozenset[str]:
        return graph.apply(llc[cpu] & hw, items) & hw

    cpus: dict[str, Any] = {}
    for name, (canon, fs) in cpu_fs.items():
        feats = closed(name, fs)
        version, profile = _version_of(feats)
        cpus[name] = {
            "llvm_cpu": canon,
            "arch_version": version,
            "profile": profile,
            "features": sorted(feats),
            "llc_features": sorted(llc[name] & hw),
            "clang": _hw_items(fs, hw),
        }
    arches = {
        v: {"march": m, "features": sorted(closed("generic", fs)), "clang": _hw_items(fs, hw)}
        for v, (m, fs) in arch_fs.items()
    }
    base = closed("generic", base_fs)
    full = closed("generic", full_fs)
    extensions: dict[str, Any] = {}
    for ext in sorted(e for e in exts if add_fs[e] is not None):
        got = add_fs[ext]
        assert got is not None
        adds = closed("generic", got[1]) - base
        entry: dict[str, Any] = {"doc": exts[ext], "adds": sorted(adds), "removes": []}
        rem = rem_fs.get(ext)
        if rem is not None:
            entry["removes"] = sorted((full - closed("generic", rem[1])) | (_removal(graph, rem[1]) & hw))
        extra: dict[str, list[str]] = {}
        for ver, (_m, fs) in arch_fs.items():
            plus = ver_add.get((ver, ext))
            if plus is not None:
                more = closed("generic", plus[1]) - closed("generic", fs) - adds
                if more:
                    extra[ver] = sorted(more)
        if extra:
            entry["version_adds"] = extra
        extensions[ext] = entry
    return {
        "llvm_features": backend_names,
        "hardware": sorted(hw),
        "implies": {f: sorted(graph.implies[f] & hw) for f in sorted(hw) if graph.implies[f] & hw},
        "cpus": cpus,
        "arches": arches,
        "extensions": extensions,
    }


def _fpu_of(clang: Clang, args: Sequence[str]) -> str:
    found = re.search(r"^\s*\.fpu\s+(\S+)", clang.asm(args), re.M)
    return found.group(1) if found else "none"


def _profile(arch: str) -> str:
    if arch.endswith(("-m", ".main", ".base")) or "-m." in arch:
        return "m"
    return "r" if arch.endswith("-r") else "a"


def arm_data(clang: Clang, opt: str) -> dict[str, Any]:
    t = f"--target={ARM_TRIPLE}"
    backend_names = clang.backend_features("armv7-none-eabihf")
    backend = Backend(opt, {"arm": sorted(set(backend_names) - MODES)})
    names = clang.cpus("arm-none-eabi")

    def one(cpu: str) -> dict[str, Any]:
        soft = clang.must([t, f"-mcpu={cpu}", "-mfloat-abi=soft"])[1]
        # clang refuses a hard-float ABI for CPUs without FP registers: their
        # features are the soft-float ones.
        got = clang.attrs([t, f"-mcpu={cpu}", "-mfloat-abi=hard"])
        triple = clang.cc1_triple(["--target=arm-none-eabi", f"-mcpu={cpu}"]).split("-", 1)[0]
        return {
            "hard": got[1] if got is not None else tuple(i for i in soft if i != "+soft-float"),
            "soft": soft,
            "triple_arch": triple,
            "fpu": "none" if got is None else _fpu_of(clang, [t, f"-mcpu={cpu}", "-mfloat-abi=hard"]),
        }

    raw = dict(zip(names, _pmap(one, names), strict=True))
    llc_sets = backend.sets(
        "armv7a-none-eabihf", [(c, ()) for c in names if raw[c]["triple_arch"].startswith("arm")], "arm"
    )
    llc = dict(zip([c for c in names if raw[c]["triple_arch"].startswith("arm")], llc_sets, strict=True))
    # The backend CPU definition alone (the triple's architecture does not add to a named CPU's).
    for c in names:
        if c not in llc:
            llc[c] = backend.sets(f"{raw[c]['triple_arch']}-none-eabihf", [(c, ())], "arm")[0]
    abi = "-mfloat-abi=softfp"
    arch_fs: dict[str, tuple[str, Fs]] = {}
    arch_cpu: dict[str, str] = {}  # clang's -march picks a CPU (armv7e-m: cortex-m4)
    for arch in ARM_ARCHES:
        got = clang.attrs([t, f"-march={arch}", abi])
        if got is not None:
            triple = clang.cc1_triple(["--target=arm-none-eabi", f"-march={arch}"]).split("-", 1)[0]
            arch_fs[arch] = (triple, got[1])
            arch_cpu[arch] = got[0]
    # -mcpu=X+ext: clang applies the extension to the CPU (its FPU, its architecture), so
    # each CPU gets its own table
    # (under the float ABI of the CPU: softfp with an FPU, soft without, as a target of it is)
    cpu_abi = {c: abi if raw[c]["fpu"] != "none" else "-mfloat-abi=soft" for c in names}
    cpu_pairs = [(c, m) for c in names for e in clang.arm_extension_names() for m in (e, f"no{e}")]
    cpu_mod_fs = dict(
        zip(
            cpu_pairs,
            _pmap(lambda p: clang.attrs([t, f"-mcpu={p[0]}+{p[1]}", cpu_abi[p[0]]]), cpu_pairs),
            strict=True,
        )
    )
    cpu_base_fs = {c: clang.must([t, f"-mcpu={c}", cpu_abi[c]])[1] for c in names}
    arch_soft_fs = {a: clang.attrs([t, f"-march={a}", "-mfloat-abi=soft"]) for a in arch_fs}
    ext_names = clang.arm_extension_names()
    docs = clang.extensions("arm-none-eabi")
    # -march=A+ext as a target of A is written: A's own triple, hard float when A has an FPU
    fp_names = {f for f in backend_names if FP_FEATURE.match(f)} - {"aes", "sha2", "crypto"}
    arch_t = {
        a: f"--target={tr}-none-eabi{'hf' if _positive(fs) & fp_names else ''}" for a, (tr, fs) in arch_fs.items()
    }
    pairs = [(a, m) for a in arch_fs for e in ext_names for m in (e, f"no{e}")]
    mod_fs = dict(zip(pairs, _pmap(lambda p: clang.attrs([arch_t[p[0]], f"-march={p[0]}+{p[1]}"]), pairs), strict=True))
    for a, (tr, _fs) in list(arch_fs.items()):
        own = clang.attrs([arch_t[a], f"-march={a}"])
        if own is not None:
            arch_fs[a], arch_cpu[a] = (tr, own[1]), own[0]

    # What +noext removes is measured from the architecture with every extension it
    # takes turned on (clang negates more than was ever on, so its "-" items overstate it).
    def maximal(arch: str) -> str:
        mods = ""
        for ext in ext_names:
            if (
                mod_fs[(arch, ext)] is not None
                and clang.attrs([arch_t[arch], f"-march={arch}{mods}+{ext}"]) is not None
            ):
                mods += f"+{ext}"
        return f"-march={arch}{mods}"

    tops = dict(zip(arch_fs, _pmap(maximal, list(arch_fs)), strict=True))
    top_fs = {a: clang.must([arch_t[a], m])[1] for a, m in tops.items()}
    rem_pairs = [(a, e) for a in arch_fs for e in ext_names if mod_fs[(a, f"no{e}")] is not None]
    rem_fs = dict(
        zip(rem_pairs, _pmap(lambda p: clang.attrs([arch_t[p[0]], f"{tops[p[0]]}+no{p[1]}"]), rem_pairs), strict=True)
    )
    seen = [r["hard"] for r in raw.values()] + [fs for _, fs in arch_fs.values()]
    seen += [g[1] for g in mod_fs.values() if g is not None] + list(top_fs.values())
    seen += [g[1] for g in cpu_mod_fs.values() if g is not None]
    seeds = {f for fs in seen for f in _positive(fs)}
    graph = Graph(_implications(backend, "thumbv7-none-eabi", "arm", "generic", seeds))
    hw = _hardware(graph, seen)

    # A named CPU's features do not depend on the triple's architecture; -march's start
    # from the generic CPU of the architecture's own triple, as clang's do.
    def closed(start: frozenset[str], items: Fs) -> frozenset[str]:
        return graph.apply(start & hw, items) & hw

    generic_llc = {a: backend.sets(f"{tr}-none-eabi", [("generic", ())], "arm")[0] for a, (tr, _fs) in arch_fs.items()}
    arch_start = {a: llc[c] if c in llc else generic_llc[a] for a, c in arch_cpu.items()}

    def cpu_table(name: str) -> dict[str, Any]:
        base = closed(llc[name], cpu_base_fs[name])
        table: dict[str, Any] = {}
        for ext in ext_names:
            plus, minus = cpu_mod_fs[(name, ext)], cpu_mod_fs[(name, f"no{ext}")]
            if plus is None and minus is None:
                continue
            entry: dict[str, Any] = {}
            if plus is not None:
                entry["adds"] = sorted(closed(llc[name], plus[1]) - base)
                entry["plus_removes"] = sorted(base - closed(llc[name], plus[1]))
            if minus is not None:
                after = closed(llc[name], minus[1])
                gone = base - after
                entry["removes"] = sorted(gone.union(*(graph.implied_by.get(f, set()) for f in gone)) & hw)
                entry["no_adds"] = sorted(after - base)
            table[ext] = entry
        return table

    cpus: dict[str, Any] = {}
    drops: dict[str, set[str]] = {}
    for name, r in raw.items():
        hard = closed(llc[name], r["hard"])
        soft = closed(llc[name], r["soft"])
        flags = sorted(f for f in hard if f.startswith("armv"))
        profile = _profile(flags[0]) if flags else "a"
        cpus[name] = {
            "arch": flags[0] if flags else "unknown",
            "profile": profile,
            "triple_arch": r["triple_arch"],
            "fpu": r["fpu"],
            "features": sorted(hard),
            "llc_features": sorted(llc[name] & hw),
            "clang": _hw_items(r["hard"], hw),
            "soft_drops": sorted(hard - soft),
            "extensions": cpu_table(name),
        }
        drops.setdefault(profile, set()).update(hard - soft)
    arches: dict[str, Any] = {}
    for arch, (triple, fs) in arch_fs.items():
        feats = closed(arch_start[arch], fs)
        table: dict[str, Any] = {}
        for ext in ext_names:
            plus, minus = mod_fs[(arch, ext)], mod_fs[(arch, f"no{ext}")]
            if plus is None and minus is None:
                continue
            entry: dict[str, Any] = {}
            if plus is not None:
                entry["adds"] = sorted(closed(arch_start[arch], plus[1]) - feats)
                entry["plus_removes"] = sorted(feats - closed(arch_start[arch], plus[1]))
            if minus is not None:
                after = closed(arch_start[arch], minus[1])
                full = closed(arch_start[arch], top_fs[arch])
                top_after = rem_fs.get((arch, ext))
                gone = full - closed(arch_start[arch], top_after[1]) if top_after is not None else set()
                # the architecture's own features as measured; the rest (added by other
                # extensions first) as the maximal set loses them
                entry["removes"] = sorted((feats - after) | (gone - feats))
                entry["no_adds"] = sorted(after - feats)
            table[ext] = entry
        arches[arch] = {
            "profile": _profile(arch),
            "triple_arch": triple,
            "features": sorted(feats),
            "llc_features": sorted(arch_start[arch] & hw),
            "clang_cpu": arch_cpu[arch],
            "soft_drops": sorted(feats - closed(arch_start[arch], soft_got[1]))
            if (soft_got := arch_soft_fs[arch])
            else [],
            "clang": _hw_items(fs, hw),
            "extensions": table,
        }
    fpus: dict[str, str] = {}
    for name, cpu in cpus.items():
        fpus.setdefault(",".join(f for f in cpu["features"] if FP_FEATURE.match(f)), raw[name]["fpu"])
    # an FPU with features taken away by -mattr still gets a name from the printer
    takes = [(c, neg) for c in names if raw[c]["fpu"] != "none" for neg in ("-fp64", "-d32", "-neon")]

    def taken(pair: tuple[str, str]) -> tuple[frozenset[str], str] | None:
        args = [t, f"-mcpu={pair[0]}", "-mfloat-abi=hard", "-Xclang", "-target-feature", "-Xclang", pair[1]]
        got = clang.attrs(args)
        return None if got is None else (closed(llc[pair[0]], got[1]), _fpu_of(clang, args))

    for found in _pmap(taken, takes):
        if found is not None:
            fpus.setdefault(",".join(sorted(f for f in found[0] if FP_FEATURE.match(f))), found[1])
    for fpu in FPU_NAMES:
        for march in ("armv7-a", "armv8.1-m.main"):
            args = [t, f"-march={march}", f"-mfpu={fpu}", "-mfloat-abi=hard"]
            got = clang.attrs(args)
            if got is not None:
                feats = closed(arch_start[march], got[1])
                fpus.setdefault(",".join(sorted(f for f in feats if FP_FEATURE.match(f))), _fpu_of(clang, args))
    return pool_cpu_extensions(
        {
            "llvm_features": backend_names,
            "hardware": sorted(hw),
            "implies": {f: sorted(graph.implies[f] & hw) for f in sorted(hw) if graph.implies[f] & hw},
            "cpus": cpus,
            "arches": arches,
            "extension_docs": {e: docs.get(e, "") for e in ext_names},
            "soft_float_drops": {p: sorted(d) for p, d in sorted(drops.items())},
            "fpus": dict(sorted(fpus.items())),
        }
    )


def pool_cpu_extensions(data: dict[str, Any]) -> dict[str, Any]:
    """Store each distinct per-CPU ``+ext`` table once (most CPUs of one FPU share theirs).

    ``cpus[X]["extensions"]`` becomes ``cpus[X]["extension_table"]``, the first CPU (by
    name) with that table, a key of ``cpu_extension_tables``: a smaller file that loads
    faster. A file already pooled is returned unchanged.
    """
    pool: dict[str, Any] = dict(data.get("cpu_extension_tables", {}))
    seen: dict[str, str] = {json.dumps(t, sort_keys=True): k for k, t in pool.items()}
    for name in sorted(data["cpus"]):
        cpu = data["cpus"][name]
        if "extensions" not in cpu:
            continue
        table = cpu.pop("extensions")
        key = seen.setdefault(json.dumps(table, sort_keys=True), name)
        pool.setdefault(key, table)
        cpu["extension_table"] = key
    return {**data, "cpu_extension_tables": pool}


def generate(exe: str, opt: str = "opt-22") -> dict[str, dict[str, Any]]:
    """The data files' contents, by path under ``data/`` (see :func:`layout`)."""
    clang = Clang(exe)
    source = {
        "tool": exe,
        "backend_tool": opt,
        "tool_version": clang.version,
        "llvm_major": clang.llvm_major,
        "method": "clang -S -emit-llvm target-features; --print-supported-cpus/extensions; "
        "-cc1 -target-feature +help; backend subtarget features by opt -passes=inline; "
        "-### triple; .fpu of -S assembly",
        "generator": "plugins/aarch64/scripts/generate_data.py",
    }
    return layout(
        {"aarch64": {"source": source, **aarch64_data(clang, opt)}, "arm": {"source": source, **arm_data(clang, opt)}}
    )


#: The directory (under ``data/``) of the AArch64 CPUs, one file each.
A64_CPUS = "aarch64-cpus"
#: The AArch64 architecture versions and extensions.
A64_ARCH = "aarch64-arch.json"


def layout(tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The two families' tables as the files the plugin reads, by path under ``data/``.

    ``arm.json`` is the 32-bit table whole. The AArch64 table is split by what a target
    needs (each part with the table's ``source``): ``aarch64.json`` has the features and
    their implications, ``aarch64-arch.json`` the architecture versions and ``+ext``
    extensions (read for ``-march``, ``+ext`` and code generation), and ``aarch64-cpus/``
    one file per CPU, so that resolving a CPU reads that CPU only. ``index.json`` is what
    registering the plugin needs (:func:`index`).
    """
    a64 = dict(tables["aarch64"])
    cpus = a64.pop("cpus")
    source = a64["source"]
    arch = {"source": source, "arches": a64.pop("arches"), "extensions": a64.pop("extensions")}
    files = {"aarch64.json": a64, A64_ARCH: arch, "arm.json": tables["arm"], "index.json": index(tables)}
    for name, cpu in cpus.items():
        files[f"{A64_CPUS}/{name}.json"] = {"source": source, **cpu}
    return files


def index(tables: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Per family, its CPU names (without ``generic``), ``-march`` names, and hardware features
    with LLVM's description of each: what the plugin declares and claims without reading a table."""
    families: dict[str, Any] = {}
    for family, table in tables.items():
        arches = table["arches"]
        families[family] = {
            "cpus": sorted(set(table["cpus"]) - {"generic"}),
            "arches": sorted(a.get("march", name) for name, a in arches.items()),
            "hardware": {f: table["llvm_features"].get(f, "") for f in table["hardware"]},
        }
    return {"source": tables["aarch64"]["source"], "families": families}


def read_tables(data: Path) -> dict[str, dict[str, Any]]:
    """The two families' tables from the files in ``data`` (the inverse of :func:`layout`)."""
    a64 = json.loads((data / "aarch64.json").read_text())
    arch = json.loads((data / A64_ARCH).read_text())
    a64 |= {"arches": arch["arches"], "extensions": arch["extensions"]}
    cpus = {}
    for path in sorted((data / A64_CPUS).glob("*.json")):
        cpu = json.loads(path.read_text())
        del cpu["source"]
        cpus[path.stem] = cpu
    return {"aarch64": {**a64, "cpus": cpus}, "arm": json.loads((data / "arm.json").read_text())}


def dump(data: dict[str, Any]) -> str:
    """The canonical JSON text of a data file."""
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def write(files: dict[str, dict[str, Any]], out: Path) -> None:
    """Write ``files`` under ``out``, removing AArch64 CPU files that are no longer generated."""
    (out / A64_CPUS).mkdir(exist_ok=True)
    for stale in (out / A64_CPUS).glob("*.json"):
        if f"{A64_CPUS}/{stale.name}" not in files:
            stale.unlink()
    for name, data in files.items():
        (out / name).write_text(dump(data))
    print(f"wrote {len(files)} files to {out}")


def check(out: Path) -> list[str]:
    """The files under ``out`` that are missing or differ from what :func:`layout` makes of the tables there."""
    files = layout(read_tables(out))
    return sorted(n for n, d in files.items() if not (out / n).exists() or (out / n).read_text() != dump(d))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clang", default="clang-22")
    parser.add_argument("--opt", default="opt-22")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "tcfg_aarch64" / "data")
    parser.add_argument(
        "--check",
        action="store_true",
        help="run no tool: exit 1 if the index or the file layout disagrees with the tables in --out",
    )
    args = parser.parse_args()
    if args.check:
        wrong = check(args.out)
        if wrong:
            raise SystemExit(f"out of date with the tables in {args.out}: {', '.join(wrong)}")
        return
    write(generate(args.clang, args.opt), args.out)


if __name__ == "__main__":
    main()
