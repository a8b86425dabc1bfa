"""``Target.runs_on`` for Arm CPUs, checked against llvm-mc-22.

For every AArch64 CPU LLVM knows, llvm-mc assembles one instruction per feature (the
probes below) with the CPU's llc flags; ``runs_on`` must say that code for one CPU runs
on another only when the second accepts every probe the first does, and each CPU's
features must be what the assembler accepts.
"""

from __future__ import annotations

import pytest

import tcfg
from tcfg.testing import assembler_accepts, require_tool, runs_on_disagreements
from tcfg_aarch64.facts import aarch64, arm, load, system_register_features

#: A feature -> one instruction that needs it (for SVE and SVE2, one not legal in SME's streaming mode).
PROBES = {
    "fullfp16": "fadd h0, h1, h2",
    "dotprod": "sdot v0.4s, v1.16b, v2.16b",
    "sve": "ldff1b {z0.b}, p0/z, [x0, x1]",
    "sve2": "histcnt z0.s, p0/z, z1.s, z2.s",
    "i8mm": "smmla v0.4s, v1.16b, v2.16b",
    "bf16": "bfdot v0.4s, v1.8h, v2.8h",
    "lse": "ldadd w0, w1, [x2]",
    "crc": "crc32b w0, w1, w2",
    "rcpc": "ldapr w0, [x1]",
    "aes": "aese v0.16b, v1.16b",
    "sha3": "eor3 v0.16b, v1.16b, v2.16b, v3.16b",
    "fp16fml": "fmlal v0.2s, v1.2h, v2.2h",
    "jsconv": "fjcvtzs w0, d1",
    "complxnum": "fcmla v0.4s, v1.4s, v2.4s, #0",
    "mte": "irg x0, x1",
    "sme": "zero {za}",
}


@pytest.fixture(scope="module")
def llvm_mc() -> str:
    return require_tool("llvm-mc-22", "apt install llvm-22")


def test_runs_on_agrees_with_llvm_mc_for_every_aarch64_cpu(llvm_mc: str) -> None:
    cpus = [tcfg.Target(f"llvm -mtriple=aarch64-linux-gnu -mcpu={cpu}") for cpu in sorted(aarch64().cpus)]
    cpus.append(tcfg.Target("llvm -mtriple=aarch64-linux-gnu"))  # generic
    table = load("runs_on.json")["system_register_only"]
    accepted = {cpu: assembler_accepts(llvm_mc, cpu, {**PROBES, **table}) for cpu in cpus}
    assert not runs_on_disagreements(accepted, [*PROBES, *table], exempt=system_register_features())
    pairs = [(a.runs_on(b), a, b) for a in cpus[::7] for b in cpus[::5]]
    assert any(ok for ok, *_ in pairs) and not all(ok for ok, *_ in pairs)


#: 32-bit Arm (A32, unified syntax): a feature -> one instruction that needs it.
ARM_PROBES = {
    "neon": "vadd.i32 q0, q1, q2",
    "vfp4": "vfma.f32 s0, s1, s2",
    "fp64": "vadd.f64 d0, d1, d2",
    "hwdiv_arm": "sdiv r0, r1, r2",
    "crc": "crc32b r0, r1, r2",
    "aes": "aese.8 q0, q1",
    "dotprod": "vsdot.s8 d0, d1, d2",
    "fullfp16": "vadd.f16 s0, s1, s2",
    "i8mm": "vsmmla.s8 q0, q1, q2",
    "bf16": "vdot.bf16 d0, d1, d2",
}


def test_runs_on_agrees_with_llvm_mc_for_every_32_bit_a_profile_cpu(llvm_mc: str) -> None:
    cpus = [tcfg.Target(f"llvm -mtriple=arm-linux-gnueabihf -mcpu={cpu}") for cpu in sorted(arm().cpus)]
    cpus = [cpu for cpu in cpus if cpu.features["profile"] == "a"]
    accepted = {cpu: assembler_accepts(llvm_mc, cpu, ARM_PROBES) for cpu in cpus}
    assert not runs_on_disagreements(accepted, ARM_PROBES)
    pairs = [a.runs_on(b) for a in cpus for b in cpus]
    assert any(pairs) and not all(pairs) and len(cpus) > 20


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        ("llvm -mtriple=aarch64-linux-gnu", "raspberry-pi/4b", True),  # generic's trace extensions are not used
        ("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a76", "aws/graviton3", True),
        ("aws/graviton3", "raspberry-pi/4b", False),  # SVE, dotprod, ...
        ("llvm -mtriple=aarch64-linux-gnu -mattr=+sve", "aws/graviton2", False),
        ("llvm -mtriple=aarch64_be-linux-gnu", "raspberry-pi/4b", False),  # endianness
        ("llvm -mtriple=aarch64-linux-android", "raspberry-pi/4b", False),  # another ABI
        ("llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a9", "raspberry-pi/4b", False),  # 32-bit code
        (
            "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a9",
            "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a15",
            True,
        ),
        (
            "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a15",
            "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a9",
            False,
        ),
        (
            "llvm -mtriple=armv7a-linux-gnueabi -mcpu=cortex-a9",
            "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a9",
            False,
        ),
        ("c -mcpu=cortex-m4", "c -mcpu=cortex-m7", True),
        ("c -mcpu=cortex-m55", "c -mcpu=cortex-m4", False),  # Armv8.1-M on Armv7E-M
        ("c -mcpu=cortex-m4", "c -mcpu=cortex-a53", False),  # another profile
    ],
)
def test_arm_cpus(code: str, machine: str, expected: bool) -> None:
    assert tcfg.Target(code).runs_on(tcfg.Target(machine)) is expected
