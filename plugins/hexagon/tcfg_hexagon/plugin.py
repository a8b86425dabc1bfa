"""The hook implementations of the hexagon plugin: the ``hexagon`` kind, its tags and codegen.

Importing this module reads no data: the tables load in the functions that use them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tcfg.plugin import TagRegistrar, Target, TargetKind, hookimpl

if TYPE_CHECKING:
    from tcfg.plugin import Codegen


@hookimpl
def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
    from tcfg_hexagon.kind import HEXAGON

    register(HEXAGON)


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_hexagon.tags import hexagon_tags

    for tag in hexagon_tags():
        register(tag)


@hookimpl
def tcfg_codegen(target: Target) -> Codegen | None:
    if target.kind.name != "hexagon":
        return None
    from tcfg_hexagon.codegen import codegen_for

    return codegen_for(target)


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """Hexagon code: an architecture and HVX version at least as new, the same HVX vector length,
    every HVX feature present (``tcfg.plugin.cpu_runs_on``'s rule)."""
    if code.kind.name != "hexagon":
        return None
    from tcfg.plugin import cpu_runs_on

    return cpu_runs_on(code, machine, ("hexagon",), same=("hvx_length",), at_least=("hexagon_arch", "hvx_version"))
