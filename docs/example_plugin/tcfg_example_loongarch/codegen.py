"""The LLVM codegen of a LoongArch target (imported when code is generated, not when the plugin loads)."""

from __future__ import annotations

from tcfg.plugin import LLVMCodegen, Target

__all__ = ["codegen_for"]


def codegen_for(target: Target) -> LLVMCodegen:
    attrs = target.attrs
    return LLVMCodegen(
        triple=attrs["mtriple"],
        cpu=attrs.get("mcpu", "generic-la64"),
        features=tuple(attrs.get("mattr", ())),
        clang_cpu_flag="-march",
        opt_level=attrs.get("opt-level", 2),
    )
