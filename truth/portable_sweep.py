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

__all__ = ["MACROS", "VULKAN_FIELDS", "amdgpu_lines", "amdgpu_truth", "cpu_rows", "macros", "ptx_probes", "sweep"]

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
    for cpu in parsers["x86"].cpu_names() if "x86" in parsers else ():
        rows.append(("x86", "x86_64-unknown-linux-gnu", cpu))
    for cpu in parsers["riscv"].cpu_names() if "riscv" in parsers else ():
        rows.append(
            (
                "riscv",
                "riscv32-unknown-elf" if "rv32" in cpu or cpu.startswith("sifive-e") else "riscv64-unknown-linux-gnu",
                cpu,
            )
        )
    return rows


def _check_cpu(clang: str, row: tuple[str, str, str], registry: Any = None) -> tuple[int, list[str]]:
    """Every check of one CPU (``registry``: where to build its target; None, the default one)."""
    import tcfg

    plugin, triple, cpu = row
    try:
        target = tcfg.Target(f"llvm -mtriple={triple} -mcpu={cpu}", registry=registry)
    except tcfg.TargetError:
        if plugin == "riscv":  # a 32-bit core named without rv32: try the other width
            triple = "riscv32-unknown-elf" if triple.startswith("riscv64") else "riscv64-unknown-linux-gnu"
            target = tcfg.Target(f"llvm -mtriple={triple} -mcpu={cpu}", registry=registry)
        elif plugin == "x86":
            triple = "i686-unknown-linux-gnu"
            target = tcfg.Target(f"llvm -mtriple={triple} -mcpu={cpu}", registry=registry)
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
        try:
            sized = macros(clang, triple, f"-mcpu={cpu}", f"-msve-vector-bits={bits}").get("__ARM_FEATURE_SVE_BITS")
        except RuntimeError as refused:  # not an SVE length clang accepts
            sized = str(refused)
        if sized != str(bits):
            wrong.append(
                f"{cpu}: vector_bits {bits}: clang-22 -msve-vector-bits={bits} gives __ARM_FEATURE_SVE_BITS={sized}"
            )
    return checks, wrong


def _missing(*modules: str) -> str | None:
    """Why a family cannot run: the first of the plugin ``modules`` that is not installed, or None."""
    import importlib.util

    absent = next((m for m in modules if importlib.util.find_spec(m) is None), None)
    return None if absent is None else f"the plugin {absent} is not installed"


def _cpu(family: str, workers: int) -> SweepResult:
    if _missing("tcfg_aarch64"):
        return SweepResult(family, skipped=str(_missing("tcfg_aarch64")))
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


def _regs(count: int, register: str) -> str:
    return "{" + ",".join([register] * count) + "}"


