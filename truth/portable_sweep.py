"""The portable vocabulary's truth sweep: every plugin's portable answers against the real tools.

Families (``python truth/sweep.py portable-cpu portable-cuda portable-amdgpu portable-vulkan``):

* ``portable-cpu``: every CPU the aarch64 (AArch64 and 32-bit Arm), x86 and riscv plugins
  know, as ``llvm -mtriple=T -mcpu=C``, against clang-22's predefined macros for the same
  triple and CPU (:data:`MACROS`: ``__ARM_FEATURE_FP16_VECTOR_ARITHMETIC``, ``__AVX512BF16__``,
  ``__riscv_v_min_vlen``, ...), and for a fixed SVE length, clang's ``-msve-vector-bits``
  (``__ARM_FEATURE_SVE_BITS`` must be defined to that length: it is a legal SVE length);
* ``portable-cuda``: every arch of the cuda plugin against ptxas: a PTX instruction per
  answer (:data:`PTX`: ``fma.rn.bf16``, ``mma`` with ``.e4m3``/``.s4`` inputs, ...) must
  assemble exactly where the answer (or the matrix format list) says so;
* ``portable-amdgpu``: every gfx processor of the rocm plugin against llvm-mc-22: a list
  of instructions per answer (:data:`AMDGPU`: MFMA/WMMA/dot instructions of each format);
  the answer is True exactly where one of them assembles;
* ``portable-vulkan``: the ``vulkan/mesa-llvmpipe-22`` tag against ``vulkaninfo`` on the
  CPU Vulkan device (Mesa llvmpipe): shaderFloat16, shaderFloat64, integer dot product,
  cooperative matrix, subgroup size, workgroup size and shared memory.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import llvm
from sweep import SweepResult

__all__ = ["MACROS", "cpu_rows", "macros", "ptx_probes", "sweep"]

Macros = dict[str, str]


def _has(*names: str) -> Callable[[Macros], bool]:
    return lambda m: any(n in m for n in names)


def _arm_fp64(m: Macros) -> bool:
    return "__ARM_FP" in m and bool(int(m["__ARM_FP"], 0) & 8)


def _arm_vector(m: Macros) -> int | None:
    if "__ARM_FEATURE_SVE" in m:
        return None  # the SVE length: checked with -msve-vector-bits
    return 128 if "__ARM_NEON" in m or "__ARM_FEATURE_MVE" in m else 0


def _x86_vector(m: Macros) -> int:
    widths = (("__AVX512F__", 512), ("__AVX__", 256), ("__SSE__", 128), ("__MMX__", 64))
    return next((bits for name, bits in widths if name in m), 0)


def _riscv_min(m: Macros) -> int | None:
    return int(m["__riscv_v_min_vlen"]) if "__riscv_vector" in m else None


#: Per plugin: portable name -> what clang's macros say it is.
MACROS: dict[str, dict[str, Callable[[Macros], object]]] = {
    "arm": {
        "fp16": _has("__ARM_FEATURE_FP16_VECTOR_ARITHMETIC", "__ARM_FEATURE_FP16_SCALAR_ARITHMETIC"),
        "bf16": _has("__ARM_FEATURE_BF16"),
        "fp8_e4m3": _has("__ARM_FEATURE_FP8DOT2", "__ARM_FEATURE_FP8DOT4", "__ARM_FEATURE_FP8FMA"),
        "fp8_e5m2": _has("__ARM_FEATURE_FP8DOT2", "__ARM_FEATURE_FP8DOT4", "__ARM_FEATURE_FP8FMA"),
        "fp64": _arm_fp64,
        "int8_dot": _has("__ARM_FEATURE_DOTPROD", "__ARM_FEATURE_MATMUL_INT8"),
        "matrix": _has("__ARM_FEATURE_SME"),
        "scalable_vectors": _has("__ARM_FEATURE_SVE"),
        "vector_bits": _arm_vector,
    },
    "x86": {
        "fp16": _has("__AVX512FP16__"),
        "bf16": _has("__AVX512BF16__", "__AMX_BF16__"),
        "fp8_e4m3": _has("__AMX_FP8__"),
        "fp8_e5m2": _has("__AMX_FP8__"),
        "int8_dot": _has("__AVX512VNNI__", "__AVXVNNI__", "__AVXVNNIINT8__", "__AMX_INT8__"),
        "matrix": _has("__AMX_TILE__"),
        "vector_bits": _x86_vector,
        "matrix_formats": lambda m: ",".join(
            fmt
            for macro, fmt in (
                ("__AMX_FP16__", "fp16"),
                ("__AMX_BF16__", "bf16"),
                ("__AMX_INT8__", "int8"),
                ("__AMX_FP8__", "fp8_e4m3,fp8_e5m2"),
            )
            if "__AMX_TILE__" in m and macro in m
        ),
    },
    "riscv": {
        "fp16": _has("__riscv_zvfh", "__riscv_zfh"),
        "bf16": _has("__riscv_zvfbfwma"),
        "fp64": _has("__riscv_d"),
        "int8_dot": _has("__riscv_zvqdotq", "__riscv_xsfvqmaccqoq", "__riscv_xsfvqmaccdod"),
        "scalable_vectors": _has("__riscv_vector"),
        "scalable_vector_min_bits": _riscv_min,
    },
}


def macros(clang: str, triple: str, *flags: str) -> Macros:
    """clang's predefined macros for ``triple`` and ``flags`` (``-mcpu=X``), as name -> value."""
    done = llvm.run([clang, f"--target={triple}", *flags, "-E", "-dM", "-x", "c", "/dev/null"])
    if done.returncode != 0:
        raise RuntimeError(f"clang-22 --target={triple} {' '.join(flags)}: {done.stderr.strip()[:300]}")
    return dict(re.findall(r"^#define (\w+) ?(.*)$", done.stdout, re.M))


