"""``Target.runs_on`` for RISC-V CPUs, checked against llvm-mc-22.

For every RISC-V CPU LLVM knows, llvm-mc assembles one instruction per extension (the
probes below) with the CPU's llc flags; ``runs_on`` must say that code for one CPU runs
on another only when the second accepts every probe the first does, and each CPU's
extensions must be what the assembler accepts.
"""

from __future__ import annotations

import pytest

import tcfg
from tcfg.testing import assembler_accepts, require_tool, runs_on_disagreements
from tcfg_riscv.facts import tables

#: An extension -> one instruction that needs it and no other extension the CPUs may have.
PROBES = {
    "m": "div a0, a1, a2",  # Zmmul has mul, not div
    "zaamo": "amoadd.w a0, a1, (a2)",
    "zalrsc": "lr.w a0, (a1)",
    "f": "fadd.s fa0, fa1, fa2",
    "d": "fadd.d fa0, fa1, fa2",
    "zca": "c.add a0, a1",
    "zba": "sh1add a0, a1, a2",
    "zbb": "cpop a0, a1",
    "zbs": "bset a0, a1, a2",
    "zbc": "clmulr a0, a1, a2",
    "zfh": "fadd.h fa0, fa1, fa2",
    "zicond": "czero.eqz a0, a1, a2",
    "zfa": "fminm.s fa0, fa1, fa2",
    "zve32x": "vsetvli t0, a0, e32, m1, ta, ma",
    "zve64x": "vle64.v v0, (a0)",
    "zve32f": "vfadd.vv v0, v1, v2",
}


@pytest.fixture(scope="module")
def llvm_mc() -> str:
    return require_tool("llvm-mc-22", "apt install llvm-22")


def test_runs_on_agrees_with_llvm_mc_for_every_riscv_cpu(llvm_mc: str) -> None:
    # "generic" names no RISC-V CPU: without a triple it is the host's, which another plugin answers for
    cpus = [tcfg.Target(f"llvm -mcpu={cpu}") for cpu in sorted(tables().cpus) if cpu != "generic"]
    accepted = {cpu: assembler_accepts(llvm_mc, cpu, PROBES) for cpu in cpus}
    assert not runs_on_disagreements(accepted, PROBES)
    pairs = [a.runs_on(b) for a in cpus for b in cpus]
    assert any(pairs) and not all(pairs)


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        ("llvm -mcpu=sifive-u74", "llvm -mcpu=sifive-x280", True),
        ("llvm -mcpu=sifive-x280", "llvm -mcpu=sifive-u74", False),  # V
        ("llvm -mcpu=generic-rv64", "llvm -mcpu=sifive-u74", True),
        ("llvm -mcpu=generic-rv32", "llvm -mcpu=sifive-u74", False),  # another XLEN
        (
            "llvm -mtriple=riscv64-linux-gnu -mattr=+v,+zvl512b",
            "llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-x280",
            True,
        ),
        (
            "llvm -mtriple=riscv64-linux-gnu -mattr=+v,+zvl1024b",
            "llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-x280",
            False,
        ),
        ("llvm -mtriple=riscv64-linux-gnu -mabi=lp64", "llvm -mtriple=riscv64-linux-gnu -mattr=+d -mabi=lp64d", False),
    ],
)
def test_riscv_cpus(code: str, machine: str, expected: bool) -> None:
    assert tcfg.Target(code).runs_on(tcfg.Target(machine)) is expected
