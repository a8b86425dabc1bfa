"""Asking compilers what they know: running them, reading their name tables and subtargets,
and writing ``core/tcfg/data/compilers.json`` in its one layout.

Shared by ``generate_compilers.py`` (the whole table and its partial modes) and the modules
that measure one part of it (``drift_classes.py``, ``riscv_march.py``, ``riscv_split.py``),
which this module does not import.
"""

from __future__ import annotations

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
    """(CPU names, feature names) of the backend inside ``clang`` for ``triple``.

    Read from clang's ``-target-feature +help``; where that prints no name at all (clang-14
    for RISC-V: exit 0, no output), from the ``llc`` of the same LLVM (beside ``clang``'s
    real path, ``/usr/lib/llvm-N/bin/llc``) with ``-mtriple=TRIPLE -mattr=help``, which
    prints the same backend's CPU and feature tables. Only then: every other version's
    names are clang's.
    """
    out = run([clang, f"--target={triple}", "-Xclang", "-target-feature", "-Xclang", "+help", "-c", "-x", "c",
               os.devnull, "-o", os.devnull])  # fmt: skip
    cpus, feats = help_names(out.stdout + out.stderr)
    if cpus or feats:
        return cpus, feats
    llc = Path(shutil.which(clang) or clang).resolve().parent / "llc"
    if not llc.is_file():
        return cpus, feats
    out = run([str(llc), f"-mtriple={triple}", "-mattr=help", os.devnull, "-o", os.devnull])
    return help_names(out.stdout + out.stderr)


def help_names(text: str) -> tuple[list[str], list[str]]:
    """(CPU names, feature names) of an LLVM ``+help``/``-mattr=help`` listing (its two tables)."""
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


def hardware(arch: str) -> frozenset[str]:
    """The hardware feature names of the plugin that owns ``arch`` (those the subtarget probe can read).

    RISC-V leaves out what a 64-bit subtarget refuses to be given alone (``e``, ``zilsd``,
    ``zclsd`` and the vendor ``x*`` extensions that are RV32-only, ``zvl*b`` without a vector
    extension, and before LLVM 17 ``zve32f``/``zve64f``/``zve64d`` without ``f``/``d``) or
    next to C and D (``zcmp``, ``zcmt``, ``zce``) or F (``zfinx`` and its kin): those are not compared.
    """
    if arch == "aarch64":
        from tcfg_aarch64.facts import aarch64

        return aarch64().hardware - UMBRELLA
    if arch == "arm":
        from tcfg_aarch64.facts import arm

        return arm().hardware
    if arch == "riscv64":
        from tcfg_riscv.facts import tables as riscv_tables

        rv = riscv_tables()
        return frozenset(
            name
            for name in rv.extensions
            if name not in rv.tune_only
            and name not in ("e", "zilsd", "zclsd", "zve32f", "zve64f", "zve64d", "zcmp", "zcmt", "zce")
            and name not in ("zfinx", "zdinx", "zhinx", "zhinxmin")
            and not name.startswith(("x", "zvl"))
        )  # fmt: skip
    from tcfg_x86.facts import tables

    return tables().isa - UMBRELLA


def subtargets(major: int, triple: str, configs: list[tuple[str, str]], probe: list[str]) -> list[frozenset[str]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "truth"))
    import llvm  # the truth sweep's reader of LLVM subtargets

    opt = llvm.find(f"opt-{major}")
    assert opt is not None, f"opt-{major}"
    return llvm.subtarget_features(opt, triple, configs, probe)


@functools.cache
def cpu_ok(major: int, triple: str, cpu: str, feature: str) -> bool:
    """Whether LLVM ``major`` builds a subtarget for ``cpu`` under ``triple`` at all (asked about ``feature``)."""
    try:
        subtargets(major, triple, [(cpu, "")], [feature])
    except RuntimeError:
        return False
    return True


@functools.cache
def probe_for(major: int, triple: str, names: tuple[str, ...]) -> list[str]:
    """``names`` less those LLVM ``major`` aborts on when a subtarget is given one alone (RISC-V's checks)."""
    ok = []
    for name in names:
        try:
            subtargets(major, triple, [("", "")], [name])
            ok.append(name)
        except RuntimeError:
            print(f"opt-{major} {triple}: +{name} alone is refused; not probed")
    return ok


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


def add(table: dict[str, dict[str, list[int]]], what: str, names: Iterable[str], version: int) -> None:
    """Note that ``version`` has each of ``names`` in ``table[what]`` (made, if absent, even for no names)."""
    bucket = table.setdefault(what, {})
    for name in names:
        bucket.setdefault(name, []).append(version)


def write_table(data: dict[str, Any]) -> None:
    """Write ``data`` to :data:`OUT` in the table's one layout (sorted keys, one-space indent)."""
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
