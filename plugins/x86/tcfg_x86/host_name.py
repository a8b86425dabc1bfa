"""The CPU name LLVM 22's ``sys::getHostCPUName`` gives an x86 machine, from its vendor, family,
model and CPUID features (``data/host_cpus.json``, generated from LLVM's ``Host.cpp`` by
``scripts/gen_host_cpu.py``)."""

from __future__ import annotations

from functools import cache
from typing import Any

from tcfg.plugin import package_json

__all__ = ["llvm_host_cpu"]


@cache
def _table() -> Any:
    return package_json("tcfg_x86", "data/host_cpus.json")


def llvm_host_cpu(vendor: str | None, family: int | None, model: int | None, features: frozenset[str]) -> str | None:
    """LLVM's name for the CPU (``GenuineIntel``/``AuthenticAMD``, CPUID family and model, LLVM
    feature names present), or None where LLVM says ``generic`` (another vendor, an unknown family)."""
    table = _table()
    rows = table["vendors"].get(vendor or "", {}).get(str(family), ())
    for first, last, index in rows:
        if model is not None and first <= model <= last:
            for present, absent, cpu in table["outcomes"][index]:
                if features.issuperset(present) and features.isdisjoint(absent):
                    return str(cpu) if cpu else None
    return None
