"""The ``nvptx`` kind: NVIDIA GPUs through LLVM's NVPTX backend (TVM's ``nvptx`` kind).

``-mcpu`` is an LLVM NVPTX processor (``sm_20`` .. ``sm_121f``, as llc-22 lists them) and
``-mattr=+ptxNN`` the PTX ISA version. Without ``+ptxNN`` the PTX is the lowest LLVM 22
accepts for the processor; a lower one is refused with that minimum. The processors and
their minimums are ``data/nvptx.json``, generated from llc-22 by
``scripts/gen_nvptx_table.py``. A processor in the CUDA arch table gets that arch's
features (``fp16``, ``tensor_cores``, ...), the same as ``cuda -arch=``. Without
``-mcpu`` the target is generic (no features; its codegen asks for ``-mcpu``). Its codegen is
:mod:`tcfg_cuda.nvptx_codegen`, imported when code is generated.
"""

from __future__ import annotations

import functools
from typing import Any

from tcfg.plugin import (
    Attr,
    AttributeValueError,
    Choice,
    Derived,
    DeriveRequest,
    Feature,
    FeatureValue,
    Integer,
    String,
    StringList,
    TargetError,
    TargetKind,
    describe_choices,
    package_json,
)
from tcfg_cuda.arch import any_arch_limit, arch_info, arch_names, limit_source
from tcfg_cuda.interop import TRIPLE, ptx_feature
from tcfg_cuda.kind import FEATURES

__all__ = ["NVPTX", "clang_knows", "llvm_min_ptx", "llvm_processors", "ptx_versions"]


@functools.cache
def _raw() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_cuda", "data/nvptx.json")
    return data


def llvm_processors() -> list[str]:
    """Every NVPTX processor llc-22 lists, oldest first."""
    return list(_raw()["processors"])


def llvm_min_ptx(cpu: str) -> str:
    """The lowest PTX ISA version (``"8.0"``) LLVM 22 accepts for ``cpu``; a TargetError for an unknown one."""
    row = _raw()["processors"].get(cpu)
    if row is None:
        raise TargetError(f"LLVM 22 has no NVPTX processor {cpu!r}; {describe_choices(cpu, _raw()['processors'])}")
    return str(row["min_ptx"])


def clang_knows(cpu: str) -> bool:
    """Whether clang-22's NVPTX target accepts ``cpu`` (it lacks the family ``sm_XXXf`` processors)."""
    return cpu in _raw()["clang_processors"]


def ptx_versions() -> list[str]:
    """Every PTX ISA version LLVM 22 can write (``"3.2"`` .. ``"9.0"``)."""
    return list(_raw()["ptx_versions"])


def _key(ptx_isa: str) -> tuple[int, int]:
    major, minor = ptx_isa.split(".")
    return int(major), int(minor)


def _ptx_of(mattr: tuple[str, ...]) -> str | None:
    """The PTX version ``-mattr`` names (``+ptx80`` -> ``"8.0"``), or None."""
    by_feature = {ptx_feature(v): v for v in ptx_versions()}
    found: list[str] = []
    for item in mattr:
        if item in by_feature:
            found.append(by_feature[item])
        elif item.lstrip("+-").startswith("sm_"):
            raise AttributeValueError(f"-mattr={item}: the processor comes from -mcpu (-mcpu={item.lstrip('+-')})")
        else:
            raise AttributeValueError(
                f"-mattr={item}: LLVM 22's NVPTX features here are +ptxNN; {describe_choices(item, by_feature)}"
            )
    if len(found) > 1:
        raise AttributeValueError(f"-mattr={','.join(mattr)}: give one PTX version")
    return found[0] if found else None


@functools.cache
def _derive(mcpu: str | None, mattr: tuple[str, ...], threads: int, warp: int) -> Derived:
    if mcpu is not None:
        try:
            lowest = llvm_min_ptx(mcpu)
        except TargetError as exc:
            raise AttributeValueError(f"-mcpu={mcpu}: {exc}") from None
    ptx = _ptx_of(mattr)
    if mcpu is None:
        if ptx is not None:
            raise AttributeValueError(f"-mattr={','.join(mattr)}: a PTX version needs -mcpu (such as -mcpu=sm_80)")
        _check_limits(None, threads, warp)
        return Derived()
    if ptx is not None and _key(ptx) < _key(lowest):
        raise AttributeValueError(
            f"-mattr={ptx_feature(ptx)}: LLVM 22 writes {mcpu} code in PTX {lowest} or later "
            f"(-mattr={ptx_feature(lowest)}, the default)"
        )
    _check_limits(mcpu if mcpu in arch_names() else None, threads, warp)
    features: dict[str, FeatureValue] = {"ptx_isa": ptx or lowest}
    why = {"ptx_isa": f"-mattr={ptx_feature(ptx)}" if ptx else f"the lowest PTX LLVM 22 accepts for {mcpu}"}
    if mcpu in arch_names():
        for name, value in arch_info(mcpu).features.items():
            if value is not False and value != 0:
                features[name] = value
                why[name] = f"code for {mcpu} may use it"
    return Derived(features=features, why=why)


def _check_limits(arch: str | None, threads: int, warp: int) -> None:
    """Refuse a block or warp size no GPU of ``arch`` (of any arch, when None) has."""
    most = arch_info(arch).limits["max_threads_per_block"] if arch else any_arch_limit("max_threads_per_block")
    where = f"on {arch}" if arch else "on any CUDA GPU"
    if threads > most:
        source = limit_source("max_threads_per_block")
        raise AttributeValueError(
            f"-max_num_threads={threads}: the most threads in a block {where} is {most} ({source})"
        )
    warps = {arch_info(a).limits["warp_size"] for a in ([arch] if arch else arch_names())}
    if warp not in warps:
        raise AttributeValueError(
            f"-thread_warp_size={warp}: the warp size {where} is {min(warps)} ({limit_source('warp_size')})"
        )


def parse_nvptx(request: DeriveRequest) -> Derived:
    """Check the processor, the PTX version and the limits; derive the arch's features."""
    attrs = request.attrs
    return _derive(
        attrs.get("mcpu"), tuple(attrs.get("mattr", ())), attrs["max_num_threads"], attrs["thread_warp_size"]
    )


NVPTX = TargetKind(
    name="nvptx",
    device_type="cuda",
    attrs=(
        Attr("mcpu", String(r"[A-Za-z0-9_]+", "an NVPTX processor such as sm_80"), doc="The LLVM NVPTX processor."),
        Attr("mtriple", Choice([TRIPLE]), default=TRIPLE, doc="The LLVM target triple."),
        Attr("mattr", StringList(), doc="+ptxNN: the PTX ISA version (default: the lowest the processor needs)."),
        Attr("max_num_threads", Integer(minimum=1), default=1024, doc="Threads per block that schedules may use."),
        Attr("thread_warp_size", Integer(minimum=1), default=32, doc="Threads per warp."),
    ),
    default_keys=("cuda", "gpu"),
    parser=parse_nvptx,
    parse_reads=("mcpu", "mattr", "max_num_threads", "thread_warp_size"),
    features=(*FEATURES, Feature("ptx_isa", 'The PTX ISA version LLVM writes (".version"), as text ("8.0").')),
    doc="An NVIDIA GPU compiled by LLVM's NVPTX backend (PTX out); mcpu selects the processor.",
)
