"""The portable vocabulary for ``metal`` targets, read from the GPU family's features and the attributes."""

from __future__ import annotations

from typing import Any

from tcfg.plugin import CPU_ONLY, Answer, Answers, from_vendor, none

__all__ = ["portable"]

_MSL = "Apple's Metal Shading Language Specification (v3.2, 2024)"


def portable(target: Any) -> Answers:
    """Every portable name for a Metal GPU."""
    f = target.features
    apple = str(f.vendor("gpu_family")).startswith("apple")
    matrix = f.vendor("simdgroup_matrix") is not False
    attrs = target.attrs
    unsaid = "tcfg_apple's family table does not record it"
    return {
        "fp16": Answer(True, f"every Metal GPU computes with half ({_MSL})") if apple else Answer(None, unsaid),
        **none(unsaid, ("bf16", "fp8_e4m3", "fp8_e5m2", "int8_dot", "int4")),
        "fp64": Answer(False, f"Metal has no double type on GPUs ({_MSL})"),
        **none(
            "a Metal GPU is SIMT: no vector registers (see warp_size)",
            CPU_ONLY,
        ),
        "matrix": from_vendor(f, "apple", ("simdgroup_matrix",)),
        "matrix_engine": Answer("simdgroup_matrix" if matrix else "", f"apple's simdgroup_matrix is {matrix}"),
        "matrix_formats": Answer("fp16" if matrix else "", f"simdgroup_matrix takes half and float ({_MSL})"),
        "warp_size": Answer(attrs.get("thread_warp_size"), "the target's -thread_warp_size (SIMD-group width)"),
        "max_threads_per_block": Answer(attrs.get("max_threads_per_block"), "the target's -max_threads_per_block"),
        "shared_memory_bytes": Answer(
            attrs.get("max_shared_memory_per_block"), "the target's -max_shared_memory_per_block (threadgroup memory)"
        ),
        "l2_cache_bytes": Answer(None, "Apple does not publish its GPUs' cache sizes"),
        "cores": Answer(None, "the metal kind has no attribute for the GPU's core count"),
    }
