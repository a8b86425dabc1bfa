"""Hook implementations: what this plugin adds to tcfg."""

from __future__ import annotations

from collections.abc import Callable

from tcfg.plugin import CpuParser, LLVMCodegen, TagRegistrar, TagSpec, Target, arch_family, hookimpl, host_triple
from tcfg_example_riscv.parser import RiscvParser


@hookimpl
def tcfg_register_cpu_parsers(register: Callable[[CpuParser], None]) -> None:
    register(RiscvParser())


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    register(
        TagSpec(
            "starfive/visionfive2",
            {"kind": "llvm", "mtriple": "riscv64-unknown-linux-gnu", "mcpu": "sifive-u74", "num-cores": 4},
            description="StarFive VisionFive 2 (JH7110, 4x SiFive U74)",
            source="StarFive JH7110 datasheet, 2023",
        )
    )


@hookimpl
def tcfg_codegen(target: Target) -> LLVMCodegen | None:
    if target.kind.name not in ("llvm", "c") or "riscv_cpu" not in target.keys:
        return None
    attrs = target.attrs
    return LLVMCodegen(
        triple=attrs["mtriple"],
        cpu=attrs.get("mcpu", "generic-rv64"),
        features=tuple(attrs.get("mattr", ())),
        opt_level=attrs.get("opt-level", 2),
    )


@hookimpl
def tcfg_detect() -> list[str]:
    if arch_family(host_triple()) not in RiscvParser.arches:
        return []
    return [f"llvm -mtriple={host_triple()}"]
