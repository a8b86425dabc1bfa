"""LLVM codegen configuration for x86 targets, with the preferred vector width made explicit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcfg.cpu import host_triple
from tcfg.plugin import LLVMCodegen
from tcfg_x86.data import tables
from tcfg_x86.featureset import resolve

__all__ = ["X86Codegen", "codegen_for"]

#: The tuning toggles that make LLVM prefer a vector width (X86Subtarget's PreferVectorWidth).
_WIDTH_TOGGLES = {
    512: ("-prefer-128-bit", "-prefer-256-bit"),
    256: ("-prefer-128-bit", "+prefer-256-bit"),
    128: ("+prefer-128-bit",),
}


@dataclass(frozen=True)
class X86Codegen(LLVMCodegen):
    """:class:`~tcfg.plugin.LLVMCodegen` plus the preferred vector width and why it was chosen."""

    preferred_vector_width: int = 0
    vector_width_source: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["preferred_vector_width"] = self.preferred_vector_width
        out["vector_width_source"] = self.vector_width_source
        return out


def codegen_for(attrs: Any, kind: str) -> X86Codegen:
    """The codegen configuration of an x86 ``llvm``/``c`` target with attributes ``attrs``."""
    from tcfg.cpu import arch_family

    triple = attrs.get("mtriple") or host_triple()
    cpu = attrs.get("mcpu") or attrs.get("march") or "generic"
    width = attrs.get("vector-width") if kind == "llvm" else None
    resolved = resolve(cpu, arch_family(triple) == "x86_64", tuple(attrs.get("mattr", ())), width)
    features = list(resolved.mattr)
    extra_clang: list[str] = []
    notes = [f"CPU and feature tables from {tables().llvm_version}"]
    if width is not None:
        features += _WIDTH_TOGGLES[width]
        extra_clang.append(f"-mprefer-vector-width={width}")
        notes.append(f"preferred vector width {width} bits, chosen by -vector-width={width}")
    elif resolved.preferred_width:
        notes.append(
            f"preferred vector width {resolved.preferred_width} bits: {resolved.width_source}; "
            "set -vector-width to choose another"
        )
    if cpu != "generic" and not tables().cpus[cpu].clang_march:  # no -march is passed for generic
        notes.append(f"{tables().clang_version} does not accept -march={cpu}; llc -mcpu={cpu} does")
    return X86Codegen(
        triple=triple,
        cpu=cpu,
        features=tuple(features),
        opt_level=attrs.get("opt-level", 2),
        clang_cpu_flag="-march",
        extra_clang=tuple(extra_clang),
        notes=tuple(notes),
        preferred_vector_width=resolved.preferred_width,
        vector_width_source=resolved.width_source,
    )
