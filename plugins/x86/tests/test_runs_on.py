"""``Target.runs_on`` for x86 CPUs, checked against clang-22.

x86's assembler takes every instruction whatever the CPU, so the tool here is clang,
which refuses an intrinsic whose target feature the CPU lacks (``always_inline function
'_mm512_add_ps' requires target feature 'avx512f'``), and enables a feature's macro
(``__AVX512F__``) exactly where it allows the feature's intrinsics. For every x86-64 CPU
LLVM knows, the sweep reads the macros with the CPU's clang flags: ``runs_on`` must say
that code for one CPU runs on another only when the second has every feature macro the
first has. For pairs that do not run, clang refuses an intrinsic the code's CPU compiles.
"""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

import tcfg
from tcfg.testing import compiler_accepts, require_tool, runs_on_disagreements
from tcfg_x86.facts import tables

PREAMBLE = "#include <immintrin.h>\n"

#: A feature -> one C function (on one line) calling an intrinsic that needs it.
PROBES = {
    "ssse3": "__m128i f_ssse3(__m128i a) { return _mm_abs_epi8(a); }",
    "sse4_1": "__m128i f_sse41(__m128i a) { return _mm_min_epi32(a, a); }",
    "sse4_2": "__m128i f_sse42(__m128i a) { return _mm_cmpgt_epi64(a, a); }",
    "popcnt": "int f_popcnt(unsigned a) { return _mm_popcnt_u32(a); }",
    "aes": "__m128i f_aes(__m128i a) { return _mm_aesenc_si128(a, a); }",
    "avx": "__m256 f_avx(__m256 a) { return _mm256_add_ps(a, a); }",
    "avx2": "__m256i f_avx2(__m256i a) { return _mm256_add_epi32(a, a); }",
    "fma": "__m256 f_fma(__m256 a) { return _mm256_fmadd_ps(a, a, a); }",
    "f16c": "__m128 f_f16c(__m128i a) { return _mm_cvtph_ps(a); }",
    "bmi2": "unsigned f_bmi2(unsigned a) { return _pdep_u32(a, a); }",
    "sha": "__m128i f_sha(__m128i a) { return _mm_sha256rnds2_epu32(a, a, a); }",
    "gfni": "__m128i f_gfni(__m128i a) { return _mm_gf2p8mul_epi8(a, a); }",
    "avx512f": "__m512 f_avx512f(__m512 a) { return _mm512_add_ps(a, a); }",
    "avx512bw": "__m512i f_avx512bw(__m512i a) { return _mm512_add_epi8(a, a); }",
    "avx512vnni": "__m512i f_avx512vnni(__m512i a) { return _mm512_dpbusd_epi32(a, a, a); }",
    "avx512bf16": "__m512 f_avx512bf16(__m512 a, __m512bh b) { return _mm512_dpbf16_ps(a, b, b); }",
    "avx512fp16": "__m512h f_avx512fp16(__m512h a) { return _mm512_add_ph(a, a); }",
    "avxvnni": "__m256i f_avxvnni(__m256i a) { return _mm256_dpbusd_avx_epi32(a, a, a); }",
    "amx_tile": "void f_amx_tile(void) { _tile_release(); }",
}


@pytest.fixture(scope="module")
def clang() -> str:
    return require_tool("clang-22", "apt install clang-22")


def _macros(clang: str, cpu: tcfg.Target) -> frozenset[str]:
    """The features of ``PROBES`` whose macro (``__AVX512F__``) clang defines with ``cpu``'s flags."""
    flags = cpu.codegen().to_dict()["clang"]
    run = subprocess.run(
        [clang, *flags, "-E", "-dM", "-x", "c", "/dev/null"], capture_output=True, text=True, check=True
    )
    defined = {line.split()[1] for line in run.stdout.splitlines() if line.startswith("#define ")}
    return frozenset(name for name in PROBES if f"__{name.upper()}__" in defined)


def test_runs_on_agrees_with_clang_for_every_x86_64_cpu(clang: str) -> None:
    names = sorted(name for name in tables().cpus if tcfg.Target(f"llvm -mcpu={name}").features["64bit"])
    cpus = [tcfg.Target(f"llvm -mtriple=x86_64-linux-gnu -mcpu={name}") for name in names]
    with ThreadPoolExecutor(2) as pool:
        found = list(pool.map(lambda cpu: _macros(clang, cpu), cpus))
    accepted = dict(zip(cpus, found, strict=True))
    assert not runs_on_disagreements(accepted, PROBES)
    pairs = [a.runs_on(b) for a in cpus for b in cpus]
    assert any(pairs) and not all(pairs) and len(cpus) > 50


@pytest.mark.parametrize(
    ("code", "machine", "feature"),
    [
        ("sapphirerapids", "skylake-avx512", "amx_tile"),
        ("skylake-avx512", "znver3", "avx512f"),
        ("znver4", "znver3", "avx512bf16"),
        ("haswell", "sandybridge", "avx2"),
        ("alderlake", "skylake", "avxvnni"),
    ],
)
def test_where_code_does_not_run_clang_refuses_an_intrinsic_it_uses(
    clang: str, code: str, machine: str, feature: str
) -> None:
    built, device = (tcfg.Target(f"llvm -mtriple=x86_64-linux-gnu -mcpu={cpu}") for cpu in (code, machine))
    assert not built.runs_on(device)
    probe = {feature: PROBES[feature]}
    assert compiler_accepts(clang, built, probe, PREAMBLE) == {feature}
    assert compiler_accepts(clang, device, probe, PREAMBLE) == frozenset()


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        ("llvm -mtriple=x86_64-linux-gnu -mcpu=haswell", "aws/c5.large", True),
        ("llvm -mtriple=x86_64-linux-gnu -mcpu=skylake-avx512", "aws/c5.large", True),
        ("llvm -mtriple=x86_64-linux-gnu -mcpu=sapphirerapids", "aws/c5.large", False),  # AMX, AVX512-FP16
        ("llvm -mtriple=x86_64-linux-gnu -mcpu=znver4", "llvm -mtriple=x86_64-linux-gnu -mcpu=znver3", False),
        ("llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64-v3", "llvm -mtriple=x86_64-linux-gnu -mcpu=znver3", True),
        ("llvm -mtriple=i686-linux-gnu", "llvm -mtriple=x86_64-linux-gnu", False),  # another architecture and ABI
        ("llvm -mtriple=x86_64-windows-msvc", "llvm -mtriple=x86_64-linux-gnu", False),  # another OS
        ("llvm -mtriple=x86_64-pc-linux-gnu", "llvm -mtriple=x86_64-unknown-linux-gnu", True),  # vendors do not count
    ],
)
def test_x86_cpus(code: str, machine: str, expected: bool) -> None:
    assert tcfg.Target(code).runs_on(tcfg.Target(machine)) is expected
