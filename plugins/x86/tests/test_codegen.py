"""Codegen configuration, and assembly emitted through llvmlite's LLVM."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tcfg_x86.codegen import clang_twin
from tcfg_x86.facts import tables

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


def _triple(cpu: str) -> str:
    return "x86_64-linux-gnu" if tables().cpus[cpu].is_64bit else "i686-linux-gnu"


def _marches(flags: list[str]) -> list[str]:
    return [flag.removeprefix("-march=") for flag in flags if flag.startswith("-march=")]


@pytest.mark.parametrize(
    ("cpu", "march"),
    [
        ("skylake_avx512", "skylake-avx512"),
        ("icelake_server", "icelake-server"),
        ("core_4th_gen_avx", "core-avx2"),
        ("pentium_iii", "pentium3"),
        ("diamondrapids", "diamondrapids"),
    ],
)
def test_clang_gets_a_twin_when_it_refuses_the_march(make, cpu: str, march: str | None) -> None:
    """clang refuses -march=skylake_avx512, so it gets skylake-avx512 (same LLVM features); llc keeps the CPU."""
    cg = make(f"llvm -mtriple={_triple(cpu)} -mcpu={cpu}").codegen().to_dict()
    assert _marches(cg["clang"]) == [march]
    assert f"-mcpu={cpu}" in cg["llc"]
    refused = [n for n in cg["notes"] if "does not accept" in n]
    if march == cpu:
        assert refused == []
    else:
        assert len(refused) == 1
        assert f"-march={cpu}, so clang gets -march={march}, whose LLVM feature set is identical" in refused[0]


@pytest.mark.parametrize(
    ("triple", "march", "extra"),
    [("x86_64-linux-gnu", "x86-64", ["-cmov", "-fxsr", "-mmx"]), ("i686-linux-gnu", "i386", ["+cx8"])],
)
def test_generic_gets_the_base_cpu_with_its_extra_features_removed(make, triple, march, extra) -> None:
    """Defect: clang without -march builds x86-64 (cmov, fxsr, mmx), which LLVM's generic lacks."""
    cg = make(f"llvm -mtriple={triple} -mcpu=generic").codegen()
    flags = cg.clang_flags()
    assert _marches(flags) == [march]
    assert [flags[i + 2] for i, f in enumerate(flags) if f == "-target-feature"] == extra
    assert "-mcpu=generic" in cg.llc_flags() and not any(f.startswith("-mattr") for f in cg.llc_flags())


@pytest.mark.parametrize(
    ("cpu", "llc", "clang"),
    [
        ("skylake", ["+sgx"], []),
        ("tigerlake", ["+kl", "+sgx", "+widekl"], []),
        ("knl", ["+invpcid"], []),
        ("znver4", [], ["+cmov"]),
        ("znver5", [], ["+cmov"]),
        ("k8-sse3", [], ["+cmov", "+cx16"]),  # LLVM's k8-sse3 has cmpxchg16b, clang's table not
        ("sapphirerapids", ["+sgx"], []),
    ],
)
def test_each_tool_is_told_what_its_own_table_lacks(make, cpu, llc, clang) -> None:
    """Defect: clang's CPU table and LLVM's backend definition differ (sgx, kl, widekl, invpcid; cmov on AMD).

    The target has the union (what clang-22 compiles -march=X with); llc is told what its
    backend definition lacks, clang what its table lacks.
    """
    t = make(f"{T64} -mcpu={cpu}")
    for feature in (*llc, *clang):
        assert t.features[feature[1:]] is True
    cg = t.codegen()
    mattr = [f.removeprefix("-mattr=") for f in cg.llc_flags() if f.startswith("-mattr=")]
    assert mattr == ([",".join(llc)] if llc else [])
    flags = cg.clang_flags()
    assert [flags[i + 2] for i, f in enumerate(flags) if f == "-target-feature"] == clang


def test_cpu_extras_come_before_the_users_mattr(make) -> None:
    """A user's -mattr=-sgx still wins over the +sgx llc is told for skylake (LLVM applies them in order)."""
    t = make(f"{T64} -mcpu=skylake -mattr=-sgx")
    assert t.features.sgx is False
    assert "-mattr=+sgx,-sgx" in t.codegen().llc_flags()


@pytest.mark.parametrize("cpu", sorted(cpu for cpu, twins in tables().march_twins.items() if twins))
def test_clang_march_is_one_clang_accepts_with_the_same_features(make, cpu: str) -> None:
    cg = make(f"llvm -mtriple={_triple(cpu)} -mcpu={cpu}").codegen().to_dict()
    (march,) = _marches(cg["clang"])
    assert march in tables().march_twins[cpu]
    assert tables().cpus[march].clang_march
    assert tables().cpus[march].features == tables().cpus[cpu].features
    assert f"-mcpu={cpu}" in cg["llc"]


