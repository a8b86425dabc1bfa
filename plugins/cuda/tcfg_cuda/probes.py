"""PTX probes: one small kernel per arch-gated feature, assembled with ``ptxas`` to check the arch table.

Each probe uses the instruction that defines its feature (``fma.rn.bf16`` for bf16,
``wgmma.fence`` for wgmma, ...). ``ptxas`` checks every instruction against the PTX's
``.target`` directive, so a probe assembled for ``.target sm_52`` tells whether sm_52
code may use the feature even when this ptxas can no longer generate code for sm_52
(CUDA 13 starts at sm_75): such targets are assembled with ``-arch=sm_75``.

Used by ``scripts/gen_arch_table.py`` and the tests; the plugin itself never runs ptxas.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PROBES", "Ptxas", "cubin_links", "find_ptxas"]

_ENTRY = ".visible .entry probe(.param .u64 p)"

#: Feature name -> the body of a PTX module that needs that feature.
PROBES: dict[str, str] = {
    "fp16": _ENTRY
    + """ {
  .reg .b16 %h<3>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p]; ld.global.b16 %h1, [%rd1];
  fma.rn.f16 %h2, %h1, %h1, %h1;
  st.global.b16 [%rd1], %h2; ret; }""",
    "bf16": _ENTRY
    + """ {
  .reg .b16 %h<3>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p]; ld.global.b16 %h1, [%rd1];
  fma.rn.bf16 %h2, %h1, %h1, %h1;
  st.global.b16 [%rd1], %h2; ret; }""",
    "tf32": _ENTRY
    + """ {
  .reg .b32 %r<2>; .reg .f32 %f<2>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p]; ld.global.f32 %f1, [%rd1];
  cvt.rna.tf32.f32 %r1, %f1;
  st.global.b32 [%rd1], %r1; ret; }""",
    "dp4a": _ENTRY
    + """ {
  .reg .b32 %r<3>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p]; ld.global.b32 %r1, [%rd1];
  dp4a.u32.u32 %r2, %r1, %r1, %r1;
  st.global.b32 [%rd1], %r2; ret; }""",
    "tensor_cores": _ENTRY
    + """ {
  .reg .b32 %a<2>; .reg .f32 %f<9>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p]; ld.global.b32 %a0, [%rd1]; ld.global.b32 %a1, [%rd1+4];
  ld.global.f32 %f0, [%rd1+8];
  mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8},
    {%a0,%a1}, {%a0,%a1}, {%f0,%f0,%f0,%f0,%f0,%f0,%f0,%f0};
  st.global.f32 [%rd1], %f1; ret; }""",
    "int8_tensor_cores": _ENTRY
    + """ {
  .reg .b32 %a<2>; .reg .b32 %c<9>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p]; ld.global.b32 %a0, [%rd1]; ld.global.b32 %a1, [%rd1+4];
  wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 {%c1,%c2,%c3,%c4,%c5,%c6,%c7,%c8},
    {%a0,%a1}, {%a0,%a1}, {%a0,%a0,%a0,%a0,%a0,%a0,%a0,%a0};
  st.global.b32 [%rd1], %c1; ret; }""",
    "fp8": _ENTRY
    + """ {
  .reg .b16 %h<2>; .reg .f32 %f<2>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p]; ld.global.f32 %f1, [%rd1];
  cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f1;
  st.global.b16 [%rd1], %h1; ret; }""",
    "fp4": _ENTRY
    + """ {
  .reg .b8 %b<2>; .reg .b16 %h<2>; .reg .f32 %f<2>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p]; ld.global.f32 %f1, [%rd1];
  cvt.rn.satfinite.e2m1x2.f32 %b1, %f1, %f1;
  cvt.u16.u8 %h1, %b1;
  st.global.b16 [%rd1], %h1; ret; }""",
    "cp_async": _ENTRY
    + """ {
  .shared .align 16 .b8 buf[16]; .reg .b64 %rd<2>; .reg .b32 %r<2>;
  ld.param.u64 %rd1, [p]; mov.u32 %r1, buf;
  cp.async.ca.shared.global [%r1], [%rd1], 16;
  cp.async.wait_all; ret; }""",
    "tma": _ENTRY
    + """ {
  .shared .align 128 .b8 buf[128]; .shared .align 8 .b64 bar; .reg .b64 %rd<2>; .reg .b32 %r<4>;
  ld.param.u64 %rd1, [p]; mov.u32 %r1, buf; mov.u32 %r2, bar; mov.u32 %r3, 0;
  cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r3}], [%r2];
  ret; }""",
    "wgmma": _ENTRY
    + """ {
  wgmma.fence.sync.aligned; wgmma.commit_group.sync.aligned; wgmma.wait_group.sync.aligned 0; ret; }""",
    "tcgen05": _ENTRY
    + """ {
  tcgen05.fence::before_thread_sync; ret; }""",
}

#: The lowest arch that CUDA 13's ptxas generates code for; older .targets are assembled for it.
_FALLBACK_ARCH = "sm_75"
#: The PTX ISA version of CUDA 13.0, enough for every target it knows.
_LATEST_PTX = "9.0"


@dataclass(frozen=True)
class Ptxas:
    """An installed ``ptxas``: its path, release (``"13.0"``) and the arches it generates code for."""

    path: str
    release: str
    arches: frozenset[str]

    def accepts(self, target: str, ptx_version: str, body: str = ".visible .entry probe() { ret; }") -> bool:
        """Whether this ptxas assembles ``body`` as PTX ``ptx_version`` for ``.target target``."""
        return self.assemble(target, ptx_version, body) == ""

    def assemble_for(self, target: str, gpu: str) -> str:
        """ptxas's error text for an empty kernel with ``.target target`` compiled for GPU ``gpu``."""
        return self.assemble(target, _LATEST_PTX, ".visible .entry probe() { ret; }", gpu)

    def assemble(self, target: str, ptx_version: str, body: str, gpu: str | None = None) -> str:
        """ptxas's error text for the module (empty when it assembles), compiled for ``gpu``.

        Without ``gpu``, the module is compiled for its own target, or for the lowest
        arch this ptxas knows when it no longer generates code for that target.
        """
        arch = gpu or (target if target in self.arches else _FALLBACK_ARCH)
        text = f".version {ptx_version}\n.target {target}\n.address_size 64\n{body}\n"
        fd, path = tempfile.mkstemp(suffix=".ptx")
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(text)
            run = subprocess.run(
                [self.path, f"-arch={arch}", path, "-o", os.devnull],
                capture_output=True,
                text=True,
                check=False,
            )
        finally:
            os.unlink(path)
        return "" if run.returncode == 0 else (run.stderr.strip() or f"exit status {run.returncode}")