def _x86_macros(clang: str, triple: str, cpu: str) -> Macros:
    """The macros of x86 ``cpu``: ``-march=X``, or for a name clang refuses there (``skylake_avx512``),
    the target features of its ``cpu_specific(X)`` expansion given to clang's front end."""
    try:
        return macros(clang, triple, f"-march={cpu}")
    except RuntimeError:
        pass
    source = f"__attribute__((cpu_specific({cpu}))) void f(void) {{}}\n"
    argv = [clang, "--target=i386-unknown-linux-gnu", "-march=i386", "-S", "-emit-llvm", "-o", "-", "-x", "c", "-"]
    found = re.search(r'"target-features"="([^"]*)"', llvm.run(argv, source).stdout)
    if found is None:
        raise RuntimeError(f"clang-22 knows {cpu} neither as -march nor as cpu_specific")
    flags = [
        arg
        for item in filter(None, found.group(1).split(","))
        for arg in ("-Xclang", "-target-feature", "-Xclang", item)
    ]
    return macros(clang, triple, "-march=i386" if triple.startswith("i") else "-march=x86-64", *flags)


def _selects_fp16_vectors(llc: str | None, triple: str, cpu: str) -> bool | None:
    """Whether llc-22's instruction selection for ``cpu`` adds <8 x half> with one fadd (fullfp16), or None."""
    if llc is None:
        return None
    ir = "define <8 x half> @f(<8 x half> %a, <8 x half> %b) {\n %c = fadd <8 x half> %a, %b\n ret <8 x half> %c\n}\n"
    done = llvm.run([llc, f"-mtriple={triple}", f"-mcpu={cpu}", "-o", "-", "-"], ir)
    return re.search(r"fadd\s+v\d+\.8h", done.stdout) is not None


