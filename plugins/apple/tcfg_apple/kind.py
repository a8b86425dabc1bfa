"""The ``metal`` target kind: TVM 0.27's attributes and defaults, plus the Apple GPU family.

TVM's ``metal`` kind defaults to 256 threads per block (and ``max_num_threads``), 32 KiB of
threadgroup memory, a warp of 16 threads and 31 function arguments, with keys
``("metal", "gpu")``. tcfg adds ``gpu_family`` (``apple7`` ...; dropped for TVM, which has
no such attribute): with it, the family's Metal Feature Set Table limits are checked and
its features derived (``gpu_family``, ``metal3``, ``simdgroup_matrix``, ``simd_width``
where the table cites the SIMD-group width, which then is also ``thread_warp_size`` unless
given). Without it, the limits of every family apply.
"""

from __future__ import annotations

import functools
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
    TargetKind,
)
from tcfg_apple.facts import family, family_names

__all__ = ["FEATURES", "METAL", "parse_metal"]

FEATURES = (
    Feature("gpu_family", 'The Apple GPU family, as text ("apple7" for A14 and M1).'),
    Feature("metal3", "The GPU is in the Metal 3 family (Metal Shading Language 3.x)."),
    Feature("simdgroup_matrix", "SIMD-scoped matrix multiply operations (simdgroup_matrix)."),
    Feature("simd_width", "Threads in a SIMD-group, where the family's source gives it."),
)

#: (table limit, attribute, what it is)
_LIMITS = (
    ("max_threads_per_threadgroup", "max_threads_per_block", "the most threads in a threadgroup"),
    ("max_threadgroup_memory", "max_shared_memory_per_block", "the most threadgroup memory (bytes)"),
    ("max_buffer_arguments", "max_function_args", "the most entries in the buffer argument table"),
)


@functools.cache
def _family_facts(name: str) -> Derived:
    row = family(name)
    features: dict[str, FeatureValue] = {"gpu_family": name}
    why = {"gpu_family": f"-gpu_family={name} ({row['gpus']})"}
    for feat in ("metal3", "simdgroup_matrix"):
        if row[feat]:
            features[feat] = True
            why[feat] = f"every GPU of the {name} family has it (Metal Feature Set Tables)"
    defaults = {}
    if "simd_width" in row:
        features["simd_width"] = row["simd_width"]
        why["simd_width"] = f"{name}: {row['simd_width_source']}"
        defaults["thread_warp_size"] = row["simd_width"]
    return Derived(features=features, why=why, defaults=defaults)


_GENERIC = Derived()


def _check_limits(attrs: Any, name: str | None) -> None:
    rows = [family(name)] if name else [family(n) for n in family_names()]
    where = f"on the {name} family" if name else "on any Apple GPU family"
    for key, attr, what in _LIMITS:
        limit = max(row[key] for row in rows)
        if attrs[attr] > limit:
            raise AttributeValueError(f"-{attr}={attrs[attr]}: {what} {where} is {limit} (Metal Feature Set Tables)")
    if attrs["max_num_threads"] > attrs["max_threads_per_block"]:
        raise AttributeValueError(
            f"-max_num_threads={attrs['max_num_threads']} exceeds "
            f"-max_threads_per_block={attrs['max_threads_per_block']}"
        )
    host = attrs.get("host")
    if host is not None and host.kind.device_type != "cpu":
        raise AttributeValueError(
            f"-host={host}: the host of a metal target must be a CPU target (such as llvm); "
            f"kind {host.kind.name!r} is a {host.kind.device_type} device"
        )


def parse_metal(request: DeriveRequest) -> Derived:
    """Check the limits (the family's, else every family's) and derive the family's features."""
    name = request.attrs.get("gpu_family")
    _check_limits(request.attrs, name)
    return _family_facts(name) if name else _GENERIC


def _portable(target: Any) -> Answers:
    from tcfg_apple.portable import portable  # read at the first portable name, not at start-up

    return portable(target)


METAL = TargetKind(
    portable=_portable,
    name="metal",
    device_type="metal",
    dlpack_device_type=8,  # kDLMetal in dlpack.h
    attrs=(
        Attr("max_num_threads", Integer(minimum=1), default=256, doc="Threads per block that schedules may use."),
        Attr("max_threads_per_block", Integer(minimum=1), default=256, doc="Most threads in one threadgroup."),
        Attr(
            "max_shared_memory_per_block",
            Integer(minimum=0),
            default=32768,
            doc="Threadgroup memory one threadgroup may use (bytes).",
        ),
        Attr("thread_warp_size", Integer(minimum=1), default=16, doc="Threads per SIMD-group (TVM's default 16)."),
        Attr("max_function_args", Integer(minimum=1), default=31, doc="Most buffer arguments of a kernel."),
        Attr(
            "gpu_family",
            String(r"[a-z0-9]+", "an Apple GPU family such as apple7"),
            doc="The Apple GPU family (apple7: A14/M1, apple8: A15/A16/M2, apple9: A17 Pro/M3/M4); tcfg only.",
        ),
    ),
    default_keys=("metal", "gpu"),
    parser=parse_metal,
    parse_reads=(
        "max_num_threads",
        "max_threads_per_block",
        "max_shared_memory_per_block",
        "thread_warp_size",
        "max_function_args",
        "gpu_family",
        "host",
    ),
    features=FEATURES,
    doc="An Apple (or other Metal) GPU programmed through Metal; gpu_family selects an Apple GPU family.",
)
