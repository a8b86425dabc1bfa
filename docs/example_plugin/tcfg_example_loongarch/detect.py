"""This machine's CPU, when it is a LoongArch one."""

from __future__ import annotations

from tcfg.plugin import arch_family, host_triple
from tcfg_example_loongarch.parser import LoongArchParser

__all__ = ["detect"]


def detect() -> list[str]:
    if arch_family(host_triple()) not in LoongArchParser.arches:
        return []
    return [f"llvm -mtriple={host_triple()}"]
