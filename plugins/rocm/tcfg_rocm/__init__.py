"""tcfg plugin: AMD GPUs (the ``rocm`` kind, AMD GPU tags, AMDGPU codegen, GPU detection).

The public API, for users and for plugins that build on this one (declare
``tcfg-plugin-rocm`` as a dependency and import from here only): :func:`processor`
gives a processor's facts, :func:`processor_names` every processor clang-22 knows,
:func:`parse_target_id` reads a target ID such as ``gfx942:sramecc+:xnack-``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tcfg_rocm.facts import Processor, TargetId, parse_target_id, processor, processor_names

if TYPE_CHECKING:
    from tcfg_rocm.codegen import RocmCodegen

__all__ = ["Processor", "RocmCodegen", "TargetId", "parse_target_id", "processor", "processor_names"]


def __getattr__(name: str) -> object:
    """``RocmCodegen``, imported on first use (a dataclass: loading the plugin imports no dataclasses)."""
    if name == "RocmCodegen":
        from tcfg_rocm.codegen import RocmCodegen

        return RocmCodegen
    raise AttributeError(f"module 'tcfg_rocm' has no attribute {name!r}")
