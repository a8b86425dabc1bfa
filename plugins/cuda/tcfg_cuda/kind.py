"""The ``cuda`` and ``nvptx`` target kinds. ``cuda``: attributes, the features each arch gives, and the parser.

Defaults that hold on every arch this plugin knows (1024 threads per block, warps of
32, 48 KiB of static shared memory per block) are the kind's defaults. Those that
depend on the arch (the opt-in shared memory maximum, registers per block) are implied
by the parser from the arch table when the user does not give them
(``Derived.defaults``: they fill ``target.attrs`` but are not printed or exported), and
so is ``max_num_threads``, from ``max_threads_per_block`` as given: a derived value
follows the given ones and never contradicts them.
``cuda`` without ``arch`` is a valid generic GPU target whose arch-dependent features
read False. ``-arch=native`` asks the GPU of this machine.

What no CUDA GPU can be is refused with the limit and its source (the arch table's
``limits`` and ``limit_sources``, from NVIDIA's CUDA C++ Programming Guide): more
threads per block than the arch allows (than any arch allows, without ``arch``), a warp
other than the table's 32 threads, and a host that is not a CPU target.

The ``nvptx`` kind: NVIDIA GPUs through LLVM's NVPTX backend (TVM's ``nvptx`` kind).

``-mcpu`` is an LLVM NVPTX processor (``sm_20`` .. ``sm_121f``, as llc-22 lists them) and
``-mattr=+ptxNN`` the PTX ISA version. Without ``+ptxNN`` the PTX is the lowest LLVM 22
accepts for the processor; a lower one is refused with that minimum. The processors and
their minimums are ``data/nvptx.json``, generated from llc-22 by
``scripts/gen_nvptx_table.py``. A processor in the CUDA arch table gets that arch's
features (``fp16``, ``tensor_cores``, ...), the same as ``cuda -arch=``. Without
``-mcpu`` the target is generic (no features; its codegen asks for ``-mcpu``). Its codegen is
:class:`tcfg_cuda.codegen.NvptxCodegen`, imported when code is generated.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from tcfg.plugin import (
    Answers,
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
)
from tcfg_cuda.facts import any_arch_limit, arch_info, arch_names, limit_source, llvm_min_ptx, ptx_versions
from tcfg_cuda.interop import TRIPLE, ptx_feature

__all__ = ["CUDA", "FEATURES", "NVPTX", "PARSED_ATTRS", "parse_cuda", "parse_nvptx"]

STATIC_SHARED_MEMORY = 48 * 1024

_ATTRS = (
    Attr(
        "arch",
        String(r"[A-Za-z0-9_]+", "a CUDA arch such as sm_80, sm_90a, sm_100f or native"),
        doc="The GPU arch code is compiled for: sm_XY, sm_XYa (arch-specific), sm_XYf "
        "(family-specific), or native (this machine's GPU). TVM's -mcpu is an alias.",
        aliases=("mcpu",),
    ),
    Attr("max_threads_per_block", Integer(minimum=1), default=1024, doc="Most threads in one block."),
    Attr(
        "max_shared_memory_per_block",
        Integer(minimum=0),
        default=STATIC_SHARED_MEMORY,
        doc="Shared memory a block may use without opting in (bytes); at most the opt-in maximum.",
    ),
    Attr(
        "max_shared_memory_per_block_optin",
        Integer(minimum=0),
        doc="Shared memory a block may use after cudaFuncSetAttribute opt-in (bytes); from the arch.",
    ),
    Attr("thread_warp_size", Integer(minimum=1), default=32, doc="Threads per warp."),
    Attr("registers_per_block", Integer(minimum=1), doc="32-bit registers available to one block; from the arch."),
    Attr(
        "max_num_threads",
        Integer(minimum=1),
        doc="Threads per block that schedules may use (TVM's name); at most max_threads_per_block, "
        "which it follows when not given.",
    ),
    Attr("l2_cache_size_bytes", Integer(minimum=0), doc="L2 cache size of the device (bytes)."),
    Attr("multi_processor_count", Integer(minimum=1), doc="Streaming multiprocessors (SMs) on the device."),
    Attr("global_memory_bytes", Integer(minimum=1), doc="Device memory (bytes)."),
)

#: Every feature the cuda kind derives.
FEATURES = (
    Feature("fp16", "Half-precision arithmetic instructions (sm_53+).", ("have_fp16",)),
    Feature("bf16", "bfloat16 arithmetic and tensor-core inputs (sm_80+).", ("have_bf16",)),
    Feature("tf32", "TensorFloat-32 conversions and tensor-core inputs (sm_80+)."),
    Feature("dp4a", "4-way int8 dot product instructions dp4a/dp2a (sm_61+).", ("have_int8",)),
    Feature("tensor_cores", "Tensor core matrix multiply-accumulate, mma/wmma (sm_70+).", ("have_tensorcore",)),
    Feature(
        "tensor_core_generation",
        "Tensor core generation: 1 Volta, 2 Turing, 3 Ampere, 4 Ada/Hopper, 5 Blackwell.",
    ),
    Feature("int8_tensor_cores", "Tensor core int8 inputs (sm_72+)."),
    Feature("fp8", "FP8 (e4m3, e5m2) conversions and tensor-core inputs (sm_89+)."),
    Feature("fp4", "FP4 (e2m1) conversions; arch- or family-specific Blackwell targets only."),
    Feature("cp_async", "Asynchronous global-to-shared copies, cp.async (sm_80+)."),
    Feature("tma", "Tensor Memory Accelerator bulk tensor copies, cp.async.bulk.tensor (sm_90+)."),
    Feature("wgmma", "Warpgroup MMA, wgmma.mma_async: sm_90a only."),
    Feature("tcgen05", "5th-generation tensor core instructions: sm_100a/f, sm_103a/f, sm_110a/f."),
    Feature("compute_capability", 'The compute capability of the arch, as text ("8.6").'),
)


@functools.cache
def _arch_facts(name: str, max_threads_per_block: int) -> Derived:
    """What the arch gives (features, their explanations, implied limits), computed once per arch.

    The same object is returned for every target of the arch and block size, so the core
    checks it once. ``max_num_threads`` follows ``max_threads_per_block``.
    """
    info = arch_info(name)
    known = set(arch_names())
    siblings = [arch_info(n) for n in (f"{info.base}a", f"{info.base}f") if n in known and n != name]
    features = {k: v for k, v in info.features.items() if v is not False and v != 0}
    why = {}
    for feat, value in info.features.items():
        if feat in ("compute_capability", "tensor_core_generation"):
            why[feat] = f"the arch {name} is compute capability {info.major}.{info.minor} ({info.generation})"
        elif value:
            why[feat] = f"code for the arch {name} may use it"
        else:
            having = [s.name for s in siblings if s.features.get(feat)]
            if having:
                why[feat] = f"code for {name} may not use it; code for {' or '.join(having)} may"
    implied = {
        "max_shared_memory_per_block_optin": info.limits["max_shared_memory_per_block_optin"],
        "registers_per_block": info.limits["registers_per_block"],
        "max_num_threads": max_threads_per_block,
    }
    return Derived(features=features, why=why, defaults=implied)


@functools.cache
def _no_arch(max_threads_per_block: int) -> Derived:
    return Derived(defaults={"max_num_threads": max_threads_per_block})


def _fill_native(attrs: dict[str, Any]) -> dict[str, Any]:
    from tcfg_cuda.detect import native_gpu

    gpu = native_gpu()
    attrs["arch"] = gpu.arch
    for key, value in gpu.attrs().items():
        attrs.setdefault(key, value)
    return attrs


def parse_cuda(request: DeriveRequest) -> Derived:
    """Check the arch, fill the arch's defaults, and derive its features."""
    given: Mapping[str, Any] = request.attrs
    arch = given.get("arch")
    attrs: dict[str, Any] | None = None
    if arch == "native":
        attrs = _fill_native(dict(given))
        arch = attrs["arch"]
    _check_host(given.get("host"))
    threads = (attrs or given)["max_threads_per_block"]
    if arch is None:
        _check_limits(given, None, {})
        return _no_arch(threads) if attrs is None else _no_arch(threads)._replace(attrs=attrs)
    try:
        facts = _arch_facts(arch, threads)
    except TargetError as exc:
        if arch.startswith("compute_"):
            raise AttributeValueError(
                f"-arch={arch} names PTX code; give the GPU arch -arch=sm_{arch.removeprefix('compute_')} "
                "(its codegen embeds the PTX as well)"
            ) from None
        raise AttributeValueError(f"-arch={arch}: {exc}") from None
    _check_limits(attrs if attrs is not None else given, arch, facts.defaults)
    return facts if attrs is None else facts._replace(attrs=attrs)


