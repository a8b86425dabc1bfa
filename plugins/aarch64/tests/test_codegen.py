"""Codegen configuration, and assembly emitted by it (through llvmlite's LLVM) for real vector ISAs."""

from __future__ import annotations

import re

import pytest

# y[i] += a * x[i]: the loop vectoriser turns it into fused multiply-adds.
SAXPY = """
define void @saxpy(ptr noalias %x, ptr noalias %y, float %a, i32 %n) {
entry:
  %cmp = icmp sgt i32 %n, 0
  br i1 %cmp, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr inbounds float, ptr %x, i32 %i
  %py = getelementptr inbounds float, ptr %y, i32 %i
  %vx = load float, ptr %px, align 4
  %vy = load float, ptr %py, align 4
  %r = call float @llvm.fmuladd.f32(float %a, float %vx, float %vy)
  store float %r, ptr %py, align 4
  %next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
declare float @llvm.fmuladd.f32(float, float, float)
"""


def test_codegen_config_a72(make) -> None:
    cg = make("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=-crc").codegen()
    d = cg.to_dict()
    assert d["triple"] == "aarch64-linux-gnu"
    assert d["cpu"] == "cortex-a72"
    assert d["features"] == "-crc"
    assert d["float_abi"] is None
    assert "-mcpu=cortex-a72" in d["clang"] and "-mattr=-crc" in d["llc"]


def test_noaes_also_drops_sha2_as_clang_22_does(make) -> None:
    # clang-22: -mcpu=cortex-a72+noaes gives "-aes,...,-sha2" (the legacy crypto link).
    t = make("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72+noaes")
    assert t.features.aes is False and t.features.sha2 is False
    assert set(t.codegen().to_dict()["features"].split(",")) == {"-aes", "-sha2"}


def test_codegen_removal_closure_in_feature_string(make) -> None:
    # LLVM's -mattr=-neon also removes what implies NEON (dotprod...), so llc needs only
    # "-neon"; SVE does not imply NEON in LLVM 22 and stays.
    t = make("llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-v1 -mattr=-neon")
    assert t.codegen().to_dict()["features"] == "-neon"
    assert t.features.neon is False and t.features.dotprod is False and t.features.sve is True


def test_codegen_m55_without_triple_picks_thumb_eabihf(make) -> None:
    d = make("c -mcpu=cortex-m55").codegen().to_dict()
    assert d["triple"] == "thumbv8.1m.main-none-eabihf"
    assert d["float_abi"] == "hard"
    assert d["features"] == ""
    assert "-mfloat-abi=hard" in d["clang"] and "-float-abi=hard" in d["llc"]


def test_codegen_soft_float_turns_off_mve(make) -> None:
    t = make("c -mtriple=arm-none-eabi -mcpu=cortex-m55")
    d = t.codegen().to_dict()
    assert d["triple"] == "thumbv8.1m.main-none-eabi"
    assert "+soft-float" in d["features"].split(",")
    assert t.features.mve is False and t.features.mve_fp is False


def test_codegen_march_only(make) -> None:
    d = make("llvm -mtriple=aarch64-linux-gnu -march=armv8.2-a+dotprod").codegen().to_dict()
    assert d["cpu"] == "generic"
    # +v8.2a implies +lse (and the rest of Armv8.1), so the shortest -mattr leaves it out
    assert {"+v8.2a", "+dotprod"} <= set(d["features"].split(","))


def _asm(make, spec: str) -> str:
    """Assembly for SAXPY emitted by the target's codegen (llvmlite's LLVM, the 'llvm' extra)."""
    pytest.importorskip("llvmlite.binding", reason="emitting assembly needs llvmlite (the 'llvm' extra)")
    return make(spec).codegen().emit_assembly(SAXPY)


def test_neon_fmla_for_cortex_a72(make) -> None:
    asm = _asm(make, "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72")
    assert re.search(r"\bfmla\s+v\d+\.4s", asm), asm


def test_no_neon_means_no_vector_fmla(make) -> None:
    asm = _asm(make, "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=-neon")
    assert not re.search(r"\bv\d+\.4s", asm), asm


def test_sve_uses_z_registers(make) -> None:
    asm = _asm(make, "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+sve")
    assert re.search(r"\bz\d+\.s\b", asm), asm


def test_mve_uses_q_registers_for_cortex_m55_hard_float(make) -> None:
    asm = _asm(make, "c -mtriple=thumbv8.1m.main-none-eabihf -mcpu=cortex-m55")
    assert re.search(r"\bvfma\.f32\s+q\d+", asm), asm


def test_mve_off_under_soft_float(make) -> None:
    asm = _asm(make, "c -mtriple=thumbv8.1m.main-none-eabi -mcpu=cortex-m55")
    assert not re.search(r"\bq\d+\b", asm), asm
