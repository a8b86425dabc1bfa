"""The ``rocm`` target kind: an AMD GPU, its processor (target ID), LLVM features and limits.

``-mcpu`` is an AMDGPU target ID (``gfx90a``, ``gfx90a:xnack+``,
``gfx942:sramecc+:xnack-``); ``-mattr`` adds or removes LLVM AMDGPU features
(``+wavefrontsize64`` runs an RDNA processor in wave64). The features of a target are
what clang-22 enables for ``--target=amdgcn-amd-amdhsa -mcpu=TARGET_ID`` with those
``-mattr`` features (clang's feature map, the ``target-features`` of the IR it writes),
with LLVM's names canonically spelled (``dot10-insts`` -> ``dot10_insts``), plus
``wavefront_size``, ``lds_size`` (the most LDS a workgroup may use, from llc's limit),
and ``xnack_setting``/``sramecc_setting`` (``on``, ``off`` or ``any``, where the processor
has the target-ID feature). ``rocm`` without ``-mcpu`` is a generic AMD GPU: valid, with
no processor features, and it cannot be compiled.

The limits TVM 0.27 gives a rocm target by default (256 threads per block and per
schedule) are the kind's defaults; the warp (wavefront) size and the shared memory (LDS)
per block follow the processor and are refused when they contradict it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from tcfg.plugin import (
    Answers,
    Attr,
    AttributeValueError,
    Derived,
    DeriveRequest,
    Feature,
    FeatureValue,
    Integer,
    String,
    StringList,
    TargetKind,
    describe_choices,
    feature_name,
)
from tcfg_rocm.facts import TargetId, llvm_features, parse_target_id

__all__ = ["PARSED_ATTRS", "TRIPLE", "parse_rocm", "rocm_kind"]

TRIPLE = "amdgcn-amd-amdhsa"
#: TVM's old default triple (the HCC environment); read as the plain amdhsa triple.
_TVM_TRIPLE = "amdgcn-amd-amdhsa-hcc"
#: The target-ID features: given in -mcpu, never in -mattr.
TARGET_ID_FEATURES = ("sramecc", "xnack")
#: Without -mcpu: TVM's defaults for a rocm target.
_GENERIC_WARP = 64
_GENERIC_LDS = 65536

_ATTRS = (
    Attr(
        "mcpu",
        String(r"[A-Za-z0-9_.:+-]+", "an AMDGPU target ID such as gfx90a or gfx942:sramecc+:xnack-"),
        doc="The AMDGPU target ID: a processor (gfx90a) and, where it has them, target-ID features "
        "(gfx90a:xnack+, gfx942:sramecc+:xnack-).",
    ),
    Attr("mtriple", String(r"[A-Za-z0-9_.-]+", "a target triple"), default=TRIPLE, doc="The LLVM target triple."),
    Attr(
        "mattr",
        StringList(String(r"[+-][A-Za-z0-9_.-]+", "+feature or -feature")),
        doc="LLVM AMDGPU features to add (+f) or remove (-f), such as +wavefrontsize64.",
    ),
    Attr("max_num_threads", Integer(minimum=1), default=256, doc="Threads per block that schedules may use."),
    Attr("max_threads_per_block", Integer(minimum=1), default=256, doc="Most threads in one block (workgroup)."),
    Attr(
        "max_shared_memory_per_block",
        Integer(minimum=0),
        doc="Shared memory (LDS) one block may use, in bytes; at most the processor's LDS per workgroup.",
    ),
    Attr("thread_warp_size", Integer(minimum=1), doc="Threads per warp: the wavefront size of the processor."),
    Attr("multi_processor_count", Integer(minimum=1), doc="Compute units on the device."),
    Attr("l2_cache_size_bytes", Integer(minimum=0), doc="L2 cache size of the device (bytes)."),
    Attr("global_memory_bytes", Integer(minimum=1), doc="Device memory (bytes)."),
)

_OWN_FEATURES = (
    Feature("wavefront_size", "Threads per wavefront: 64 on GCN/CDNA, 32 on RDNA (64 with +wavefrontsize64)."),
    Feature("lds_size", "The most LDS (shared memory) one workgroup may use, in bytes, as llc-22 enforces it."),
    Feature("xnack_setting", "The target ID's xnack: on, off or any (either); False where the processor has none."),
    Feature("sramecc_setting", "The target ID's sramecc: on, off or any (either); False where the processor has none."),
)

#: What parse_rocm reads: its result is reused for targets that agree on these.
PARSED_ATTRS = (
    "mcpu",
    "mtriple",
    "mattr",
    "max_num_threads",
    "max_threads_per_block",
    "max_shared_memory_per_block",
    "thread_warp_size",
    "host",
)


def _check_mattr(target_id: TargetId, mattr: tuple[str, ...]) -> None:
    """Refuse unknown features, target-ID features and wavefront sizes the processor lacks."""
    known = llvm_features()
    row = target_id.processor
    seen: set[str] = set()
    for item in mattr:
        name = item[1:]
        if name not in known:
            raise AttributeValueError(
                f"-mattr={item}: {name!r} is not an LLVM AMDGPU feature; {describe_choices(name, known)}"
            )
        if name in seen:
            raise AttributeValueError(f"-mattr={','.join(mattr)}: {name!r} is given twice")
        seen.add(name)
        if name in TARGET_ID_FEATURES:
            sign = item[0]
            hint = f"-mcpu={row.name}:{name}{sign}" if name in row.modifiers else f"{row.name} has no {name} setting"
            raise AttributeValueError(f"-mattr={item}: {name} is part of the target ID ({hint})")
        if name.startswith("wavefrontsize"):
            size = int(name.removeprefix("wavefrontsize"))
            if item[0] == "-" or size not in row.wavefront_sizes:
                sizes = " or ".join(f"+wavefrontsize{s}" for s in row.wavefront_sizes)
                raise AttributeValueError(
                    f"-mattr={item}: {row.name} runs wavefronts of {' or '.join(map(str, row.wavefront_sizes))} "
                    f"threads; choose one with {sizes}"
                )


@functools.cache
def _processor_facts(mcpu: str, mattr: tuple[str, ...]) -> tuple[str, Derived]:
    """(canonical target ID, what it gives), computed once per target ID and -mattr."""
    target_id = parse_target_id(mcpu)
    _check_mattr(target_id, mattr)
    row = target_id.processor
    enabled = set(row.features)
    why = {feature_name(f): f"clang-22 enables it for -mcpu={row.name}" for f in row.features}
    for name, on in target_id.settings:
        (enabled.add if on else enabled.discard)(name)
        why[feature_name(name)] = f"the target ID {target_id} turns it {'on' if on else 'off'}"
    for item in mattr:
        name = item[1:]
        if item[0] == "+":
            enabled.add(name)
            if name.startswith("wavefrontsize"):
                enabled -= {f"wavefrontsize{s}" for s in row.wavefront_sizes} - {name}
        else:
            enabled.discard(name)
        why[feature_name(name)] = f"-mattr={item}"
    features: dict[str, FeatureValue] = {feature_name(f): True for f in sorted(enabled)}
    wavefront = 32 if "wavefrontsize32" in enabled else 64
    features["wavefront_size"] = wavefront
    features["lds_size"] = row.lds_size
    why["wavefront_size"] = f"wavefrontsize{wavefront}: {why[f'wavefrontsize{wavefront}']}"
    why["lds_size"] = f"llc-22's LDS limit for a workgroup on {row.name}"
    for name in TARGET_ID_FEATURES:
        setting = target_id.setting(name)
        if setting:
            features[f"{name}_setting"] = setting
            why[f"{name}_setting"] = f"the target ID {target_id}"
    defaults = {"thread_warp_size": wavefront, "max_shared_memory_per_block": row.lds_size}
    return str(target_id), Derived(keys=(), features=features, why=why, defaults=defaults)


_GENERIC = Derived(defaults={"thread_warp_size": _GENERIC_WARP, "max_shared_memory_per_block": _GENERIC_LDS})


def parse_rocm(request: DeriveRequest) -> Derived:
    """Check the target ID, -mattr, triple, host and limits; derive the processor's features."""
    given: Mapping[str, Any] = request.attrs
    changed: dict[str, Any] = {}
    triple = given["mtriple"]
    if triple == _TVM_TRIPLE:
        changed["mtriple"] = TRIPLE
    elif triple != TRIPLE:
        raise AttributeValueError(f"-mtriple={triple}: a rocm target's triple is {TRIPLE}")
    _check_host(given.get("host"))
    mcpu = given.get("mcpu")
    mattr = tuple(given.get("mattr", ()))
    if mcpu is None:
        if mattr:
            raise AttributeValueError(f"-mattr={','.join(mattr)} needs -mcpu: features are relative to a processor")
        derived = _GENERIC
    else:
        canonical, derived = _processor_facts(mcpu, mattr)
        if canonical != mcpu:
            changed["mcpu"] = canonical
    _check_limits(given, mcpu, derived.defaults)
    return derived._replace(attrs={**given, **changed}) if changed else derived


