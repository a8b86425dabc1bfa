#!/usr/bin/env python3
"""Generate ``tcfg_cuda/data/arches.json``, the CUDA arch table, and check it against ptxas/nvcc.

The facts below come from NVIDIA's documents (cited in ``SOURCES``); this script expands
them to every arch name (``sm_XY``, ``sm_XYa``, ``sm_XYf``), computes each arch's
features, and then checks what the installed toolkit can answer:

* the minimum PTX ISA version of every arch: ptxas must accept ``.version MIN`` and
  reject the version before it for that ``.target`` (older targets included, see
  :mod:`tcfg_cuda.probes`);
* every feature of every arch: the feature's PTX probe must assemble exactly when the
  table says the arch has the feature;
* the arch list: the arches this ptxas/nvcc generates code for must be exactly the
  table's arches whose CUDA version range includes the installed release.

Usage: ``python scripts/gen_arch_table.py [--check]``. With ``--check`` nothing is
written and the exit status says whether the committed table matches. Exits non-zero on
any disagreement with the toolkit.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tcfg_cuda.probes import PROBES, Ptxas, find_ptxas  # noqa: E402

OUT = HERE.parent / "tcfg_cuda" / "data" / "arches.json"
COMPILED = "2026-11-22"

SOURCES = {
    "ptx_isa": "NVIDIA PTX ISA 9.0, sections 'PTX ISA Version' release notes and '.target' "
    "(https://docs.nvidia.com/cuda/parallel-thread-execution/), retrieved 2026-11-22",
    "llvm_nvptx": "LLVM llvm/include/llvm/TargetParser/NVPTXTargetParser.def and "
    "llvm/lib/Target/NVPTX/NVPTX.td (first/last CUDA release per arch, families), retrieved 2026-11-22",
    "cccl_arch_traits": "NVIDIA CCCL libcudacxx/include/cuda/__device/arch_traits.h "
    "(per-arch shared memory, resident threads, registers), retrieved 2026-11-22",
    "programming_guide": "CUDA C++ Programming Guide, 'Compute Capabilities', technical "
    "specifications per compute capability (https://docs.nvidia.com/cuda/cuda-programming-guide/"
    "05-appendices/compute-capabilities.html), retrieved 2026-11-22",
    "cuda13_release_notes": "CUDA 13.0 release notes: offline compilation for Maxwell, Pascal "
    "and Volta (sm_50 to sm_72) removed; sm_101 renamed sm_110 (https://docs.nvidia.com/cuda/"
    "cuda-toolkit-release-notes/), retrieved 2026-11-22",
    "whitepapers": "NVIDIA Volta, Turing, Ampere, Ada, Hopper and Blackwell architecture "
    "whitepapers (tensor core generations), retrieved 2026-11-22",
    "programming_guide_10_2": "CUDA C Programming Guide v10.2 (2019), 'Compute Capabilities', "
    "technical specifications of compute capabilities 2.x (Fermi) and 3.x (Kepler): resident threads, "
    "shared memory and registers; CUDA 9.0 release notes (Fermi, sm_2x, removed), CUDA 11.0 "
    "release notes (sm_30 removed), CUDA 12.0 release notes (sm_35, sm_37 removed); retrieved 2026-11-24",
    "ptxas_13_old_targets": "ptxas 13.0, measured 2026-11-24: the lowest PTX ISA version it accepts "
    "for .target sm_20/sm_21 is 2.0 (without .address_size, which needs 2.3), sm_30 3.0, sm_35 3.1, "
    "sm_37 4.1; it generates code for none of them ('Value ... is not defined for option gpu-name')",
}

KB = 1024

# Per compute capability: (generation, resident threads per SM, shared memory per SM,
# max shared memory per block with opt-in, registers per block, tensor core generation).
# Limits: CCCL arch_traits.h for 6.0-12.1; the Programming Guide for 5.x and 7.2.
_CC: dict[tuple[int, int], tuple[str, int, int, int, int, int]] = {
    # Programming Guide v10.2 for 2.x and 3.x: no opt-in beyond 48 KB before Volta.
    (2, 0): ("Fermi", 1536, 48 * KB, 48 * KB, 32 * KB, 0),
    (2, 1): ("Fermi", 1536, 48 * KB, 48 * KB, 32 * KB, 0),
    (3, 0): ("Kepler", 2048, 48 * KB, 48 * KB, 64 * KB, 0),
    (3, 5): ("Kepler", 2048, 48 * KB, 48 * KB, 64 * KB, 0),
    (3, 7): ("Kepler", 2048, 112 * KB, 48 * KB, 64 * KB, 0),
    (5, 0): ("Maxwell", 2048, 64 * KB, 48 * KB, 64 * KB, 0),
    (5, 2): ("Maxwell", 2048, 96 * KB, 48 * KB, 64 * KB, 0),
    (5, 3): ("Maxwell", 2048, 64 * KB, 48 * KB, 32 * KB, 0),
    (6, 0): ("Pascal", 2048, 64 * KB, 48 * KB, 64 * KB, 0),
    (6, 1): ("Pascal", 2048, 96 * KB, 48 * KB, 64 * KB, 0),
    (6, 2): ("Pascal", 2048, 64 * KB, 48 * KB, 32 * KB, 0),
    (7, 0): ("Volta", 2048, 96 * KB, 96 * KB, 64 * KB, 1),
    (7, 2): ("Volta", 2048, 96 * KB, 96 * KB, 64 * KB, 1),
    (7, 5): ("Turing", 1024, 64 * KB, 64 * KB, 64 * KB, 2),
    (8, 0): ("Ampere", 2048, 164 * KB, 163 * KB, 64 * KB, 3),
    (8, 6): ("Ampere", 1536, 100 * KB, 99 * KB, 64 * KB, 3),
    (8, 7): ("Ampere", 1536, 164 * KB, 163 * KB, 64 * KB, 3),
    (8, 8): ("Ampere", 1536, 100 * KB, 99 * KB, 64 * KB, 3),
    (8, 9): ("Ada", 1536, 100 * KB, 99 * KB, 64 * KB, 4),
    (9, 0): ("Hopper", 2048, 228 * KB, 227 * KB, 64 * KB, 4),
    (10, 0): ("Blackwell", 2048, 228 * KB, 227 * KB, 64 * KB, 5),
    (10, 1): ("Blackwell", 1536, 228 * KB, 227 * KB, 64 * KB, 5),
    (10, 3): ("Blackwell", 2048, 228 * KB, 227 * KB, 64 * KB, 5),
    (11, 0): ("Blackwell", 1536, 228 * KB, 227 * KB, 64 * KB, 5),
    (12, 0): ("Blackwell", 1536, 100 * KB, 99 * KB, 64 * KB, 5),
    (12, 1): ("Blackwell", 1536, 100 * KB, 99 * KB, 64 * KB, 5),
}

# Limits every compute capability in the Programming Guide's table shares (its rows
# "Maximum number of threads per block" and "Warp size"): no CUDA GPU goes beyond them.
MAX_THREADS_PER_BLOCK = 1024
WARP_SIZE = 32

#: The source (a key of SOURCES) of each limit the cuda kind enforces as "no CUDA GPU can".
LIMIT_SOURCES = {
    "max_threads_per_block": "programming_guide",
    "warp_size": "programming_guide",
}

# Every arch name, with its minimum PTX ISA version and first/last CUDA release
# (PTX ISA release notes; LLVM NVPTXTargetParser.def; CUDA 13.0 release notes).
_ARCHES: list[tuple[str, str, str, str | None]] = [
    # Fermi and Kepler: the first CUDA release is that of the minimum PTX ISA version (PTX
    # 2.0: CUDA 3.0, 3.0: 4.1, 3.1: 5.0, 4.1: 6.5), the last the one before the removal.
    ("sm_20", "2.0", "3.0", "8.0"),
    ("sm_21", "2.0", "3.0", "8.0"),
    ("sm_30", "3.0", "4.1", "10.2"),
    ("sm_35", "3.1", "5.0", "11.8"),
    ("sm_37", "4.1", "6.5", "11.8"),
    ("sm_50", "4.0", "6.0", "12.9"),
    ("sm_52", "4.1", "6.5", "12.9"),
    ("sm_53", "4.2", "7.0", "12.9"),
    ("sm_60", "5.0", "8.0", "12.9"),
    ("sm_61", "5.0", "8.0", "12.9"),
    ("sm_62", "5.0", "8.0", "12.9"),
    ("sm_70", "6.0", "9.0", "12.9"),
    ("sm_72", "6.1", "9.1", "12.9"),
    ("sm_75", "6.3", "10.0", None),
    ("sm_80", "7.0", "11.0", None),
    ("sm_86", "7.1", "11.1", None),
    ("sm_87", "7.4", "11.4", None),
    ("sm_88", "7.3", "13.0", None),  # PTX ISA 9.0 lists sm_88 under 9.0; ptxas 13.0 accepts 7.3
    ("sm_89", "7.8", "11.8", None),
    ("sm_90", "7.8", "11.8", None),
    ("sm_90a", "8.0", "12.0", None),
    ("sm_100", "8.6", "12.8", None),
    ("sm_100a", "8.6", "12.8", None),
    ("sm_100f", "8.8", "12.9", None),
    ("sm_101", "8.6", "12.8", "12.9"),
    ("sm_101a", "8.6", "12.8", "12.9"),
    ("sm_101f", "8.8", "12.9", "12.9"),
    ("sm_103", "8.8", "12.9", None),
    ("sm_103a", "8.8", "12.9", None),
    ("sm_103f", "8.8", "12.9", None),
    ("sm_110", "9.0", "13.0", None),
    ("sm_110a", "9.0", "13.0", None),
    ("sm_110f", "9.0", "13.0", None),
    ("sm_120", "8.7", "12.8", None),
    ("sm_120a", "8.7", "12.8", None),
    ("sm_120f", "8.8", "12.9", None),
    ("sm_121", "8.8", "12.9", None),
    ("sm_121a", "8.8", "12.9", None),
    ("sm_121f", "8.8", "12.9", None),
]

# sm_101 was renamed sm_110 in CUDA 13.0 (same hardware, Jetson Thor).
_RENAMED = {"sm_101": "sm_110", "sm_101a": "sm_110a", "sm_101f": "sm_110f"}

# Portable features: the first compute capability whose code may use them (PTX ISA,
# instruction "Target ISA notes").
_SINCE: dict[str, tuple[int, int]] = {
    "fp16": (5, 3),
    "dp4a": (6, 1),
    "tensor_cores": (7, 0),
    "int8_tensor_cores": (7, 2),
    "bf16": (8, 0),
    "tf32": (8, 0),
    "cp_async": (8, 0),
    "fp8": (8, 9),
    "tma": (9, 0),
}

# Arch-specific features: the compute capabilities whose 'a' (and, from CUDA 12.9, 'f')
# targets may use them (PTX ISA: wgmma needs sm_90a; tcgen05 the 10.x/11.x families;
# the e2m1 (fp4) conversions the 10.x/11.x/12.x families).
_SPECIFIC: dict[str, frozenset[tuple[int, int]]] = {
    "wgmma": frozenset({(9, 0)}),
    "tcgen05": frozenset({(10, 0), (10, 1), (10, 3), (11, 0)}),
    "fp4": frozenset({(10, 0), (10, 1), (10, 3), (11, 0), (12, 0), (12, 1)}),
}

PTX_VERSIONS = [
    "1.4", "2.0", "2.1", "2.2", "2.3", "3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3",
    "5.0", "6.0", "6.1", "6.2", "6.3", "6.4", "6.5",
    "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8",
    "8.0", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0",
]  # fmt: skip


def split(name: str) -> tuple[int, int, str]:
    """``sm_103a`` -> (10, 3, "a")."""
    digits = name[3:].rstrip("af")
    return int(digits[:-1]), int(digits[-1]), name[3 + len(digits) :]


def features(name: str) -> dict[str, Any]:
    """The features code compiled for arch ``name`` may use."""
    major, minor, variant = split(name)
    cc = (major, minor)
    gen = _CC[cc][5]
    out: dict[str, Any] = {f: cc >= since for f, since in _SINCE.items()}
    for feat, ccs in _SPECIFIC.items():
        out[feat] = variant in ("a", "f") and cc in ccs
    out["tensor_core_generation"] = gen
    out["compute_capability"] = f"{major}.{minor}"
    return out


def build() -> dict[str, Any]:
    """The arch table (without toolkit checks)."""
    arches: dict[str, Any] = {}
    for name, min_ptx, min_cuda, max_cuda in _ARCHES:
        major, minor, variant = split(name)
        generation, threads_sm, smem_sm, optin, regs, _ = _CC[(major, minor)]
        # Families (PTX ISA '.target'): sm_10x = 10.0 and 10.3; sm_11x = 11.0, which
        # CUDA 12.8-12.9 called 10.1; sm_12x = 12.0 and 12.1. Older arches have none.
        family = "sm_11x" if name in _RENAMED else (f"sm_{major}x" if major >= 10 else None)
        entry: dict[str, Any] = {
            "compute_capability": [major, minor],
            "variant": variant,
            "generation": generation,
            "family": family,
            "min_ptx_isa": min_ptx,
            "min_cuda": min_cuda,
            "max_cuda": max_cuda,
            "limits": {
                "max_threads_per_block": MAX_THREADS_PER_BLOCK,
                "warp_size": WARP_SIZE,
                "max_threads_per_multiprocessor": threads_sm,
                "shared_memory_per_multiprocessor": smem_sm,
                "max_shared_memory_per_block_optin": optin,
                "registers_per_block": regs,
            },
            "features": features(name),
        }
        if name in _RENAMED:
            entry["renamed_to"] = _RENAMED[name]
        arches[name] = entry
    return {
        "about": "CUDA arch table: limits, features, PTX ISA and CUDA versions per arch. "
        "Generated by plugins/cuda/scripts/gen_arch_table.py; do not edit by hand.",
        "compiled": COMPILED,
        "sources": SOURCES,
        "limit_sources": LIMIT_SOURCES,
        "arches": arches,
    }


#: The first PTX ISA version with the .address_size directive.
_ADDRESS_SIZE_PTX = "2.3"


def _version_before(version: str) -> str | None:
    index = PTX_VERSIONS.index(version)
    return PTX_VERSIONS[index - 1] if index else None


def check(table: dict[str, Any], ptxas: Ptxas) -> list[str]:
    """Disagreements between ``table`` and the installed ptxas/nvcc (empty when none)."""
    problems: list[str] = []
    release = tuple(int(p) for p in ptxas.release.split("."))
    checkable = [n for n in table["arches"] if n not in _RENAMED or release < (13, 0)]
    jobs: list[tuple[str, str, str, str, bool]] = []
    for name in checkable:
        entry = table["arches"][name]
        latest = PTX_VERSIONS[-1]
        minimum = entry["min_ptx_isa"]
        if PTX_VERSIONS.index(minimum) < PTX_VERSIONS.index(_ADDRESS_SIZE_PTX):
            # ptxas's probes carry .address_size, which PTX before 2.3 lacks: what the
            # table says of sm_2x below it was measured without (SOURCES, ptxas_13_old_targets).
            jobs.append((name, "min_ptx_isa", _ADDRESS_SIZE_PTX, ".visible .entry probe() { ret; }", True))
        else:
            jobs.append((name, "min_ptx_isa", minimum, PROBES["fp16"].split("{")[0] + "{ ret; }", True))
            before = _version_before(minimum)
            if before is not None:
                jobs.append((name, "min_ptx_isa", before, ".visible .entry probe() { ret; }", False))
        for feat, body in PROBES.items():
            jobs.append((name, feat, latest, body, bool(entry["features"][feat])))

    def run(job: tuple[str, str, str, str, bool]) -> str | None:
        name, what, version, body, expected = job
        error = ptxas.assemble(name, version, body)
        if (error == "") != expected:
            said = "assembles" if error == "" else f"fails ({error.splitlines()[0]})"
            return f"{name}: {what} with PTX {version}: table says {expected}, ptxas {ptxas.release} {said}"
        return None

    with ThreadPoolExecutor(max_workers=2) as pool:
        problems += [p for p in pool.map(run, jobs) if p]

    supported = {
        n
        for n, e in table["arches"].items()
        if tuple(int(p) for p in e["min_cuda"].split(".")) <= release
        and (e["max_cuda"] is None or release <= tuple(int(p) for p in e["max_cuda"].split(".")))
    }
    if supported != set(ptxas.arches):
        problems.append(f"ptxas {ptxas.release} targets {sorted(ptxas.arches)}, the table says {sorted(supported)}")
    nvcc = Path(ptxas.path).with_name("nvcc")
    if nvcc.exists():
        listed = subprocess.run([str(nvcc), "--list-gpu-code"], capture_output=True, text=True, check=False)
        base = {n for n in supported if split(n)[2] == ""}
        if set(listed.stdout.split()) != base:
            problems.append(f"nvcc --list-gpu-code lists {listed.stdout.split()}, the table says {sorted(base)}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed table; write nothing")
    args = parser.parse_args()
    table = build()
    ptxas = find_ptxas()
    if ptxas is None:
        print("ptxas not found: the table is not checked against a toolkit", file=sys.stderr)
    else:
        table["checked_with"] = f"ptxas {ptxas.release} ({ptxas.path})"
        problems = check(table, ptxas)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            return 1
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        current = OUT.read_text() if OUT.exists() else ""
        stored = json.loads(current or "{}")
        if any(stored.get(key) != table[key] for key in ("arches", "sources", "limit_sources")):
            print(f"{OUT} is out of date: run scripts/gen_arch_table.py", file=sys.stderr)
            return 1
        print(f"{OUT.name} matches the facts and ptxas {ptxas.release if ptxas else '(absent)'}")
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(table['arches'])} arches)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