@functools.cache
def _gpu_limits(arch: str | None) -> tuple[int, frozenset[int]]:
    """(most threads per block, possible warp sizes) on ``arch``, or on any arch of the table."""
    if arch:
        limits = arch_info(arch).limits
        return limits["max_threads_per_block"], frozenset({limits["warp_size"]})
    return any_arch_limit("max_threads_per_block"), frozenset(arch_info(a).limits["warp_size"] for a in arch_names())


def _check_host(host: Any) -> None:
    """Refuse a host that is not a CPU target: a cuda target's host runs its host code."""
    if host is None or host.kind.device_type == "cpu":
        return
    raise AttributeValueError(
        f"-host={host}: the host of a cuda target runs its host-side code, so it must be a CPU target "
        f"(such as llvm or c); kind {host.kind.name!r} is a {host.kind.device_type} device"
    )


def _limit(attr: str, value: int, limit: int, arch: str | None, what: str, source: str) -> AttributeValueError:
    where = f"on {arch}" if arch else "on any CUDA GPU"
    return AttributeValueError(f"-{attr}={value}: {what} {where} is {limit} (source: {limit_source(source)})")


def _check_limits(attrs: Mapping[str, Any], arch: str | None, implied: Mapping[str, Any]) -> None:
    """Refuse what no GPU of ``arch`` (any CUDA GPU, without one) can be, and limits that contradict each other.

    ``implied``: the arch's values for those not given.
    """
    threads = attrs["max_threads_per_block"]
    most, warps = _gpu_limits(arch)
    if threads > most:
        raise _limit(
            "max_threads_per_block", threads, most, arch, "the most threads in a block", "max_threads_per_block"
        )
    warp = attrs["thread_warp_size"]
    if warp not in warps:
        raise _limit("thread_warp_size", warp, min(warps), arch, "the warp size", "warp_size")
    optin = attrs.get("max_shared_memory_per_block_optin", implied.get("max_shared_memory_per_block_optin"))
    static = attrs["max_shared_memory_per_block"]
    if optin is not None and static > optin:
        raise AttributeValueError(
            f"-max_shared_memory_per_block={static} exceeds -max_shared_memory_per_block_optin={optin}"
            + (f" (the most a block may use on {arch})" if arch else "")
        )
    if attrs.get("max_num_threads", threads) > threads:
        raise AttributeValueError(
            f"-max_num_threads={attrs['max_num_threads']} exceeds "
            f"-max_threads_per_block={attrs['max_threads_per_block']}"
        )


