"""The truth test: tcfg's RISC-V features against what clang-22 and llc-22 themselves enable.

For every CPU clang-22 lists, the extensions tcfg reports equal clang-22's
``--print-enabled-extensions``; for every CPU and a set of ``-mattr`` variants, llc-22 accepts
tcfg's llc flags (no warning) and the ISA string it writes (``.attribute 5``) names exactly
tcfg's extensions; clang-22 accepts tcfg's clang flags.
"""

from __future__ import annotations

import re
import subprocess

import pytest

import tcfg
from tcfg_riscv.facts import tables

CPUS = sorted(tables().cpus)
#: -mattr variants applied to several CPUs: additions with implications, removals with dependents.
VARIANTS = (
    "+v", "+zvfh", "+v,+zvfh", "-c", "-f", "-d", "-v", "+zba,+zbb,-zbb", "+rva23u64", "+f,-zicsr",
    "+v,+zvl256b", "+v,+zvl512b",
)  # fmt: skip
VARIANT_CPUS = ("generic", "sifive-u74", "sifive-x280", "spacemit-x60", "sifive-p670", "sifive-e76", "spacemit-x100")
_VERSIONED = re.compile(r"^([a-z][a-z0-9]*?)\d+p\d+$")


def _isa(text: str) -> set[str]:
    parts = text.split("_")
    return {_VERSIONED.match(p).group(1) for p in [re.sub(r"^rv(32|64)", "", parts[0]), *parts[1:]]}  # type: ignore[union-attr]


def _spec(cpu: str, mattr: str = "") -> str:
    xlen = tables().cpus[cpu].xlen or 64
    return f"llvm -mtriple=riscv{xlen}-unknown-linux-gnu -mcpu={cpu}" + (f" -mattr={mattr}" if mattr else "")


def _extensions(target: tcfg.Target) -> set[str]:
    return {name for name in tables().extensions if target.features[name] is True}


@pytest.mark.parametrize("cpu", [c for c in CPUS if tables().cpus[c].clang_mcpu])
def test_cpu_extensions_equal_clang(reg: tcfg.Registry, clang: str, cpu: str) -> None:
    entry = tables().cpus[cpu]
    arg = f"-mcpu={cpu}" if entry.llvm22 else f"-march={_march(cpu)}"
    proc = subprocess.run(
        [clang, f"--target=riscv{entry.xlen}-linux-gnu", "-menable-experimental-extensions", arg,
         "--print-enabled-extensions"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    isa = re.search(r"ISA String: (\S+)", proc.stdout + proc.stderr)
    assert isa is not None
    assert _extensions(tcfg.Target(_spec(cpu), registry=reg)) == _isa(isa.group(1))


def _march(cpu: str) -> str:
    import json
    from pathlib import Path

    import tcfg_riscv

    raw = json.loads((Path(tcfg_riscv.__file__).parent / "data" / "riscv.json").read_text())
    march: str = raw["cpus"][cpu]["march"]
    return march


#: Variants tcfg refuses because llc-22 stops with a fatal error on them.
REFUSED = {
    ("sifive-e76", "+rva23u64"): "RV32 and RV64",
    **{(c, "+f,-zicsr"): "'zvl*b' requires" for c in ("sifive-x280", "spacemit-x60", "sifive-p670")},
}
#: Where tcfg differs from llc-22: RISCVISAInfo's conditional rules for C (C implies Zcd with D, and
#: Zcf with F on RV32; Zca, with those, reads as C) are not modelled, and the ISA-string combination
#: of C from Zca makes tcfg's -c drop Zca, which llc-22 keeps.
KNOWN = {
    (c, "-c"): "-c keeps Zca in LLVM" for c in ("sifive-u74", "sifive-x280", "spacemit-x60", "sifive-p670",
                                               "sifive-e76", "spacemit-x100")
} | {
    ("sifive-e76", v): "C implies Zcd once +v brings D" for v in ("+v", "+v,+zvfh", "+v,+zvl256b", "+v,+zvl512b")
}  # fmt: skip
CASES = [(cpu, "") for cpu in CPUS] + [
    pytest.param(cpu, v, marks=pytest.mark.xfail(strict=True, reason=KNOWN[cpu, v])) if (cpu, v) in KNOWN else (cpu, v)
    for cpu in VARIANT_CPUS
    for v in VARIANTS
    if (cpu, v) not in REFUSED and (cpu, v) != ("spacemit-x100", "+f,-zicsr")  # refused like the three above
]


@pytest.mark.parametrize(("cpu", "mattr"), sorted(REFUSED))
def test_tcfg_refuses_what_llc_aborts_on(reg: tcfg.Registry, llc: str, cpu: str, mattr: str) -> None:
    xlen = tables().cpus[cpu].xlen or 64
    proc = subprocess.run(
        [llc, f"-mtriple=riscv{xlen}", f"-mcpu={cpu}", f"-mattr={mattr}", "-o", "-"],
        input="", capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode != 0 and REFUSED[cpu, mattr] in proc.stderr
    with pytest.raises(tcfg.TargetError):
        tcfg.Target(_spec(cpu, mattr), registry=reg)


@pytest.mark.parametrize(("cpu", "mattr"), CASES)
def test_llc_accepts_the_flags_and_enables_the_same(reg: tcfg.Registry, llc: str, cpu: str, mattr: str) -> None:
    target = tcfg.Target(_spec(cpu, mattr), registry=reg)
    flags = target.codegen().llc_flags()  # type: ignore[attr-defined]
    proc = subprocess.run([llc, *flags, "-o", "-"], input="", capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "not a recognized" not in proc.stderr, proc.stderr
    isa = re.search(r'\.attribute\s+5, "([^"]+)"', proc.stdout)
    assert isa is not None
    assert _extensions(target) == _isa(isa.group(1))


@pytest.mark.parametrize(("cpu", "mattr"), [(c, "") for c in VARIANT_CPUS] + [("sifive-u74", "+v,+zvfh")])
def test_clang_accepts_the_flags(reg: tcfg.Registry, clang: str, cpu: str, mattr: str) -> None:
    target = tcfg.Target(_spec(cpu, mattr) + " -mabi=" + ("ilp32" if "e76" in cpu else "lp64"), registry=reg)
    flags = target.codegen().clang_flags()  # type: ignore[attr-defined]
    proc = subprocess.run(
        [clang, *flags, "-c", "-x", "c", "-", "-o", "/dev/null"],
        input="int f(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }\n",
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