def test_the_hyphenated_spelling_is_the_twin_chosen() -> None:
    """Where LLVM spells the CPU with hyphens too (skylake-avx512, not skx), clang gets that spelling."""
    hyphenated = {cpu: cpu.replace("_", "-") for cpu, twins in tables().march_twins.items()}
    chosen = {cpu: clang_twin(cpu) for cpu, twin in hyphenated.items() if twin in tables().march_twins[cpu]}
    assert len(chosen) >= 8
    assert chosen == {cpu: hyphenated[cpu] for cpu in chosen}


#: The cpu_dispatch spellings the flags are run through clang for, with one -mattr/-vector-width case.
CLANG_SPECS = [
    "skylake_avx512",
    "icelake_server",
    "core_4th_gen_avx",
    "skylake_avx512 -mattr=-avx512bw -vector-width=512",
]


@pytest.fixture(scope="module")
def clang() -> str:
    """The clang of the data's major version ($TCFG_X86_CLANG, default clang-22), or a skip."""
    name = os.environ.get("TCFG_X86_CLANG", "clang-22")
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"running the clang flags needs {name}")
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout
    found, wanted = (re.search(r"clang version (\d+)\.", text) for text in (version, tables().clang_version))
    assert wanted is not None
    if found is None or found.group(1) != wanted.group(1):
        pytest.skip(f"{name} is {version.splitlines()[0]}, the data is from {tables().clang_version}")
    return path


def _compile(clang: str, flags: list[str]) -> subprocess.CompletedProcess[str]:
    source = "float dot(const float *a, const float *b, int n) {\n"
    source += "  float s = 0; for (int i = 0; i < n; i++) s += a[i] * b[i]; return s;\n}\n"
    command = [clang, *flags, "-c", "-x", "c", "-", "-o", os.devnull]
    return subprocess.run(command, input=source, capture_output=True, text=True, check=False)


@pytest.mark.parametrize("spec", CLANG_SPECS)
def test_clang_compiles_with_the_emitted_flags(make, clang: str, spec: str) -> None:
    cpu = spec.split()[0]
    flags = make(f"{T64} -mcpu={spec}").codegen().clang_flags()
    run = _compile(clang, flags)
    assert run.returncode == 0, (flags, run.stderr)
    # The control: the CPU's own spelling is what clang refuses.
    refused = _compile(clang, [f"-march={cpu}" if flag.startswith("-march=") else flag for flag in flags])
    assert refused.returncode != 0 and f"unknown target CPU '{cpu}'" in refused.stderr


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


@pytest.mark.parametrize("cpu", ["skylake_avx512", "icelake_server", "core_4th_gen_avx"])
def test_llvm_takes_the_cpu_dispatch_spelling(
    make, llvmlite: object, capfd: pytest.CaptureFixture[str], cpu: str
) -> None:
    """llc keeps -mcpu=skylake_avx512: LLVM knows it (it warns and ignores a CPU it does not)."""
    asm = make(f"{T64} -mcpu={cpu}").codegen().emit_assembly(LOOP)
    assert "%ymm" in asm
    assert "not a recognized processor" not in capfd.readouterr().err


@pytest.mark.parametrize(
    ("spec", "extra"),
    [
        ("llvm -mtriple=x86_64-linux-gnu -mcpu=generic -mattr=+avx512f", ["-crc32", "-popcnt", "-xsave"]),
        ("llvm -mtriple=i686-linux-gnu -mcpu=i386 -mattr=+sse4.2", ["-crc32", "-mmx", "-popcnt"]),
        ("llvm -mtriple=x86_64-linux-gnu -mcpu=skylake -mattr=+avx512f", []),
    ],
)
def test_clang_is_told_to_leave_off_what_only_its_frontend_turns_on(make, spec: str, extra: list[str]) -> None:
    """Defect: clang's frontend turns on popcnt and crc32 with sse4.2, xsave with avx, mmx with sse; -mattr does not."""
    t = make(spec)
    for feature in extra:
        assert t.features[feature[1:]] is False
    flags = t.codegen().clang_flags()
    items = [flags[i + 2] for i, f in enumerate(flags) if f == "-target-feature"]
    plus = max(i for i, item in enumerate(items) if item.startswith("+"))
    assert items[plus + 1 :] == extra
