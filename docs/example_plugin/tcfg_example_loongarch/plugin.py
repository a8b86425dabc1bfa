"""Hook implementations: what this plugin adds to tcfg."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tcfg.plugin import TagSpec, arch_family, hookimpl, host_triple
from tcfg_example_loongarch.parser import LoongArchParser

if TYPE_CHECKING:  # names for annotations only: importing LLVMCodegen imports dataclasses
    from tcfg.plugin import CpuParser, LLVMCodegen, TagRegistrar, Target


@hookimpl
def tcfg_register_cpu_parsers(register: Callable[[CpuParser], None]) -> None:
    register(LoongArchParser())


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    register(
        TagSpec(
            "loongson/3a6000",
            {"kind": "llvm", "mtriple": "loongarch64-unknown-linux-gnu", "mcpu": "la664", "num-cores": 4},
            description="Loongson 3A6000 (4x LA664)",
            source="Loongson 3A6000 product page, 2023",
        )
    )


@hookimpl
def tcfg_codegen(target: Target) -> LLVMCodegen | None:
    if target.kind.name not in ("llvm", "c") or "loongarch_cpu" not in target.keys:
        return None
    from tcfg.plugin import LLVMCodegen  # when code is generated, not when the plugin loads

    attrs = target.attrs
    return LLVMCodegen(
        triple=attrs["mtriple"],
        cpu=attrs.get("mcpu", "generic-la64"),
        features=tuple(attrs.get("mattr", ())),
        clang_cpu_flag="-march",
        opt_level=attrs.get("opt-level", 2),
    )


@hookimpl
def tcfg_detect() -> list[str]:
    if arch_family(host_triple()) not in LoongArchParser.arches:
        return []
    return [f"llvm -mtriple={host_triple()}"]