#: What parse_cuda reads: its result is reused for targets that agree on these.
PARSED_ATTRS = (
    "arch",
    "max_threads_per_block",
    "max_shared_memory_per_block",
    "max_shared_memory_per_block_optin",
    "max_num_threads",
    "thread_warp_size",
    "host",
)


def _portable(target: Any) -> Answers:
    from tcfg_cuda.portable import portable  # read at the first portable name, not at start-up

    return portable(target)


CUDA = TargetKind(
    name="cuda",
    device_type="cuda",
    dlpack_device_type=2,  # kDLCUDA in dlpack.h
    attrs=_ATTRS,
    default_keys=("cuda", "gpu"),
    parser=parse_cuda,
    parse_reads=PARSED_ATTRS,
    features=FEATURES,
    portable=_portable,
    doc="An NVIDIA GPU programmed through CUDA; arch selects the compute capability.",
)


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
        _check_nvptx_limits(None, threads, warp)
        return Derived()
    if ptx is not None and _key(ptx) < _key(lowest):
        raise AttributeValueError(
            f"-mattr={ptx_feature(ptx)}: LLVM 22 writes {mcpu} code in PTX {lowest} or later "
            f"(-mattr={ptx_feature(lowest)}, the default)"
        )
    _check_nvptx_limits(mcpu if mcpu in arch_names() else None, threads, warp)
    features: dict[str, FeatureValue] = {"ptx_isa": ptx or lowest}
    why = {"ptx_isa": f"-mattr={ptx_feature(ptx)}" if ptx else f"the lowest PTX LLVM 22 accepts for {mcpu}"}
    if mcpu in arch_names():
        for name, value in arch_info(mcpu).features.items():
            if value is not False and value != 0:
                features[name] = value
                why[name] = f"code for {mcpu} may use it"
    return Derived(features=features, why=why)


def _check_nvptx_limits(arch: str | None, threads: int, warp: int) -> None:
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
    dlpack_device_type=2,  # kDLCUDA in dlpack.h
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
    portable=_portable,
    features=(*FEATURES, Feature("ptx_isa", 'The PTX ISA version LLVM writes (".version"), as text ("8.0").')),
    doc="An NVIDIA GPU compiled by LLVM's NVPTX backend (PTX out); mcpu selects the processor.",
)
