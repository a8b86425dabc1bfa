"""The CUDA codegen configuration: arch, PTX ISA, nvcc/NVRTC options, CUDA C++ to PTX, and its
forms for MLIR, IREE and Triton (through the arch's NVPTX codegen, :mod:`tcfg_cuda.nvptx_codegen`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tcfg.plugin import Codegen, TargetError
from tcfg_cuda.arch import ArchInfo, arch_info
from tcfg_cuda.toolkit import Version, find_nvcc, find_nvrtc, parse_version

if TYPE_CHECKING:
    from typing import Any

    from tcfg_cuda.nvptx_codegen import NvptxCodegen

__all__ = ["CudaCodegen", "codegen_for"]


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
        from tcfg_cuda.nvptx_codegen import nvptx_codegen

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
