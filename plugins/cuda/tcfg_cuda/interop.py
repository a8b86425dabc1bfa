"""NVIDIA targets in the forms of neighbouring compilers: MLIR's ``#nvvm.target``, iree-compile, Triton.

* MLIR 22 (``mlir/include/mlir/Dialect/LLVMIR/NVVMOps.td``, ``NVVM_TargetAttr``):
  ``#nvvm.target<O = 3, triple = "nvptx64-nvidia-cuda", chip = "sm_90a", features = "+ptx80">``.
* IREE (``compiler/plugins/target/CUDA/CUDATarget.cpp``): ``--iree-hal-target-device=cuda``
  with ``--iree-cuda-target`` (an LLVM NVPTX processor) and ``--iree-cuda-target-features``.
* Triton (``GPUTarget(backend, arch, warp_size)``): ``arch`` is the compute capability as
  ``major * 10 + minor``; Triton takes no suffix and itself compiles for the
  arch-specific ``sm_XXa`` from capability 9.0 on (``sm_arch_from_capability`` in
  ``third_party/nvidia/backend/compiler.py``), so ``sm_90`` and ``sm_90a`` both give 90.
"""

from __future__ import annotations

from tcfg.plugin import TargetError, package_json

__all__ = ["TRIPLE", "iree_cuda_flags", "nvvm_target", "ptx_feature", "triton_cuda_target"]

#: The triple of LLVM's 64-bit NVPTX backend for CUDA.
TRIPLE = "nvptx64-nvidia-cuda"


def ptx_feature(ptx_isa: str) -> str:
    """LLVM's NVPTX feature for a PTX ISA version: ``"8.0"`` -> ``"+ptx80"``."""
    major, minor = ptx_isa.split(".")
    return f"+ptx{major}{minor}"


def nvvm_target(chip: str, ptx_isa: str, opt_level: int) -> str:
    """MLIR's NVVM target attribute for ``chip`` (an LLVM NVPTX processor) at PTX ``ptx_isa``."""
    return f'#nvvm.target<O = {opt_level}, triple = "{TRIPLE}", chip = "{chip}", features = "{ptx_feature(ptx_isa)}">'


def iree_cuda_flags(chip: str, ptx_isa: str) -> list[str]:
    """iree-compile's flags for a CUDA device of ``chip`` at PTX ``ptx_isa``.

    Raises :class:`TargetError` for an arch the iree-compile of ``data/iree.json`` has no
    GPU target for (it refuses them with "missing GPU target"): its message names the
    archs it has. ``interop/scripts/iree_targets.py`` probes the tool for that table.
    """
    iree = package_json("tcfg_cuda", "data/iree.json")
    if chip not in iree["cuda_targets"]:
        raise TargetError(
            f"{iree['source'].split(' (')[0]} has no CUDA GPU target for {chip}; it compiles for "
            f"{', '.join(sorted(iree['cuda_targets'], key=lambda a: (len(a), a)))}"
        )
    return [
        "--iree-hal-target-device=cuda",
        f"--iree-cuda-target={chip}",
        f"--iree-cuda-target-features={ptx_feature(ptx_isa)}",
    ]


def triton_cuda_target(major: int, minor: int, warp_size: int) -> tuple[str, int, int]:
    """Triton's ``GPUTarget`` for compute capability ``major.minor``."""
    return ("cuda", major * 10 + minor, warp_size)