def _mma(shape: str, types: str, a: int, b: int, c: int) -> str:
    """A PTX module body with one ``mma.sync`` of ``shape`` and ``types`` (a, b, c: registers per operand)."""
    acc = "f32" if types.startswith("f32") else "b32"
    out = "{" + ",".join(f"%d{i}" for i in range(c)) + "}"
    return (
        _PTX_ENTRY + " {\n  .reg .b32 %a<2>; .reg ." + acc + f" %d<{c}>; .reg .{acc} %z; .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p]; ld.global.b32 %a0, [%rd1]; ld.global." + acc + " %z, [%rd1+8];\n"
        f"  mma.sync.aligned.{shape}.row.col.{types} {out}, {_regs(a, '%a0')}, {_regs(b, '%a0')}, {_regs(c, '%z')};\n"
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


def _check_arch(ptxas: Any, arch: str, registry: Any = None) -> tuple[int, list[str]]:
    """Every check of one CUDA arch (``registry``: where to build its target; None, the default one)."""
    from cuda_sweep import LATEST_PTX

    import tcfg
    from tcfg_cuda.facts import arch_info

    info = arch_info(arch)
    renamed = info.renamed_to is not None and tuple(int(p) for p in ptxas.release.split(".")) >= (13, 0)
    name = info.renamed_to if renamed and info.renamed_to else arch
    answers = tcfg.Target(f"cuda -arch={arch}", registry=registry).features.portable()
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
    if _missing("tcfg_cuda"):
        return SweepResult(family, skipped=str(_missing("tcfg_cuda")))
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


#: Operand patterns tried for each matrix instruction (the widths differ by generation and shape).
_MATRIX_OPERANDS = (
    "a[0:31], v0, v1, a[0:31]",
    "a[0:31], v[0:1], v[2:3], a[0:31]",
    "a[0:15], v0, v1, a[0:15]",
    "a[0:15], v[0:1], v[2:3], a[0:15]",
    "a[0:15], v[0:3], v[4:7], a[0:15]",
    "a[0:7], v[0:1], v[2:3], a[0:7]",
    "v[0:7], v[8:15], v[16:23], v[0:7]",
    "v[0:7], v[8:11], v[12:15], v[0:7]",
    "v[0:7], v[8:9], v[10:11], v[0:7]",
    "v[0:7], v8, v9, v[0:7]",
    "v[0:7], v[8:15], v[16:23], v[24:31]",
    "v[0:7], v[8:23], v[24:39], v[0:7]",
    "v[0:7], v[8:11], v[12:15], v[16:23]",
)
#: The matrix instructions of each format, every AMDGPU generation's spelling (MFMA gfx908-gfx950, WMMA gfx11-gfx1250).
_AMDGPU_MATRIX = {
    "fp16": ("v_mfma_f32_32x32x8f16", "v_mfma_f32_32x32x8_f16", "v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x32_f16"),
    "bf16": (
        "v_mfma_f32_32x32x2bf16",
        "v_mfma_f32_32x32x4bf16",
        "v_mfma_f32_32x32x8bf16_1k",
        "v_mfma_f32_32x32x8_bf16",
        "v_mfma_f32_32x32x16_bf16",
        "v_wmma_f32_16x16x16_bf16",
        "v_wmma_f32_16x16x32_bf16",
    ),
    "int8": (
        "v_mfma_i32_32x32x8i8",
        "v_mfma_i32_32x32x16_i8",
        "v_mfma_i32_32x32x32_i8",
        "v_wmma_i32_16x16x16_iu8",
        "v_wmma_i32_16x16x64_iu8",
    ),
    "int4": ("v_wmma_i32_16x16x16_iu4", "v_wmma_i32_16x16x32_iu4"),
    "fp8_e4m3": ("v_mfma_f32_32x32x16_fp8_fp8", "v_wmma_f32_16x16x16_fp8_fp8", "v_wmma_f32_16x16x64_fp8_fp8"),
    "fp8_e5m2": ("v_mfma_f32_32x32x16_bf8_bf8", "v_wmma_f32_16x16x16_bf8_bf8", "v_wmma_f32_16x16x64_bf8_bf8"),
    "fp64": ("v_mfma_f64_16x16x4f64", "v_mfma_f64_16x16x4_f64"),
}
#: Non-matrix instructions that answer a portable name (the matrix ones of its format answer it too).
_AMDGPU_OTHER = {
    "fp16": ("v_add_f16 v0, v1, v2", "v_add_f16 v0.l, v1.l, v2.l", "v_pk_add_f16 v0, v1, v2"),
    "bf16": ("v_dot2_f32_bf16 v0, v1, v2, v3", "v_pk_add_bf16 v0, v1, v2"),
    "fp8_e4m3": ("v_dot4_f32_fp8_fp8 v0, v1, v2, v3",),
    "fp8_e5m2": ("v_dot4_f32_bf8_bf8 v0, v1, v2, v3",),
    "fp64": ("v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]",),
    "int8_dot": ("v_dot4_i32_i8 v0, v1, v2, v3", "v_dot4_i32_iu8 v0, v1, v2, v3", "v_dot4_u32_u8 v0, v1, v2, v3"),
    "int4": ("v_dot8_i32_i4 v0, v1, v2, v3", "v_dot8_i32_iu4 v0, v1, v2, v3", "v_dot8_u32_u4 v0, v1, v2, v3"),
}


def amdgpu_lines() -> list[tuple[str, str]]:
    """(what it shows, an assembly line) for every candidate instruction."""
    lines = [
        (f"matrix:{fmt}", f"{m} {ops}") for fmt, ms in _AMDGPU_MATRIX.items() for m in ms for ops in _MATRIX_OPERANDS
    ]
    return lines + [(name, line) for name, ls in _AMDGPU_OTHER.items() for line in ls]


def amdgpu_truth(mc: str, processor: str) -> dict[str, object]:
    """What llvm-mc-22 assembles for ``processor``: each portable name's truth and its matrix formats."""
    lines = amdgpu_lines()
    done = llvm.run(
        [mc, "-arch=amdgcn", f"-mcpu={processor}", "-o", "/dev/null"], "\n".join(line for _, line in lines) + "\n"
    )
    failed = {int(n) for n in re.findall(r"^<stdin>:(\d+):", done.stderr, re.M)}
    shown = {what for index, (what, _) in enumerate(lines, 1) if index not in failed}
    formats = [fmt for fmt in _AMDGPU_MATRIX if f"matrix:{fmt}" in shown]
    truth: dict[str, object] = {name: name in shown or (name in formats) for name in _AMDGPU_OTHER}
    truth["int8_dot"] = bool(truth["int8_dot"]) or "int8" in formats
    truth["matrix"] = bool(formats)
    truth["matrix_formats"] = set(formats)
    return truth


def _check_processor(mc: str, processor: str, registry: Any = None) -> tuple[int, list[str]]:
    """Every check of one gfx processor (``registry``: where to build its target; None, the default one)."""
    import tcfg

    answers = tcfg.Target(f"rocm -mcpu={processor}", registry=registry).features.portable()
    truth = amdgpu_truth(mc, processor)
    checks, wrong = 0, []
    for name, value in truth.items():
        ours: object = answers[name].value
        if name == "matrix_formats":
            ours = set(filter(None, str(ours).split(",")))
        checks += 1
        if ours != value:
            wrong.append(f"rocm -mcpu={processor}: {name}: tcfg {ours!r}, llvm-mc-22 assembles {value!r}")
    return checks, wrong


def _amdgpu(family: str, workers: int) -> SweepResult:
    if _missing("tcfg_rocm"):
        return SweepResult(family, skipped=str(_missing("tcfg_rocm")))
    from tcfg_rocm.facts import processor_names

    mc = llvm.find("llvm-mc-22")
    if mc is None:
        return SweepResult(family, skipped="llvm-mc-22 not found")
    names = processor_names()
    result = SweepResult(family, cpus=len(names), variants=1, features=len(_AMDGPU_OTHER) + 2)
    with ThreadPoolExecutor(max(1, workers)) as pool:
        for checks, wrong in pool.map(lambda name: _check_processor(mc, name), names):
            result.checks += checks
            result.disagreements += wrong
    return result


#: Portable name -> the Vulkan feature or limit (a field of vulkaninfo's profile JSON) that says it.
VULKAN_FIELDS = {
    "fp16": "shaderFloat16",
    "fp64": "shaderFloat64",
    "int8_dot": "shaderIntegerDotProduct",
    "matrix": "cooperativeMatrix",
    "warp_size": "subgroupSize",
    "max_threads_per_block": "maxComputeWorkGroupInvocations",
    "shared_memory_bytes": "maxComputeSharedMemorySize",
}


def _field(tree: object, name: str) -> object:
    """The first value of the key ``name`` anywhere in ``tree`` (None: absent)."""
    if isinstance(tree, dict):
        if name in tree:
            return tree[name]
        for value in tree.values():
            found = _field(value, name)
            if found is not None:
                return found
    return None


def _vulkan(family: str, workers: int) -> SweepResult:
    import json
    import tempfile

    import tcfg

    if _missing("tcfg_gpuapi"):
        return SweepResult(family, skipped=str(_missing("tcfg_gpuapi")))
    tool = llvm.find("vulkaninfo")
    if tool is None:
        return SweepResult(family, skipped="vulkaninfo not found")
    with tempfile.TemporaryDirectory() as tmp:
        out = f"{tmp}/device.json"
        llvm.run([tool, "--json=0", "-o", out], timeout=120)
        try:
            with open(out, encoding="utf-8") as handle:
                text = handle.read()
        except OSError:
            return SweepResult(family, skipped="vulkaninfo found no Vulkan device (install mesa-vulkan-drivers)")
    device = json.loads(text)["capabilities"]["device"]
    targets = [t for t in tcfg.detect(sources={"vulkaninfo": (text,)}) if t.kind.name == "vulkan"]
    result = SweepResult(family, cpus=len(targets), variants=1, features=len(VULKAN_FIELDS))
    for target in targets:
        answers = target.features.portable()
        for name, field in VULKAN_FIELDS.items():
            truth = _field(device, field)
            if name == "matrix" and truth is None:
                truth = False  # no VK_KHR_cooperative_matrix
            result.checks += 1
            if answers[name].value != truth:
                result.disagreements.append(
                    f"{target}: {name}: tcfg {answers[name].value!r}, vulkaninfo's {field} = {truth!r}"
                )
    return result


def hexagon_specs() -> list[str]:
    """Every Hexagon CPU without HVX, and with its HVX version in each length (and IEEE fp16 where it has it)."""
    from tcfg_hexagon.facts import cpu_info, cpu_names, hvx_info

    specs = []
    for cpu in cpu_names():
        specs.append(f"hexagon -mcpu={cpu}")
        version = cpu_info(cpu).mhvx_version
        info = hvx_info(version)
        if info is None:  # a CPU without HVX
            continue
        for length in (64, 128):
            hvx = f"hexagon -mcpu={cpu} -mattr=+hvxv{version},+hvx-length{length}b"
            specs.append(hvx)
            if info.ieee_fp:
                specs.append(hvx + ",+hvx-ieee-fp")
    return specs


#: Hexagon's portable names -> what clang's HVX macros say.
HEXAGON_MACROS: dict[str, Callable[[Macros], object]] = {
    "vector_bits": lambda m: int(m["__HVX_LENGTH__"]) * 8 if "__HVX__" in m else 0,
    "fp16": _has("__HVX_IEEE_FP__"),
    "int8_dot": _has("__HVX__"),
}


def _hexagon(family: str, workers: int) -> SweepResult:
    """Every Hexagon CPU and HVX configuration: macros clang-22 defines under tcfg's clang flags."""
    import tcfg

    if _missing("tcfg_hexagon"):
        return SweepResult(family, skipped=str(_missing("tcfg_hexagon")))
    clang = llvm.find("clang-22")
    if clang is None:
        return SweepResult(family, skipped="clang-22 not found")
    specs = hexagon_specs()
    result = SweepResult(family, cpus=len(specs), variants=1, features=len(HEXAGON_MACROS))

    def check(spec: str) -> tuple[int, list[str]]:
        target = tcfg.Target(spec)
        flags = [f for f in target.codegen().flags("clang") if not f.startswith("--target=")]
        found = macros(clang, "hexagon", *flags)
        answers = target.features.portable()
        wrong = [
            f"{spec}: {name}: tcfg {answers[name].value!r}, clang-22 macros say {read(found)!r}"
            for name, read in HEXAGON_MACROS.items()
            if answers[name].value != read(found)
        ]
        return len(HEXAGON_MACROS), wrong

    with ThreadPoolExecutor(max(1, workers)) as pool:
        for checks, wrong in pool.map(check, specs):
            result.checks += checks
            result.disagreements += wrong
    return result


def sweep(family: str, workers: int = 2) -> SweepResult:
    """One family of the portable sweep (a missing tool is a skip)."""
    families = {
        "portable-cpu": _cpu,
        "portable-hexagon": _hexagon,
        "portable-cuda": _cuda,
        "portable-amdgpu": _amdgpu,
        "portable-vulkan": _vulkan,
    }
    return families[family](family, workers)