def _check_host(host: Any) -> None:
    """Refuse a host that is not a CPU target: a rocm target's host runs its host code."""
    if host is None or host.kind.device_type == "cpu":
        return
    raise AttributeValueError(
        f"-host={host}: the host of a rocm target runs its host-side code, so it must be a CPU target "
        f"(such as llvm or c); kind {host.kind.name!r} is a {host.kind.device_type} device"
    )


def _check_limits(attrs: Mapping[str, Any], mcpu: str | None, implied: Mapping[str, Any]) -> None:
    """Refuse a warp size or LDS size the processor does not have, and contradicting thread limits."""
    where = f"on {mcpu}" if mcpu else "on a generic rocm target"
    warp, lds = attrs.get("thread_warp_size"), attrs.get("max_shared_memory_per_block")
    if warp is not None and warp != implied["thread_warp_size"]:
        hint = " (RDNA processors run wave64 with -mattr=+wavefrontsize64)" if mcpu and warp == 64 else ""
        raise AttributeValueError(
            f"-thread_warp_size={warp}: the wavefront size {where} is {implied['thread_warp_size']}{hint}"
        )
    if lds is not None and lds > implied["max_shared_memory_per_block"]:
        raise AttributeValueError(
            f"-max_shared_memory_per_block={lds}: the most LDS a workgroup may use {where} is "
            f"{implied['max_shared_memory_per_block']} bytes (llc-22's limit)"
        )
    if attrs["max_num_threads"] > attrs["max_threads_per_block"]:
        raise AttributeValueError(
            f"-max_num_threads={attrs['max_num_threads']} exceeds "
            f"-max_threads_per_block={attrs['max_threads_per_block']}"
        )


def _portable(target: Any) -> Answers:
    from tcfg_rocm.portable import portable  # read at the first portable name, not at start-up

    return portable(target)


@functools.cache
def rocm_kind() -> TargetKind:
    """The ``rocm`` kind; its feature declarations read LLVM's feature list (once, at registration)."""
    declared = [Feature(feature_name(name), doc) for name, doc in llvm_features().items()]
    return TargetKind(
        name="rocm",
        device_type="rocm",
        dlpack_device_type=10,  # kDLROCM in dlpack.h
        attrs=_ATTRS,
        default_keys=("rocm", "gpu"),
        parser=parse_rocm,
        parse_reads=PARSED_ATTRS,
        features=(*declared, *_OWN_FEATURES),
        portable=_portable,
        doc="An AMD GPU programmed through ROCm/HIP; mcpu is the AMDGPU target ID (gfx90a:xnack+).",
    )
