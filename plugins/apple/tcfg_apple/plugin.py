"""The hook implementations of the apple plugin: the ``metal`` kind, Apple GPU tags and Metal codegen.

Importing this module reads no data: the family table loads on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tcfg.plugin import TagRegistrar, Target, TargetKind, hookimpl

if TYPE_CHECKING:
    from tcfg.plugin import Codegen

__all__ = ["tcfg_codegen", "tcfg_register_kinds", "tcfg_register_tags", "tcfg_runs_on"]


@hookimpl
def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
    from tcfg_apple.kind import METAL

    register(METAL)


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_apple.tags import gpu_tags

    for tag in gpu_tags():
        register(tag)


@hookimpl
def tcfg_codegen(target: Target) -> Codegen | None:
    if target.kind.name != "metal":
        return None
    from tcfg_apple.codegen import codegen_for

    return codegen_for(target)


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """metal code: the GPU family or a later one, limits at most the machine's (:mod:`tcfg_apple.running`)."""
    from tcfg_apple.running import target_runs_on

    return target_runs_on(code, machine)
