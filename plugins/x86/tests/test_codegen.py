"""Codegen configuration, and assembly emitted through llvmlite's LLVM."""

from __future__ import annotations

import pytest

T64 = "llvm -mtriple=x86_64-linux-gnu"

LOOP = """
define void @scale(ptr noalias %out, ptr noalias %in, float %k, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds float, ptr %in, i64 %i
  %dst = getelementptr inbounds float, ptr %out, i64 %i
  %v = load float, ptr %src
  %m = fmul float %v, %k
  store float %m, ptr %dst
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"""


def test_codegen_dict(make) -> None:
    cg = make(f"{T64} -mcpu=skylake-avx512").codegen().to_dict()
    assert cg["cpu"] == "skylake-avx512" and cg["triple"] == "x86_64-linux-gnu"
    assert "-march=skylake-avx512" in cg["clang"] and "-mcpu=skylake-avx512" in cg["llc"]
    assert cg["preferred_vector_width"] == 256
    assert "prefer-256-bit" in cg["vector_width_source"]
    assert any("-vector-width" in n for n in cg["notes"])


@pytest.mark.parametrize(("cpu", "noted"), [("skylake_avx512", True), ("diamondrapids", False), ("generic", False)])
def test_codegen_notes_when_clang_refuses_the_march(make, cpu: str, noted: bool) -> None:
    """The data knows skylake_avx512's features (from clang's cpu_specific), but clang still refuses the -march."""
    cg = make(f"{T64} -mcpu={cpu}").codegen().to_dict()
    assert any(f"does not accept -march={cpu}" in n for n in cg["notes"]) is noted
    assert any(f"-march={cpu}" in flag for flag in cg["clang"]) is (cpu != "generic")


def test_codegen_honours_vector_width_and_mattr(make) -> None:
    cg = make(f"{T64} -mcpu=skylake-avx512 -mattr=+amx_int8 -vector-width=512").codegen().to_dict()
    assert cg["preferred_vector_width"] == 512 and cg["vector_width_source"] == "-vector-width=512"
    assert cg["features"] == "+amx-int8,-prefer-128-bit,-prefer-256-bit"
    assert "-mprefer-vector-width=512" in cg["clang"]
    narrow = make(f"{T64} -mcpu=znver4 -vector-width=256").codegen().to_dict()
    assert "+prefer-256-bit" in narrow["features"]


@pytest.fixture(scope="module")
def llvmlite() -> object:
    return pytest.importorskip("llvmlite.binding", reason="emitting assembly needs llvmlite (the 'llvm' extra)")


@pytest.mark.parametrize(
    ("spec", "register", "not_register"),
    [
        ("-mcpu=haswell", "%ymm", "%zmm"),
        ("-mcpu=znver4", "%zmm", None),
        ("-mcpu=skylake-avx512", "%ymm", "%zmm"),
        ("-mcpu=skylake-avx512 -vector-width=512", "%zmm", None),
        ("-mcpu=znver4 -vector-width=256", "%ymm", "%zmm"),
        ("-mcpu=znver4 -mattr=-avx512f", "%ymm", "%zmm"),
    ],
)
def test_emitted_assembly_uses_the_chosen_width(
    make, llvmlite: object, spec: str, register: str, not_register: str | None
) -> None:
    asm = make(f"{T64} {spec}").codegen().emit_assembly(LOOP)
    assert register in asm
    if not_register:
        assert not_register not in asm
