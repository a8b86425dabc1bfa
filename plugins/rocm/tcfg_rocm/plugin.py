"""The hook implementations of the rocm plugin: the ``rocm`` kind, AMD GPU tags, codegen, detection.

Importing this module reads no data: the processor, feature and board tables load on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from tcfg.plugin import TagRegistrar, Target, TargetError, TargetKind, hookimpl

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
    of a recorded ``rocminfo`` or ``amd-smi static --json`` (given both, one target per GPU, and
    the two must name the same processors)."""
    from tcfg_rocm.amd_smi import parse_amd_smi
    from tcfg_rocm.detect import detect_gpus, parse_rocminfo

    if sources is None:
        return [gpu.spec() for gpu in detect_gpus()]
    agents = [gpu for text in sources.get("rocminfo", ()) for gpu in parse_rocminfo(text)]
    smi = [gpu for text in sources.get("amd-smi", ()) for gpu in parse_amd_smi(text)]
    if agents and smi and [g.processor for g in agents] != [g.processor for g in smi]:
        raise TargetError(
            f"the recorded rocminfo lists GPUs {[g.processor for g in agents]} and the recorded amd-smi "
            f"{[g.processor for g in smi]}: give recordings of the same machine"
        )
    return [gpu.spec() for gpu in agents or smi]


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """rocm code: LLVM's target-ID rule (same gfx processor; xnack/sramecc given alike)."""
    from tcfg_rocm.running import target_runs_on

    return target_runs_on(code, machine)
