"""The CUDA codegen configuration: arch, PTX ISA, nvcc/NVRTC options, CUDA C++ to PTX, and its
forms for MLIR, IREE and Triton (through the arch's NVPTX codegen), and the codegen of the ``nvptx`` kind."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcfg.plugin import Codegen, LLVMCodegen, Target, TargetError
from tcfg_cuda.facts import ArchInfo, arch_info, clang_knows, llvm_min_ptx
from tcfg_cuda.interop import TRIPLE, iree_cuda_flags, nvvm_target, ptx_feature, triton_cuda_target
from tcfg_cuda.toolkit import Version, find_nvcc, find_nvrtc, parse_version

__all__ = ["CudaCodegen", "NvptxCodegen", "codegen_for", "nvptx_codegen", "nvptx_codegen_for"]


@dataclass(frozen=True)
class CudaCodegen(Codegen):
    """What compiling for one CUDA arch needs.

    ``arch`` is the real arch (``sm_90a``); ``virtual_arch`` the PTX arch
    (``compute_90a``); ``ptx_isa`` the lowest PTX ISA version whose ``.target`` may
    name the arch; ``min_cuda``/``max_cuda`` the CUDA releases that can target it
    (``max_cuda`` None: every release since ``min_cuda``).
    """

    arch: str
    ptx_isa: str
    min_cuda: str
    max_cuda: str | None
    renamed_to: str | None = None

    @property
    def virtual_arch(self) -> str:
        """The PTX (virtual) arch, ``compute_XY[a|f]``."""
        return "compute_" + self.arch.removeprefix("sm_")

    def nvcc_flags(self) -> list[str]:
        """``-gencode`` flags embedding a cubin for the arch and its PTX (for JIT on later GPUs)."""
        return [
            f"-gencode=arch={self.virtual_arch},code={self.arch}",
            f"-gencode=arch={self.virtual_arch},code={self.virtual_arch}",
        ]

    def nvrtc_options(self) -> list[str]:
        """NVRTC options that compile to PTX for the arch."""
        return [f"--gpu-architecture={self.virtual_arch}"]

    def supported_by(self, release: Version) -> bool:
        """Whether CUDA ``release`` can target this arch."""
        if release < parse_version(self.min_cuda):
            return False
        return self.max_cuda is None or release <= parse_version(self.max_cuda)

    def toolkit_hint(self) -> str:
        """Which CUDA releases can target the arch, for error messages."""
        if self.max_cuda is None:
            return f"CUDA {self.min_cuda} or later"
        hint = f"CUDA {self.max_cuda} (any release from {self.min_cuda} to {self.max_cuda})"
        if self.renamed_to:
            hint += f"; CUDA 13.0 and later call this arch {self.renamed_to}"
        elif self.max_cuda.startswith("12."):
            hint += ", or NVRTC from pip install 'tcfg-plugin-cuda[nvrtc-cu12]'"
        return hint

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "cuda",
            "arch": self.arch,
            "virtual_arch": self.virtual_arch,
            "ptx_isa": self.ptx_isa,
            "min_cuda": self.min_cuda,
            "max_cuda": self.max_cuda,
            "nvcc": self.nvcc_flags(),
            "nvrtc": self.nvrtc_options(),
        }

    def mlir_attr(self) -> str:
        return self.nvptx().mlir_attr()

    def iree_flags(self) -> list[str]:
        return self.nvptx().iree_flags()

    def triton_target(self) -> tuple[str, int, int]:
        return self.nvptx().triton_target()

    def nvptx(self) -> NvptxCodegen:
        """The arch as LLVM's NVPTX backend compiles it: at the lowest PTX ISA LLVM 22 accepts for it.

        That is ``ptx_isa`` except where LLVM asks more than NVIDIA's tools (sm_88: PTX 9.0).
        """
        return nvptx_codegen(self.arch)

    def compile_ptx(self, cuda_source: str) -> str:
        """PTX for ``cuda_source``: with nvcc when it can target the arch, else with NVRTC.

        Raises :class:`TargetError` naming the CUDA release to install when no
        installed compiler can target the arch, and with the compiler's messages when
        the source does not compile.
        """
        nvcc = find_nvcc()
        if nvcc is not None and self.supported_by(nvcc.release):
            return nvcc.compile_ptx(cuda_source, [f"-arch={self.virtual_arch}"])
        nvrtcs = find_nvrtc()
        usable = [n for n in nvrtcs if self.supported_by(n.release)]
        if usable:
            return usable[0].compile_ptx(cuda_source, self.nvrtc_options())
        found = [f"nvcc {r[0]}.{r[1]}" for r in ([nvcc.release] if nvcc else [])]
        found += [f"NVRTC {n.release[0]}.{n.release[1]}" for n in nvrtcs]
        if not found:
            raise TargetError(
                f"compiling CUDA for {self.arch} needs nvcc (the CUDA toolkit, on PATH or in "
                "/usr/local/cuda/bin) or NVRTC: pip install 'tcfg-plugin-cuda[nvrtc]' "
                f"(this arch needs {self.toolkit_hint()})"
            )
        raise TargetError(
            f"the installed CUDA compilers ({', '.join(found)}) cannot target {self.arch}; "
            f"it needs {self.toolkit_hint()}"
        )


def codegen_for(arch: str | None) -> CudaCodegen:
    """The codegen of a cuda target with ``arch`` (None: a generic target, which cannot be compiled)."""
    if arch is None:
        raise TargetError(
            "a cuda target without -arch is generic: give -arch (such as -arch=sm_80, or "
            "-arch=native for this machine's GPU) to generate code"
        )
    info: ArchInfo = arch_info(arch)
    return CudaCodegen(info.name, info.min_ptx_isa, info.min_cuda, info.max_cuda, info.renamed_to)


@dataclass(frozen=True)
class NvptxCodegen(LLVMCodegen):
    """LLVM's NVPTX view of a GPU: ``cpu`` is the processor, ``features`` the PTX version (``+ptx80``).

    ``clang_flags()`` compile C/C++/OpenCL for the device (``--target=nvptx64-nvidia-cuda
    -march=sm_90a --cuda-feature=+ptx80``: clang would otherwise pick the PTX version of
    the CUDA installation it finds); ``cuda_clang_flags()`` compile CUDA sources' device side.
    Both raise :class:`TargetError` for a processor clang-22 does not know (``to_dict``
    then has None for them): compile LLVM IR with ``llc_flags()`` instead.
    """

    ptx_isa: str = ""
    warp_size: int = 32

    def clang_flags(self) -> list[str]:
        return [f"--target={self.triple}", f"-march={self.cpu}", *self._ptx_flags(), f"-O{self.opt_level}"]

    def cuda_clang_flags(self) -> list[str]:
        """clang flags for the device side of a CUDA source (``-x cuda``)."""
        return ["--cuda-device-only", f"--cuda-gpu-arch={self.cpu}", *self._ptx_flags(), f"-O{self.opt_level}"]

    def _ptx_flags(self) -> list[str]:
        if not clang_knows(self.cpu):
            raise TargetError(
                f"clang-22 cannot compile for {self.cpu} (its NVPTX target lacks it); "
                "compile LLVM IR with llc and this codegen's llc_flags()"
            )
        return [f"--cuda-feature={f}" for f in self.features]

    def to_dict(self) -> dict[str, Any]:
        clang = clang_knows(self.cpu)
        return {
            "kind": "nvptx",
            "triple": self.triple,
            "cpu": self.cpu,
            "features": self.feature_string,
            "ptx_isa": self.ptx_isa,
            "opt_level": self.opt_level,
            "clang": self.clang_flags() if clang else None,
            "clang_cuda": self.cuda_clang_flags() if clang else None,
            "llc": self.llc_flags(),
        }

    def mlir_attr(self) -> str:
        return nvvm_target(self.cpu, self.ptx_isa, self.opt_level)

    def iree_flags(self) -> list[str]:
        return iree_cuda_flags(self.cpu, self.ptx_isa)

    def triton_target(self) -> tuple[str, int, int]:
        digits = self.cpu.removeprefix("sm_").rstrip("af")
        return triton_cuda_target(int(digits[:-1]), int(digits[-1]), self.warp_size)


def nvptx_codegen(cpu: str, ptx_isa: str | None = None, warp_size: int = 32) -> NvptxCodegen:
    """The NVPTX codegen of processor ``cpu`` at PTX ``ptx_isa`` (default: the lowest LLVM 22 accepts)."""
    ptx = ptx_isa or llvm_min_ptx(cpu)
    return NvptxCodegen(TRIPLE, cpu, (ptx_feature(ptx),), opt_level=3, ptx_isa=ptx, warp_size=warp_size)


def nvptx_codegen_for(target: Target) -> NvptxCodegen:
    """The codegen of an nvptx target; a generic one (no ``-mcpu``) is a TargetError."""
    cpu = target.attrs.get("mcpu")
    if cpu is None:
        raise TargetError("an nvptx target without -mcpu is generic: give -mcpu (such as -mcpu=sm_80) to generate code")
    ptx = target.features.ptx_isa
    return nvptx_codegen(cpu, str(ptx), target.attrs["thread_warp_size"])
