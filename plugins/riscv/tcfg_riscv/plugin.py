"""The hook implementations of the riscv plugin: the RISC-V CPU sub-parser, RISC-V tags, LLVM codegen, detection.

Importing this module reads no data: the tables load on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tcfg.plugin import CpuParser, TagRegistrar, Target, arch_family, hookimpl, host_triple

if TYPE_CHECKING:
    from tcfg.plugin import Codegen

__all__ = ["tcfg_codegen", "tcfg_detect", "tcfg_register_cpu_parsers", "tcfg_register_tags"]


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


@hookimpl
def tcfg_detect(sources: Mapping[str, tuple[str, ...]] | None) -> Sequence[dict[str, Any]]:
    """This machine's CPU when it is RISC-V Linux, or the recorded one (``cpuinfo``), from /proc/cpuinfo."""
    from tcfg_riscv import detect

    if sources is None:
        if arch_family(host_triple()) not in ("riscv32", "riscv64"):
            return []
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            return []
    else:
        text = next(iter(sources.get("cpuinfo", ())), "")
    if not detect.is_riscv(text):
        return []
    return [{"kind": "llvm", "mtriple": detect.recorded_triple(text), **detect.native_attrs(text)}]


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """RISC-V CPUs: same XLEN and ABI, every extension present, a vector length at least as long."""
    from tcfg.plugin import cpu_runs_on

    return cpu_runs_on(code, machine, ("riscv32", "riscv64"), same=("xlen",), at_least=("vlen_bits",), ignore=())
