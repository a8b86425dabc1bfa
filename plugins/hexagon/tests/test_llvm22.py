"""tcfg against clang-22 and llc-22: every Hexagon CPU, every HVX variant and version.

For each CPU clang lists and each set of clang driver flags below, clang accepting the
flags (with only features llc knows) must match tcfg accepting the same settings as
``-mattr``; where both accept, the codegen's feature list must be the set clang gives a
function, tcfg's features must match clang's predefined macros, clang with the
codegen's ``clang_flags()`` must give the same features, and llc must compile with the
codegen's ``llc_flags()`` without a warning.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import tcfg
import tcfg_hexagon

# clang driver flags -> the same request as -mattr items
VARIANTS: list[tuple[list[str], list[str]]] = [
    ([], []),
    (["-mhvx"], ["+hvx"]),
    (["-mhvx", "-mhvx-length=64b"], ["+hvx", "+hvx-length64b"]),
    (["-mhvx", "-mhvx-length=128b"], ["+hvx", "+hvx-length128b"]),
    (["-mhvx", "-mhvx-qfloat"], ["+hvx", "+hvx-qfloat"]),
    (["-mhvx", "-mhvx-ieee-fp"], ["+hvx", "+hvx-ieee-fp"]),
    (
        ["-mhvx", "-mhvx-length=64b", "-mhvx-qfloat", "-mno-hvx-ieee-fp"],
        ["+hvx", "+hvx-length64b", "+hvx-qfloat", "-hvx-ieee-fp"],
    ),
    (["-mhvx-length=128b"], ["+hvx-length128b"]),
    (["-mhvx-qfloat"], ["+hvx-qfloat"]),
]


def _target(reg: tcfg.Registry, cpu: str, mattr: list[str]) -> tcfg.Target | tcfg.TargetError:
    spec = f"hexagon -mcpu={cpu}" + (f" -mattr={','.join(mattr)}" if mattr else "")
    try:
        return tcfg.Target(spec, registry=reg)
    except tcfg.TargetError as exc:
        return exc


def _check(llvm: Any, reg: tcfg.Registry, known: set[str], cpu: str, flags: list[str], mattr: list[str]) -> list[str]:
    """What disagrees between clang/llc and tcfg for ``-mcpu=cpu`` with ``flags``."""
    where = f"-mcpu={cpu} {' '.join(flags)}"
    clang_flags = ["--target=hexagon", f"-mcpu={cpu}", *flags]
    feats = llvm.ir_features(clang_flags)
    usable = feats is not None and all(f[1:] in known for f in feats)
    got = _target(reg, cpu, mattr)
    if isinstance(got, tcfg.TargetError) or not usable:
        if isinstance(got, tcfg.TargetError) != (not usable):
            return [f"{where}: clang {'accepts' if usable else 'refuses'} ({feats}), tcfg says {got}"]
        return []
    assert feats is not None
    problems = []
    cg = got.codegen()
    if sorted(cg.features) != sorted(feats):
        problems.append(f"{where}: clang enables {sorted(feats)}, tcfg's codegen {sorted(cg.features)}")
    macros = llvm.macros(clang_flags)
    f = got.features
    expected = {
        "hexagon_arch": int(macros["__HEXAGON_ARCH__"]),
        "hvx": "__HVX__" in macros,
        "hvx_version": int(macros.get("__HVX_ARCH__", 0)) or False,
        "hvx_length": int(macros.get("__HVX_LENGTH__", 0)) or False,
        "hvx_ieee_fp": "__HVX_IEEE_FP__" in macros,
        "hvx_qfloat": "+hvx-qfloat" in feats,
        "audio": "__HEXAGON_AUDIO__" in macros,
    }
    for name, value in expected.items():
        if f[name] != value:
            problems.append(f"{where}: {name} is {f[name]!r} in tcfg, {value!r} by clang")
    again = llvm.ir_features(cg.clang_flags())
    if again is None or sorted(again) != sorted(cg.features):
        problems.append(f"{where}: clang {cg.clang_flags()} enables {again}, not {list(cg.features)}")
    proc = llvm.compile_ir(cg.llc_flags())
    if proc.returncode != 0 or proc.stderr.strip() or "f:" not in proc.stdout:
        problems.append(f"{where}: llc-22 {cg.llc_flags()}: {proc.stderr.strip()[:300]}")
    return problems


def _sweep(jobs: list[tuple[str, list[str], list[str]]], llvm: Any, reg: tcfg.Registry) -> Iterator[str]:
    known = llvm.llc_features()
    with ThreadPoolExecutor(2) as pool:
        for found in pool.map(lambda job: _check(llvm, reg, known, *job), jobs):
            yield from found


def test_cpu_list_is_clangs(llvm: Any, reg: tcfg.Registry) -> None:
    listed = llvm.cpus()
    assert "generic" in listed and llvm.ir_features(["--target=hexagon", "-mcpu=generic"]) is None
    assert tcfg_hexagon.cpu_names() == [c for c in listed if c != "generic"]
    with pytest.raises(tcfg.TargetError, match=r"did you mean|valid choices"):
        tcfg.Target("hexagon -mcpu=generic", registry=reg)


def test_every_cpu_and_hvx_variant(llvm: Any, reg: tcfg.Registry) -> None:
    jobs = [(cpu, flags, mattr) for cpu in tcfg_hexagon.cpu_names() for flags, mattr in VARIANTS]
    problems = list(_sweep(jobs, llvm, reg))
    assert not problems, "\n".join(problems)
    assert len(jobs) == 16 * len(VARIANTS)


def test_every_cpu_with_every_hvx_version(llvm: Any, reg: tcfg.Registry) -> None:
    versions = sorted(int(f[4:]) for f in llvm.llc_features() if f.startswith("hvxv"))
    jobs = [(cpu, [f"-mhvx=v{v}"], [f"+hvxv{v}"]) for cpu in tcfg_hexagon.cpu_names() for v in versions]
    problems = list(_sweep(jobs, llvm, reg))
    assert not problems, "\n".join(problems)


def test_default_cpu_is_clangs(llvm: Any, reg: tcfg.Registry) -> None:
    t = tcfg.Target("hexagon", registry=reg)
    assert sorted(t.codegen().features) == sorted(llvm.ir_features(["--target=hexagon"]) or [])
    assert t.features.hexagon_arch == int(llvm.macros(["--target=hexagon"])["__HEXAGON_ARCH__"])


def test_tags_compile(llvm: Any, reg: tcfg.Registry) -> None:
    for name in reg.list_tags("qcom/hexagon"):
        cg = tcfg.Target(name, registry=reg).codegen()
        proc = llvm.compile_ir(cg.llc_flags())
        assert proc.returncode == 0 and not proc.stderr.strip(), (name, proc.stderr)
        assert sorted(llvm.ir_features(cg.clang_flags()) or []) == sorted(cg.features), name


def test_committed_table_is_what_the_tools_say(llvm: Any) -> None:
    script = Path(__file__).resolve().parents[1] / "scripts" / "generate_data.py"
    proc = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
