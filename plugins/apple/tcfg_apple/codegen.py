"""Metal codegen configuration: the Metal Shading Language version and ``xcrun metal`` flags.

This machine has no Metal toolchain: the configuration is data (``to_dict``). With a GPU
family, ``-std`` is the newest MSL version the family supports (``metal3.2`` needs the
macOS 15 SDK; ``supported_std`` lists the older ones for older deployment targets).
Without one, no ``-std`` is given and the SDK's default applies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tcfg.plugin import Codegen, Target
from tcfg_apple.facts import family

__all__ = ["MetalCodegen", "codegen_for"]


@dataclass(frozen=True)
class MetalCodegen(Codegen):
    """What compiling for a Metal GPU takes: the GPU family, the MSL ``-std`` and the threadgroup limits."""

    gpu_family: str | None
    std: str | None
    supported_std: Sequence[str]
    max_threads_per_threadgroup: int
    simd_width: int

    def xcrun_flags(self) -> list[str]:
        """``xcrun -sdk macosx metal`` arguments that compile a ``.metal`` file to AIR."""
        flags = ["xcrun", "-sdk", "macosx", "metal", "-c", "-O3"]
        return flags + ([f"-std={self.std}"] if self.std else [])

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "metal",
            "gpu_family": self.gpu_family,
            "std": self.std,
            "supported_std": list(self.supported_std),
            "max_threads_per_threadgroup": self.max_threads_per_threadgroup,
            "simd_width": self.simd_width,
            "xcrun_metal": self.xcrun_flags(),
        }


def codegen_for(target: Target) -> MetalCodegen:
    """The codegen configuration of a ``metal`` target."""
    attrs = target.attrs
    name = attrs.get("gpu_family")
    supported: Sequence[str] = tuple(family(name)["msl_std"]) if name else ()
    return MetalCodegen(
        gpu_family=name,
        std=supported[-1] if supported else None,
        supported_std=supported,
        max_threads_per_threadgroup=attrs["max_threads_per_block"],
        simd_width=attrs["thread_warp_size"],
    )