@functools.cache
def find_ptxas() -> Ptxas | None:
    """The ptxas on PATH or in /usr/local/cuda/bin, or None."""
    path = shutil.which("ptxas") or shutil.which("ptxas", path="/usr/local/cuda/bin")
    if path is None:
        return None
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=False).stdout
    release = version.split("release ", 1)[1].split(",", 1)[0] if "release " in version else "unknown"
    usage = subprocess.run([path, "--help"], capture_output=True, text=True, check=False).stdout
    option = usage.split("--gpu-name", 1)[-1]
    allowed = option.split("Allowed values for this option:", 1)[-1].split("Default value", 1)[0]
    names = {part for part in allowed.replace("\n", " ").split("'") if part.startswith("sm_")}
    return Ptxas(path, release, frozenset(names))


def cubin_links(ptxas: Ptxas, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], bool] | None:
    """For each ``(code, gpu)``: whether nvlink links a relocatable cubin compiled for ``code`` into a
    program for ``gpu`` (the cubin rule as the toolkit applies it); None without nvlink beside ptxas.

    Each cubin is an empty kernel made by ``ptxas -c``; nvlink refuses an incompatible one
    with ``Input file ... arch does not match target``. Any other failure raises.
    """
    nvlink = Path(ptxas.path).with_name("nvlink")
    if not nvlink.exists():
        return None
    wanted = list(pairs)
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(os.cpu_count() or 2) as pool:

        def cubin(arch: str) -> str:
            source, out = os.path.join(folder, f"{arch}.ptx"), os.path.join(folder, f"{arch}.cubin")
            Path(source).write_text(
                f".version {_LATEST_PTX}\n.target {arch}\n.address_size 64\n.visible .entry probe() {{ ret; }}\n"
            )
            subprocess.run([ptxas.path, "-c", f"-arch={arch}", source, "-o", out], check=True, capture_output=True)
            return out

        codes = sorted({code for code, _ in wanted})
        cubins = dict(zip(codes, pool.map(cubin, codes), strict=True))

        def links(pair: tuple[str, str]) -> bool:
            code, gpu = pair
            out = os.path.join(folder, f"{code}-{gpu}.out")
            run = subprocess.run(
                [str(nvlink), f"-arch={gpu}", cubins[code], "-o", out], capture_output=True, text=True, check=False
            )
            if run.returncode and "does not match target" not in run.stderr:
                raise RuntimeError(f"nvlink -arch={gpu} {code}.cubin failed otherwise: {run.stderr.strip()}")
            return run.returncode == 0

        return dict(zip(wanted, pool.map(links, wanted), strict=True))
