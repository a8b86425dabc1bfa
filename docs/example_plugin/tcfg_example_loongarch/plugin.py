"""Hook implementations: what this plugin adds to tcfg. Hooks only: each imports the sibling module
that does the work when it runs, so loading the plugin reads no data and imports nothing more."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tcfg.plugin import hookimpl

if TYPE_CHECKING:  # names for annotations only: importing LLVMCodegen imports dataclasses
    from tcfg.plugin import CpuParser, LLVMCodegen, TagRegistrar, Target


@hookimpl
def tcfg_register_cpu_parsers(register: Callable[[CpuParser], None]) -> None:
    from tcfg_example_loongarch.parser import LoongArchParser

    register(LoongArchParser())


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_example_loongarch.tags import TAGS

    for tag in TAGS:
        register(tag)


@hookimpl
def tcfg_codegen(target: Target) -> LLVMCodegen | None:
    if target.kind.name not in ("llvm", "c") or "loongarch_cpu" not in target.keys:
        return None
    from tcfg_example_loongarch.codegen import codegen_for

    return codegen_for(target)


@hookimpl
def tcfg_detect() -> list[str]:
    from tcfg_example_loongarch.detect import detect

    return detect()
