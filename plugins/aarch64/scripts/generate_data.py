#!/usr/bin/env python3
"""Generate the aarch64 plugin's CPU and extension tables from a real clang.

Every fact comes from running the named clang (default ``clang-22``, LLVM 22, the
same major version that llvmlite 0.50 bundles) on an empty C file:

* ``-S -emit-llvm`` and its ``"target-cpu"``/``"target-features"`` attributes give
  each CPU's and each architecture version's LLVM features, what ``-march=...+ext``
  adds and what ``+noext`` removes (LLVM's feature graph, as its TargetParser applies it);
* ``--print-supported-cpus`` and ``--print-supported-extensions`` give the names;
* ``-cc1 -target-feature +help`` gives every LLVM backend feature (valid ``-mattr`` names);
* ``-###`` gives the triple clang picks for a 32-bit Arm CPU, and ``-S`` (assembly)
  the ``.fpu`` directive LLVM's Arm assembly printer writes for a set of FP features.

Usage: ``python scripts/generate_data.py [--clang clang-22] [--out DIR]``. The output
holds no date, so regenerating with the same clang gives byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

A64_TRIPLE = "aarch64-linux-gnu"
ARM_TRIPLE = "arm-none-eabihf"
A64_ARCHES = [f"8.{i}" for i in range(10)] + [f"9.{i}" for i in range(8)]
ARM_ARCHES = (
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
FP_FEATURE = re.compile(r"^(vfp\w*|fp-armv8\w*|fp64|d32|fp16|fullfp16|fpregs|neon)$")
ARCH_FLAG = re.compile(r"^(v\d+(\.\d+)?[ar]|armv.*)$")
_ATTR = re.compile(r'"target-(cpu|features)"="([^"]*)"')


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

    def features(self, args: Sequence[str]) -> tuple[str, frozenset[str]] | None:
        """(target-cpu, positive target-features) of an empty function, or None if refused."""
        proc = subprocess.run(
            [self.exe, *args, "-Werror", "-x", "c", "-S", "-emit-llvm", "-o", "-", "-"],
            input="void f(void) {}\n",
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            return None
        found = dict(_ATTR.findall(proc.stdout))
        feats = frozenset(f[1:] for f in found.get("features", "").split(",") if f.startswith("+"))
        return found.get("cpu", "generic"), feats

    def must(self, args: Sequence[str]) -> tuple[str, frozenset[str]]:
        got = self.features(args)
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


def _pmap(fn: Any, items: Iterable[Any]) -> list[Any]:
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(fn, items))


def _arch_version(features: frozenset[str]) -> tuple[str, str]:
    """(version, profile) from the arch flags (v8.2a, v9a, v8r) in a feature set."""
    best = (0, 0)
    profile = "a"
    for feat in features:
        m = re.fullmatch(r"v(\d+)(?:\.(\d+))?([ar])", feat)
        if m:
            best = max(best, (int(m.group(1)), int(m.group(2) or 0)))
            profile = "r" if m.group(3) == "r" else profile
    return f"{best[0]}.{best[1]}", profile


def _graph(ext_adds: dict[str, list[str]], ext_removes: dict[str, list[str]]) -> dict[str, Any]:
    """For each LLVM feature an extension owns: what it requires and what depends on it."""
    graph: dict[str, Any] = {}
    owners: dict[str, str] = {}
    for name, adds in sorted(ext_adds.items(), key=lambda kv: (len(kv[1]), kv[0])):
        for feat in adds:
            owners.setdefault(feat, name)
    for feat, owner in sorted(owners.items()):
        removes = ext_removes.get(owner, [])
        graph[feat] = {
            "extension": owner,
            "requires": sorted(set(ext_adds[owner]) - {feat}),
            "dependents": sorted(set(removes) - {feat}) if feat in removes else [],
        }
    return graph


def aarch64_data(clang: Clang) -> dict[str, Any]:
    t = f"--target={A64_TRIPLE}"
    backend = clang.backend_features(A64_TRIPLE)
    names = clang.cpus(A64_TRIPLE)
    cpus: dict[str, Any] = {}
    for name, (canon, feats) in zip(names, _pmap(lambda c: clang.must([t, f"-mcpu={c}"]), names), strict=True):
        version, profile = _arch_version(feats)
        cpus[name] = {"llvm_cpu": canon, "arch_version": version, "profile": profile, "features": sorted(feats)}
    arches: dict[str, Any] = {}
    for ver in A64_ARCHES:
        major, minor = ver.split(".")
        march = f"armv{major}-a" if minor == "0" else f"armv{ver}-a"
        got = clang.features([t, f"-march={march}"])
        if got is not None:
            arches[ver] = {"march": march, "features": sorted(got[1])}
    exts = clang.extensions(A64_TRIPLE)
    base = clang.must([t, "-march=armv8-a+nofp"])[1]
    adds_raw = _pmap(lambda e: clang.features([t, f"-march=armv8-a+nofp+{e}"]), exts)
    ext_adds = {e: sorted(got[1] - base) for e, got in zip(exts, adds_raw, strict=True) if got is not None}
    top = arches[max(arches, key=lambda v: tuple(map(int, v.split("."))))]["march"]
    usable = [e for e in ext_adds if clang.features([t, f"-march={top}+{e}"]) is not None]
    maximal = f"-march={top}+" + "+".join(usable)
    full = clang.must([t, maximal])[1]
    rem_raw = _pmap(lambda e: clang.features([t, f"{maximal}+no{e}"]), usable)
    ext_removes = {e: sorted(full - got[1]) for e, got in zip(usable, rem_raw, strict=True) if got is not None}
    extensions = {e: {"doc": exts[e], "adds": ext_adds[e], "removes": ext_removes.get(e, [])} for e in sorted(ext_adds)}
    return {
        "llvm_features": backend,
        "cpus": cpus,
        "arches": arches,
        "extensions": extensions,
        "graph": _graph(ext_adds, ext_removes),
    }


def _fpu_of(clang: Clang, args: Sequence[str]) -> str:
    found = re.search(r"^\s*\.fpu\s+(\S+)", clang.asm(args), re.M)
    return found.group(1) if found else "none"


def _profile(arch: str) -> str:
    if arch.endswith(("-m", ".main", ".base")) or "-m." in arch:
        return "m"
    return "r" if arch.endswith("-r") else "a"


def arm_data(clang: Clang) -> dict[str, Any]:
    t = f"--target={ARM_TRIPLE}"
    backend = clang.backend_features("armv7-none-eabihf")
    names = clang.cpus("arm-none-eabi")

    def one(cpu: str) -> dict[str, Any]:
        soft = clang.must([t, f"-mcpu={cpu}", "-mfloat-abi=soft"])[1]
        # clang refuses a hard-float ABI for CPUs without FP registers: their
        # features are the soft-float ones.
        got = clang.features([t, f"-mcpu={cpu}", "-mfloat-abi=hard"])
        hard = soft - {"soft-float"} if got is None else got[1]
        arch = sorted(f for f in hard if f.startswith("armv"))
        triple = clang.cc1_triple(["--target=arm-none-eabi", f"-mcpu={cpu}"]).split("-", 1)[0]
        return {
            "arch": arch[0] if arch else "unknown",
            "profile": _profile(arch[0]) if arch else "a",
            "triple_arch": triple,
            "fpu": "none" if got is None else _fpu_of(clang, [t, f"-mcpu={cpu}", "-mfloat-abi=hard"]),
            "features": sorted(hard),
            "soft_features": sorted(soft),
        }

    cpus = dict(zip(names, _pmap(one, names), strict=True))
    # What clang drops under -mfloat-abi=soft differs per CPU (it keeps NEON for some
    # Armv9 cores): record it per CPU, and per profile the union, for added features.
    drops: dict[str, set[str]] = {}
    for cpu in cpus.values():
        cpu["soft_drops"] = sorted(set(cpu["features"]) - set(cpu.pop("soft_features")))
        drops.setdefault(cpu["profile"], set()).update(cpu["soft_drops"])
    exts = clang.extensions("arm-none-eabi")
    bases = {"m": "armv8.1-m.main", "a": "armv8.6-a", "r": "armv8-r"}
    abi = "-mfloat-abi=softfp"
    extensions: dict[str, Any] = {}
    for profile, march in bases.items():
        # softfp: FP features without requiring FP registers; clang lets "+nofp" win
        # over later extensions' implications on Arm, so the base is the plain arch.
        base = clang.must([t, f"-march={march}", abi])[1]
        adds_raw = _pmap(lambda e, m=march: clang.features([t, f"-march={m}+{e}", abi]), exts)
        adds = {e: sorted(g[1] - base) for e, g in zip(exts, adds_raw, strict=True) if g is not None}
        usable = [e for e in adds if adds[e]]
        maximal = f"-march={march}+" + "+".join(usable)
        full = clang.must([t, maximal, abi])[1]
        rem_raw = _pmap(lambda e, mx=maximal: clang.features([t, f"{mx}+no{e}", abi]), list(exts))
        removes = {e: sorted(full - g[1]) for e, g in zip(exts, rem_raw, strict=True) if g is not None}
        extensions[profile] = {
            "base": march,
            "table": {e: {"doc": exts[e], "adds": adds[e], "removes": removes.get(e, [])} for e in sorted(adds)},
            "graph": _graph(adds, removes),
            "base_features": sorted(base),
        }
    arches: dict[str, Any] = {}
    for arch in ARM_ARCHES:
        got = clang.features([t, f"-march={arch}", "-mfloat-abi=softfp"])
        if got is not None:
            triple = clang.cc1_triple(["--target=arm-none-eabi", f"-march={arch}"]).split("-", 1)[0]
            arches[arch] = {"profile": _profile(arch), "triple_arch": triple, "features": sorted(got[1])}
    fpus: dict[str, str] = {}
    for cpu in cpus.values():
        fpus.setdefault(",".join(f for f in cpu["features"] if FP_FEATURE.match(f)), cpu["fpu"])
    for fpu in FPU_NAMES:
        for march in ("armv7-a", "armv8.1-m.main"):
            args = [t, f"-march={march}", f"-mfpu={fpu}", "-mfloat-abi=hard"]
            got = clang.features(args)
            if got is not None:
                fpus.setdefault(",".join(sorted(f for f in got[1] if FP_FEATURE.match(f))), _fpu_of(clang, args))
    return {
        "llvm_features": backend,
        "cpus": cpus,
        "arches": arches,
        "extensions": extensions,
        "soft_float_drops": {p: sorted(d) for p, d in sorted(drops.items())},
        "fpus": dict(sorted(fpus.items())),
    }


def generate(exe: str) -> dict[str, dict[str, Any]]:
    """The data files' contents, by file name."""
    clang = Clang(exe)
    source = {
        "tool": exe,
        "tool_version": clang.version,
        "llvm_major": clang.llvm_major,
        "method": "clang -S -emit-llvm target-features; --print-supported-cpus/extensions; "
        "-cc1 -target-feature +help; -### triple; .fpu of -S assembly",
        "generator": "plugins/aarch64/scripts/generate_data.py",
    }
    return {
        "aarch64.json": {"source": source, **aarch64_data(clang)},
        "arm.json": {"source": source, **arm_data(clang)},
    }


def dump(data: dict[str, Any]) -> str:
    """The canonical JSON text of a data file."""
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clang", default="clang-22")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "tcfg_aarch64" / "data")
    args = parser.parse_args()
    for name, data in generate(args.clang).items():
        (args.out / name).write_text(dump(data))
        print(f"wrote {args.out / name}")


if __name__ == "__main__":
    main()
