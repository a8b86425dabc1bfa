"""The hook implementations of the riscv plugin: the RISC-V CPU sub-parser, RISC-V tags, LLVM codegen.

Importing this module reads no data: the tables load on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tcfg.plugin import CpuParser, TagRegistrar, Target, hookimpl

if TYPE_CHECKING:
    from tcfg.plugin import Codegen

__all__ = ["tcfg_codegen", "tcfg_register_cpu_parsers", "tcfg_register_tags"]


@hookimpl
def tcfg_register_cpu_parsers(register: Callable[[CpuParser], None]) -> None:
    from tcfg_riscv.parser import RiscvCpuParser

    register(RiscvCpuParser())


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_riscv.tags import riscv_tags

    for tag in riscv_tags():
        register(tag)


@hookimpl
def tcfg_codegen(target: Target) -> Codegen | None:
    if target.kind.name not in ("llvm", "c") or "riscv_cpu" not in target.keys:
        return None
    from tcfg_riscv.codegen import codegen_for

    return codegen_for(target)
