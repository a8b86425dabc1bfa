"""Codegen: the configuration per arch, and real PTX from nvcc or NVRTC."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import tcfg
import tcfg_cuda.codegen
from tcfg_cuda.toolkit import find_nvcc, find_nvrtc

KERNEL = """
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

CP_ASYNC_KERNEL = """
extern "C" __global__ void stage(const int4* src, int4* dst) {
    __shared__ int4 buf[32];
    unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(&buf[threadIdx.x]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem), "l"(src + threadIdx.x));
    asm volatile("cp.async.wait_all;");
    __syncthreads();
    dst[threadIdx.x] = buf[threadIdx.x];
}
"""

HALF_KERNEL = """
extern "C" __global__ void hfma(unsigned short* x) {
    unsigned short r;
    asm("fma.rn.f16 %0, %1, %1, %1;" : "=h"(r) : "h"(x[threadIdx.x]));
    x[threadIdx.x] = r;
}
"""

TCGEN05_KERNEL = 'extern "C" __global__ void k() { asm volatile("tcgen05.fence::before_thread_sync;"); }'

needs_nvcc = pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")


def test_config(reg: tcfg.Registry) -> None:
    cg = tcfg.Target("cuda -arch=sm_90a", registry=reg).codegen()
    assert isinstance(cg, tcfg_cuda.codegen.CudaCodegen)
    data = cg.to_dict()
    assert data["arch"] == "sm_90a" and data["virtual_arch"] == "compute_90a"
    assert data["ptx_isa"] == "8.0"
    assert "-gencode=arch=compute_90a,code=sm_90a" in data["nvcc"]
    assert data["nvrtc"] == ["--gpu-architecture=compute_90a"]
    assert tcfg.Target("cuda -arch=sm_100f", registry=reg).codegen().to_dict()["ptx_isa"] == "8.8"
    assert tcfg.Target("cuda -arch=sm_53", registry=reg).codegen().to_dict()["max_cuda"] == "12.9"


def test_generic_target_codegen_asks_for_an_arch(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match="-arch"):
        tcfg.Target("cuda", registry=reg).codegen()


def _ptx_version(ptx: str) -> tuple[int, int]:
    match = re.search(r"^\.version (\d+)\.(\d+)", ptx, re.M)
    assert match, ptx[:300]
    return int(match.group(1)), int(match.group(2))


@needs_nvcc
@pytest.mark.parametrize(
    ("arch", "source", "instruction"),
    [
        ("sm_80", CP_ASYNC_KERNEL, "cp.async.cg.shared.global"),
        ("sm_75", HALF_KERNEL, "fma.rn.f16"),
        ("sm_90a", 'extern "C" __global__ void k() { asm volatile("wgmma.fence.sync.aligned;"); }', "wgmma.fence"),
        ("sm_100a", TCGEN05_KERNEL, "tcgen05.fence"),
    ],
)
def test_compile_ptx_with_nvcc(reg: tcfg.Registry, arch: str, source: str, instruction: str) -> None:
    cg = tcfg.Target(f"cuda -arch={arch}", registry=reg).codegen()
    ptx = cg.compile_ptx(source)
    assert re.search(rf"^\.target {arch}\b", ptx, re.M), ptx[:300]
    assert instruction in ptx
    minimum = tuple(int(p) for p in cg.to_dict()["ptx_isa"].split("."))
    assert _ptx_version(ptx) >= minimum


@needs_nvcc
def test_arch_gated_instruction_is_refused_below_its_arch(reg: tcfg.Registry) -> None:
    source = 'extern "C" __global__ void k() { asm volatile("wgmma.fence.sync.aligned;"); }'
    with pytest.raises(tcfg.TargetError, match=r"wgmma.fence.*sm_90"):
        tcfg.Target("cuda -arch=sm_90", registry=reg).codegen().compile_ptx(source)


@needs_nvcc
def test_compile_error_is_a_target_error(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match="could not compile"):
        tcfg.Target("cuda -arch=sm_80", registry=reg).codegen().compile_ptx("__global__ void k() { nope; }")


@needs_nvcc
def test_gencode_flags_build_a_fatbin(reg: tcfg.Registry, tmp_path: Path) -> None:
    cg = tcfg.Target("cuda -arch=sm_86", registry=reg).codegen()
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    run = subprocess.run(
        [find_nvcc().path, "-fatbin", *cg.nvcc_flags(), str(src), "-o", str(tmp_path / "k.fatbin")],  # type: ignore[union-attr]
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "k.fatbin").stat().st_size > 0


def test_old_arch_compiles_with_a_cuda_12_nvrtc(reg: tcfg.Registry) -> None:
    if not any(n.release <= (12, 9) for n in find_nvrtc()):
        pytest.skip("no CUDA 12 NVRTC installed (pip install 'tcfg-plugin-cuda[nvrtc-cu12]')")
    ptx = tcfg.Target("nvidia/jetson-nano", registry=reg).codegen().compile_ptx(HALF_KERNEL)
    assert re.search(r"^\.target sm_53\b", ptx, re.M)
    assert "fma.rn.f16" in ptx


def test_arch_no_installed_compiler_targets_names_a_toolkit(
    reg: tcfg.Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    nvcc = find_nvcc()
    if nvcc is None or nvcc.release < (13, 0):
        pytest.skip("needs a CUDA 13 nvcc, which cannot target sm_53")
    monkeypatch.setattr(tcfg_cuda.codegen, "find_nvrtc", lambda: ())
    with pytest.raises(tcfg.TargetError) as info:
        tcfg.Target("cuda -arch=sm_53", registry=reg).codegen().compile_ptx(KERNEL)
    message = str(info.value)
    assert "cannot target sm_53" in message and "CUDA 12.9" in message


def test_no_compiler_at_all_says_what_to_install(reg: tcfg.Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tcfg_cuda.codegen, "find_nvrtc", lambda: ())
    monkeypatch.setattr(tcfg_cuda.codegen, "find_nvcc", lambda: None)
    with pytest.raises(tcfg.TargetError, match=r"tcfg-plugin-cuda\[nvrtc\]"):
        tcfg.Target("cuda -arch=sm_80", registry=reg).codegen().compile_ptx(KERNEL)


def test_nvrtc_compiles_when_nvcc_is_absent(reg: tcfg.Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    if not find_nvrtc():
        pytest.skip("no NVRTC installed (pip install 'tcfg-plugin-cuda[nvrtc]')")
    monkeypatch.setattr(tcfg_cuda.codegen, "find_nvcc", lambda: None)
    ptx = tcfg.Target("cuda -arch=sm_80", registry=reg).codegen().compile_ptx(CP_ASYNC_KERNEL)
    assert re.search(r"^\.target sm_80\b", ptx, re.M) and "cp.async.cg.shared.global" in ptx
