"""The RISC-V sub-parser of the core's ``llvm`` and ``c`` kinds."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from tcfg.plugin import Answers, AttributeValueError, CpuParser, Derived, DeriveRequest, Feature, feature_name
from tcfg_riscv.facts import tables
from tcfg_riscv.resolve import resolve

__all__ = ["KEYS", "QUANTITIES", "RiscvCpuParser"]

KEYS = ("riscv_cpu", "cpu")

QUANTITIES = (
    Feature("is_riscv", "A RISC-V CPU."),
    Feature("xlen", "The integer register width in bits (32 or 64)."),
    Feature("vlen_bits", "The least vector register width the extensions guarantee (the largest ZvlNb), in bits."),
)


class RiscvCpuParser(CpuParser):
    """Claims ``riscv32``/``riscv64`` triples, or without a triple a RISC-V CPU LLVM 22 knows.

    Features are the extensions clang-22 and llc-22 enable (``v``, ``zvfh``, ``zvl256b``,
    ``xsmtvdot``; ``rvv`` and ``has_rvv`` read ``v``), plus ``is_riscv``, ``xlen`` and
    ``vlen_bits``. ``-mabi`` and ``-mfloat-abi`` are checked against the extensions.
    """

    name = "riscv"
    arches = ("riscv32", "riscv64")

    @cached_property
    def features(self) -> Sequence[Feature]:  # type: ignore[override]
        exts = tables().extensions
        aliases = {"v": ("rvv", "has_rvv")}
        return (
            *(Feature(feature_name(e), exts[e]["description"], aliases.get(e, ())) for e in sorted(exts)),
            *QUANTITIES,
        )

    def claims_cpu(self, mcpu: str) -> bool:
        return mcpu != "generic" and mcpu in tables().cpus

    def cpu_names(self) -> list[str]:
        return sorted(set(tables().cpus) - {"generic"})

    def portable(self, target: Any) -> Answers:
        from tcfg_riscv.portable import portable  # read at the first portable name, not at start-up

        return portable(target)

    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        attrs: dict[str, Any] = dict(request.attrs)
        if attrs.get("march") is not None:
            raise AttributeValueError(
                f"-march={attrs['march']}: the riscv plugin takes the CPU and extensions as -mcpu and -mattr "
                "(LLVM's feature names, e.g. -mattr=+v,+zvfh); clang's -march ISA strings are not parsed"
            )
        xlen = {"riscv32": 32, "riscv64": 64}.get(arch or "")
        cpu = attrs.get("mcpu") or "generic"
        resolved = resolve(cpu, xlen, tuple(attrs.get("mattr", ())), attrs.get("mabi"), attrs.get("mfloat-abi"))
        return Derived(attrs=attrs, keys=KEYS, features=resolved.features, why=resolved.why)