def cpu_rows() -> list[tuple[str, str, str]]:
    """(plugin, triple, CPU) for every CPU the aarch64, x86 and riscv plugins know."""
    import tcfg
    from tcfg_aarch64.facts import aarch64, arm

    rows = [("arm", "aarch64-unknown-linux-gnu", cpu) for cpu in aarch64().cpus]
    for name, entry in arm().cpus.items():
        hard = entry.fpu != "none"
        rows.append(("arm", f"{entry.triple_arch}-none-eabi{'hf' if hard else ''}", name))
    parsers = {p.name: p for p in tcfg.Target("llvm").registry.cpu_parsers()}
    for cpu in parsers["x86"].cpu_names():
        rows.append(("x86", "x86_64-unknown-linux-gnu", cpu))
    for cpu in parsers["riscv"].cpu_names():
        rows.append(
            (
                "riscv",
                "riscv32-unknown-elf" if "rv32" in cpu or cpu.startswith("sifive-e") else "riscv64-unknown-linux-gnu",
                cpu,
            )
        )
    return rows


def _check_cpu(clang: str, row: tuple[str, str, str]) -> tuple[int, list[str]]:
    import tcfg

    plugin, triple, cpu = row
    try:
        target = tcfg.Target(f"llvm -mtriple={triple} -mcpu={cpu}")
    except tcfg.TargetError:
        if plugin == "riscv":  # a 32-bit core named without rv32: try the other width
            triple = "riscv32-unknown-elf" if triple.startswith("riscv64") else "riscv64-unknown-linux-gnu"
            target = tcfg.Target(f"llvm -mtriple={triple} -mcpu={cpu}")
        elif plugin == "x86":
            triple = "i686-unknown-linux-gnu"
            target = tcfg.Target(f"llvm -mtriple={triple} -mcpu={cpu}")
        else:
            raise
    if plugin == "x86":
        found = _x86_macros(clang, triple, cpu)
    else:
        extra = ("-menable-experimental-extensions",) if plugin == "riscv" else ()
        try:
            found = macros(clang, triple, f"-mcpu={cpu}", *extra)
        except RuntimeError:
            if plugin != "riscv":
                raise
            # a core newer than LLVM 22 (spacemit-x100): tcfg's codegen spells out its extensions,
            # so this checks how the portable names read those extensions
            flags = [f for f in target.codegen().flags("clang") if not f.startswith("--target=")]
            found = macros(clang, triple, *flags, *extra)
    answers = target.features.portable()
    checks, wrong = 0, []
    for name, read in MACROS[plugin].items():
        truth = read(found)
        if truth is None:
            continue
        checks += 1
        if answers[name].value == truth:
            continue
        if (
            plugin == "arm"
            and name == "fp16"
            and _selects_fp16_vectors(llvm.find("llc-22"), triple, cpu) == answers[name].value
        ):
            continue  # clang's driver table and LLVM's backend differ (oryon-1): the backend's selection decides
        wrong.append(f"{triple} {cpu}: {name}: tcfg {answers[name].value!r}, clang-22 macros say {truth!r}")
    bits = answers["vector_bits"].value
    if plugin == "arm" and "__ARM_FEATURE_SVE" in found and bits is not None:
        checks += 1
        sized = macros(clang, triple, f"-mcpu={cpu}", f"-msve-vector-bits={bits}").get("__ARM_FEATURE_SVE_BITS")
        if sized != str(bits):
            wrong.append(
                f"{cpu}: vector_bits {bits}: clang-22 -msve-vector-bits={bits} gives __ARM_FEATURE_SVE_BITS={sized}"
            )
    return checks, wrong


def _cpu(family: str, workers: int) -> SweepResult:
    clang = llvm.find("clang-22")
    if clang is None:
        return SweepResult(family, skipped="clang-22 not found")
    rows = cpu_rows()
    result = SweepResult(family, cpus=len(rows), variants=1, features=max(len(m) for m in MACROS.values()))
    with ThreadPoolExecutor(max(1, workers)) as pool:
        for checks, wrong in pool.map(lambda row: _check_cpu(clang, row), rows):
            result.checks += checks
            result.disagreements += wrong
    return result


_PTX_ENTRY = ".visible .entry probe(.param .u64 p)"


