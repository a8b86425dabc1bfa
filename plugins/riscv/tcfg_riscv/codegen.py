"""LLVM codegen configuration for RISC-V targets: CPU, features, ABI, and the clang/llc flags.

The ABI goes to clang as ``-mabi`` and to llc as ``-target-abi``; ``-mfloat-abi`` (an Arm
option clang refuses on RISC-V) is not passed on, the ABI carries it. A CPU LLVM 22 lacks
(``spacemit-x100``) is compiled as ``generic-rvXX`` with its extensions spelled out. clang
gets ``-menable-experimental-extensions`` when an experimental extension is on. A clang or
llc version that does not know the CPU gets the closest exact spelling (``tcfg_riscv.spelling``),
as does a clang whose CPU means other extensions than LLVM 22's (with ``-mcpu`` kept).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcfg.plugin import LLVMCodegen, Target, compiler_drift
from tcfg_riscv.facts import tables
from tcfg_riscv.gcc import default_abi, gcc_flags
from tcfg_riscv.resolve import resolve
from tcfg_riscv.spelling import closest, knows_cpu

__all__ = ["RiscvCodegen", "codegen_for"]


@dataclass(frozen=True)
class RiscvCodegen(LLVMCodegen):
    """:class:`~tcfg.plugin.LLVMCodegen` plus the RISC-V ABI and the extensions it compiles with."""

    abi: str | None = None
    extensions: tuple[str, ...] = ()
    vlen_bits: int = 0

    def clang_flags(self) -> list[str]:
        return LLVMCodegen.clang_flags(self) + ([f"-mabi={self.abi}"] if self.abi else [])

    def llc_flags(self) -> list[str]:
        return LLVMCodegen.llc_flags(self) + ([f"-target-abi={self.abi}"] if self.abi else [])

    def spell(self, compiler: str, version: int) -> list[str]:
        """``flags()``: as for any LLVM target, but a CPU ``version`` lacks as an ISA string (or llc's generic CPU).

        gcc gets the ISA string of :attr:`extensions` (:func:`tcfg_riscv.gcc.gcc_flags`), with the
        target's ``-mabi``, else the one clang picks for :meth:`clang_flags`: from the ISA of the
        ``-mcpu`` they name (``generic-rv64``'s is ``rv64i``: ``lp64``).
        """
        if compiler == "gcc":
            xlen = int(self.triple[5:7])
            cpu = tables().cpus.get(self.cpu)
            # without -mabi, clang takes the ABI from the ISA its driver sees: the -mcpu's own
            abi = self.abi or default_abi(xlen, cpu.extensions if cpu is not None else {"i"})
            return gcc_flags(xlen, self.extensions, abi, self.cpu, version)
        if self.cpu.startswith("generic"):
            return super().spell(compiler, version)
        moved = compiler == "clang" and bool(compiler_drift("clang", "riscv64", "cpus", self.cpu, version, self.triple))
        if knows_cpu(compiler, self.cpu, version) and not moved:
            return super().spell(compiler, version)
        experimental = {name for name, ext in tables().extensions.items() if ext["experimental"]}
        if compiler == "llc":
            tail = [f"-target-abi={self.abi}"] if self.abi else []
        else:
            tail = ([f"-mabi={self.abi}"] if self.abi else []) + list(self.extra_clang)
        return closest(compiler, version, self.cpu, self.triple, self.extensions, experimental, tail, keep_cpu=moved)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out.update(abi=self.abi, extensions=list(self.extensions), vlen_bits=self.vlen_bits)
        return out


def codegen_for(target: Target) -> RiscvCodegen:
    """The codegen configuration of a RISC-V ``llvm``/``c`` target."""
    t = tables()
    attrs = target.attrs
    mattr = tuple(attrs.get("mattr", ()))
    triple = attrs.get("mtriple")
    xlen = int(triple[5:7]) if triple else None
    got = resolve(attrs.get("mcpu") or "generic", xlen, mattr, attrs.get("mabi"), attrs.get("mfloat-abi"))
    cpu, notes = got.cpu, [f"CPU and extension tables from {t.clang}"]
    features: tuple[str, ...] = mattr
    llc_cpu = cpu.name
    if cpu.name == "generic":
        llc_cpu = f"generic-rv{got.xlen}"
    elif not cpu.llvm22:
        llc_cpu = f"generic-rv{got.xlen}"
        spelled = sorted(f for f, ext in t.extension_of.items() if ext in cpu.extensions - t.base[got.xlen])
        features = (*(f"+{f}" for f in spelled), *(f"+{f}" for f in cpu.llvm_only_features), *mattr)
        notes.append(f"LLVM 22 has no CPU {cpu.name}: compiled as {llc_cpu} with its extensions ({cpu.source})")
    extra: list[str] = []
    if any(t.extensions[e]["experimental"] for e in got.extensions):
        extra.append("-menable-experimental-extensions")
    if attrs.get("mfloat-abi"):
        notes.append(f"-mfloat-abi={attrs['mfloat-abi']} is carried by the ABI (-mabi) on RISC-V")
    return RiscvCodegen(
        triple=triple or f"riscv{got.xlen}",
        cpu=llc_cpu,
        features=features,
        opt_level=attrs.get("opt-level", 2),
        extra_clang=tuple(extra),
        notes=tuple(notes),
        abi=attrs.get("mabi"),
        extensions=tuple(sorted(got.extensions)),
        vlen_bits=int(got.features.get("vlen_bits", 0)),
    )
