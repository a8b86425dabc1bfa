"""The codegen of the ``nvptx`` kind (:mod:`tcfg_cuda.nvptx`), in a module of its own: it is a
dataclass, and building a target should not import :mod:`dataclasses`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcfg.plugin import LLVMCodegen, Target, TargetError
from tcfg_cuda.interop import TRIPLE, iree_cuda_flags, nvvm_target, ptx_feature, triton_cuda_target
from tcfg_cuda.nvptx import clang_knows, llvm_min_ptx

__all__ = ["NvptxCodegen", "codegen_for", "nvptx_codegen"]


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


def codegen_for(target: Target) -> NvptxCodegen:
    """The codegen of an nvptx target; a generic one (no ``-mcpu``) is a TargetError."""
    cpu = target.attrs.get("mcpu")
    if cpu is None:
        raise TargetError("an nvptx target without -mcpu is generic: give -mcpu (such as -mcpu=sm_80) to generate code")
    ptx = target.features.ptx_isa
    return nvptx_codegen(cpu, str(ptx), target.attrs["thread_warp_size"])