def _mma(shape: str, types: str, a: int, b: int, c: int) -> str:
    """A PTX module body with one ``mma.sync`` of ``shape`` and ``types`` (a, b, c: registers per operand)."""
    acc = "f32" if types.startswith("f32") else "b32"
    regs = lambda n, r: "{" + ",".join([r] * n) + "}"  # noqa: E731
    out = "{" + ",".join(f"%d{i}" for i in range(c)) + "}"
    return (
        _PTX_ENTRY + " {\n  .reg .b32 %a<2>; .reg ." + acc + f" %d<{c}>; .reg .{acc} %z; .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p]; ld.global.b32 %a0, [%rd1]; ld.global." + acc + " %z, [%rd1+8];\n"
        f"  mma.sync.aligned.{shape}.row.col.{types} {out}, {regs(a, '%a0')}, {regs(b, '%a0')}, {regs(c, '%z')};\n"
        "  st.global." + acc + " [%rd1], %d0; ret; }"
    )


def ptx_probes() -> dict[str, str]:
    """Portable name (or ``matrix:FORMAT``) -> a PTX module body that needs it."""
    from tcfg_cuda.probes import PROBES

    e4m3 = _mma("m16n8k32", "f32.e4m3.e4m3.f32", 4, 2, 4)
    e5m2 = _mma("m16n8k32", "f32.e5m2.e5m2.f32", 4, 2, 4)
    s4 = _mma("m8n8k32", "s32.s4.s4.s32", 1, 1, 2)
    return {
        "fp16": PROBES["fp16"],
        "bf16": PROBES["bf16"],
        "fp8_e4m3": e4m3,
        "fp8_e5m2": e5m2,
        "fp64": _PTX_ENTRY
        + " {\n  .reg .f64 %d<3>; .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p]; ld.global.f64 %d1, [%rd1];\n"
        "  fma.rn.f64 %d2, %d1, %d1, %d1; st.global.f64 [%rd1], %d2; ret; }",
        "int8_dot": PROBES["dp4a"],
        "int4": s4,
        "matrix": PROBES["tensor_cores"],
        "matrix:fp16": PROBES["tensor_cores"],
        "matrix:bf16": _mma("m16n8k8", "f32.bf16.bf16.f32", 2, 1, 4),
        "matrix:int8": PROBES["int8_tensor_cores"],
        "matrix:int4": s4,
        "matrix:fp8_e4m3": e4m3,
        "matrix:fp8_e5m2": e5m2,
    }


def _check_arch(ptxas: Any, arch: str) -> tuple[int, list[str]]:
    import tcfg
    from cuda_sweep import LATEST_PTX
    from tcfg_cuda.facts import arch_info

    info = arch_info(arch)
    renamed = info.renamed_to is not None and tuple(int(p) for p in ptxas.release.split(".")) >= (13, 0)
    name = info.renamed_to if renamed and info.renamed_to else arch
    answers = tcfg.Target(f"cuda -arch={arch}").features.portable()
    formats = str(answers["matrix_formats"].value).split(",")
    checks, wrong = 0, []
    for probe, body in ptx_probes().items():
        ours = answers[probe].value if ":" not in probe else probe.split(":")[1] in formats
        error = ptxas.assemble(name, LATEST_PTX, body)
        checks += 1
        if ours != (error == ""):
            said = "assembles" if not error else f"fails: {error.splitlines()[0]}"
            wrong.append(f"cuda -arch={arch}: {probe}: tcfg {ours!r}, ptxas {ptxas.release} {said}")
    return checks, wrong


def _cuda(family: str, workers: int) -> SweepResult:
    from tcfg_cuda.facts import arch_names
    from tcfg_cuda.probes import find_ptxas

    ptxas = find_ptxas()
    if ptxas is None:
        return SweepResult(family, skipped="ptxas not found (CUDA toolkit on PATH or in /usr/local/cuda/bin)")
    names = arch_names()
    result = SweepResult(family, cpus=len(names), variants=1, features=len(ptx_probes()))
    with ThreadPoolExecutor(max(1, workers)) as pool:
        for checks, wrong in pool.map(lambda arch: _check_arch(ptxas, arch), names):
            result.checks += checks
            result.disagreements += wrong
    return result


def sweep(family: str, workers: int = 2) -> SweepResult:
    """One family of the portable sweep (a missing tool is a skip)."""
    return {"portable-cpu": _cpu, "portable-cuda": _cuda}[family](family, workers)
