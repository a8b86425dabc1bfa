"""A RISC-V CPU plus ``-mattr`` changes and ``-mabi``, resolved with LLVM 22's semantics.

``+F`` turns on F and everything F implies; ``-F`` turns off F's extension and every
extension that implies it (``-f`` also drops ``d``, ``v``, ``zfh``, ...); changes apply in
the order given, after the CPU's. Tuning features and profiles pass through to LLVM
(``-rva23u64`` turns nothing off, as in LLVM). The vector length is the largest ``ZvlNb``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from tcfg.plugin import AttributeValueError, FeatureValue, describe_choices
from tcfg_riscv.facts import Cpu, tables

__all__ = ["ABIS", "Resolved", "resolve", "riscv_cpu"]

#: The ABIs LLVM takes for each XLEN.
ABIS = {32: ("ilp32", "ilp32f", "ilp32d", "ilp32e"), 64: ("lp64", "lp64f", "lp64d", "lp64e")}
_ZVL = re.compile(r"^zvl(\d+)b$")
_RV64_PROFILE = re.compile(r"^(experimental-)?rv[a-z]\d+[a-z]64$")


class Resolved(NamedTuple):
    """The outcome for one (CPU, XLEN, -mattr, -mabi, -mfloat-abi) combination."""

    cpu: Cpu
    xlen: int
    extensions: frozenset[str]
    features: Mapping[str, FeatureValue]
    why: Mapping[str, str]


def riscv_cpu(name: str) -> Cpu:
    """The CPU ``name`` (``generic`` included), or a TargetError naming the closest CPUs."""
    t = tables()
    cpu = t.cpus.get(name)
    if cpu is not None:
        return cpu
    if name == "native":
        raise AttributeValueError(
            "-mcpu=native: the riscv plugin does not read this machine's CPU; name it (-mcpu=spacemit-x60, ...)"
        )
    if name in t.tune_only:
        raise AttributeValueError(
            f"-mcpu={name} is one of LLVM 22's tuning-only RISC-V models (clang takes it as -mtune, llc refuses it "
            f"as a CPU); give a CPU: {describe_choices(name, [c for c in t.cpus if c != 'generic'])}"
        )
    raise AttributeValueError(f"-mcpu={name} is not a RISC-V CPU tcfg knows; {describe_choices(name, t.cpus)}")


def _check_width(item: str, name: str, xlen: int) -> None:
    t = tables()
    wrong = (
        (xlen == 64 and (name in t.rv32_only or item == "+32bit"))
        or (xlen == 32 and (item == "+64bit" or (item[0] == "+" and _RV64_PROFILE.match(name) is not None)))
        or item == f"-{xlen}bit"
    )
    if wrong:
        raise AttributeValueError(f"-mattr={item} cannot be used on RV{xlen} (LLVM 22 refuses it there)")


def _apply(mattr: tuple[str, ...], xlen: int, exts: set[str], why: dict[str, str]) -> None:
    t = tables()
    for item in mattr:
        sign, name = item[0], item[1:]
        if name not in t.features and f"experimental-{name}" in t.features:
            raise AttributeValueError(
                f"-mattr={item}: {name} is experimental in LLVM 22; its feature is {sign}experimental-{name}"
            )
        if name not in t.features:
            raise AttributeValueError(
                f"-mattr={item}: {name!r} is not a RISC-V feature LLVM 22 knows; {describe_choices(name, t.features)}"
            )
        _check_width(item, name, xlen)
        if sign == "+":
            for ext in t.implies[name] - exts:
                why[ext] = f"-mattr={item}" if ext == t.extension_of.get(name) else f"implied by -mattr={item}"
            exts |= t.implies[name]
            continue
        own = t.extension_of.get(name)
        if own is None:
            continue
        for ext in (t.dependents[own] | {own}) & exts:
            why[ext] = f"removed by -mattr={item}" + ("" if ext == own else f" (it needs {own})")
        exts -= t.dependents[own] | {own}


def _check_abi(mabi: str | None, float_abi: str | None, xlen: int, exts: frozenset[str]) -> None:
    if mabi is not None:
        if mabi not in ABIS[xlen]:
            raise AttributeValueError(f"-mabi={mabi}: not an RV{xlen} ABI; {describe_choices(mabi, ABIS[xlen])}")
        needs = {"f": "f", "d": "d"}.get(mabi[-1])
        if needs and needs not in exts:
            raise AttributeValueError(
                f"-mabi={mabi} passes floats in {needs.upper()} registers, but the target lacks the "
                f"{needs.upper()} extension (LLVM 22 refuses it); use -mabi={ABIS[xlen][0]}"
            )
    if float_abi is None:
        return
    hard_abi = mabi[-1] in "fd" if mabi else None
    if float_abi == "softfp":
        raise AttributeValueError("-mfloat-abi=softfp is an Arm ABI; on RISC-V the float ABI is part of -mabi")
    if float_abi == "hard" and (hard_abi is False or (hard_abi is None and "f" not in exts)):
        raise AttributeValueError(
            "-mfloat-abi=hard needs a hard-float ABI (-mabi=...f or ...d) and the F extension"
            + (f", not -mabi={mabi}" if mabi else "")
        )
    if float_abi == "soft" and hard_abi:
        raise AttributeValueError(f"-mfloat-abi=soft contradicts -mabi={mabi}, a hard-float ABI")


def _features(exts: frozenset[str], xlen: int) -> dict[str, FeatureValue]:
    out: dict[str, FeatureValue] = {"is_riscv": True, "xlen": xlen}
    out.update({ext: True for ext in exts})
    widths = [int(m.group(1)) for m in map(_ZVL.match, exts) if m]
    if widths:
        out["vlen_bits"] = max(widths)
    return out


@lru_cache(maxsize=4096)
def resolve(
    cpu_name: str, xlen: int | None, mattr: tuple[str, ...], mabi: str | None, float_abi: str | None
) -> Resolved:
    """Extensions, features and explanations of ``cpu_name`` on a triple of width ``xlen`` (None: the CPU's).

    Raises :class:`tcfg.TargetError` for unknown names and combinations LLVM 22 refuses.
    """
    cpu = riscv_cpu(cpu_name)
    width = xlen or cpu.xlen or 64
    if cpu.xlen is not None and cpu.xlen != width:
        raise AttributeValueError(
            f"-mcpu={cpu_name} is an RV{cpu.xlen} CPU; the riscv{width} triple needs an RV{width} CPU "
            f"(use -mtriple=riscv{cpu.xlen}-...)"
        )
    exts = set(cpu.extensions or tables().base[width])
    origin = f"-mcpu={cpu_name} has it" + ("" if cpu.llvm22 else f" ({cpu.source})")
    why = {ext: origin for ext in exts}
    _apply(mattr, width, exts, why)
    frozen = frozenset(exts)
    if any(_ZVL.match(e) for e in frozen) and not any(e == "v" or e.startswith("zve") for e in frozen):
        raise AttributeValueError(
            f"-mattr={','.join(mattr)} leaves a minimum vector length (Zvl*b) without a vector extension "
            "(V or Zve*), which LLVM 22 refuses"
        )
    _check_abi(mabi, float_abi, width, frozen)
    features = _features(frozen, width)
    why["xlen"] = f"the riscv{width} " + ("triple" if xlen else f"CPU {cpu_name}")
    if "vlen_bits" in features:
        why["vlen_bits"] = f"zvl{features['vlen_bits']}b: the vector registers have at least this many bits"
    return Resolved(cpu, width, frozen, features, why)
