"""The hook implementations of the rocm plugin: the ``rocm`` kind, AMD GPU tags, codegen, detection.

Importing this module reads no data: the processor, feature and board tables load on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from tcfg.plugin import TagRegistrar, Target, TargetKind, hookimpl

if TYPE_CHECKING:
    from typing import Any

    from tcfg.plugin import Codegen


@hookimpl
def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
    from tcfg_rocm.kind import rocm_kind

    register(rocm_kind())


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_rocm.tags import board_tags

    for tag in board_tags():
        register(tag)


@hookimpl
def tcfg_codegen(target: Target) -> Codegen | None:
    if target.kind.name != "rocm":
        return None
    from tcfg_rocm.codegen import codegen_for

    return codegen_for(target)


@hookimpl
def tcfg_detect(sources: Mapping[str, tuple[str, ...]] | None) -> Sequence[dict[str, Any]]:
    """One rocm target per AMD GPU the kernel driver (amdkfd) reports (none without one), or per GPU
    agent of a recorded ``rocminfo``."""
    from tcfg_rocm.detect import detect_gpus, parse_rocminfo

    if sources is not None:
        return [gpu.spec() for text in sources.get("rocminfo", ()) for gpu in parse_rocminfo(text)]
    return [gpu.spec() for gpu in detect_gpus()]


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """rocm code: LLVM's target-ID rule (same gfx processor; xnack/sramecc given alike)."""
    from tcfg_rocm.running import target_runs_on

    return target_runs_on(code, machine)
