"""The ``tensorrt`` BYOC compiler for ``cuda`` targets: its options (target attributes), the features
it derives, and its parser, which refuses what the device or version cannot do.

Every option is an attribute of a ``cuda`` target that names ``-compiler=tensorrt``
and round-trips like any other attribute::

    cuda -arch=sm_87 -compiler=tensorrt -trt_version=10.3 -trt_precisions=fp16,int8 -trt_dla_core=0

The parser runs after the ``cuda`` kind's parser, so ``arch`` is known (``native`` already
resolved). The facts come from :mod:`tcfg_tensorrt.facts`; every refusal is an
:class:`tcfg.AttributeValueError` that says which option, device and version clash.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from tcfg.plugin import (
    Attr,
    AttributeValueError,
    Boolean,
    Choice,
    Compiler,
    Derived,
    DeriveRequest,
    Feature,
    FeatureValue,
    Integer,
    String,
    StringList,
)
from tcfg_tensorrt.facts import DeviceFacts, Version, data, device, format_version, parse_version

__all__ = [
    "FEATURES",
    "HARDWARE_COMPATIBILITY",
    "PRECISION_CONSTRAINTS",
    "PRECISION_FLAGS",
    "attrs",
    "compute_capability",
    "make_compiler",
    "parse_tensorrt",
]

#: Reduced precisions a TensorRT 10.x weakly typed network may be given (builder flags).
PRECISION_FLAGS = ("fp16", "bf16", "int8", "fp8")
HARDWARE_COMPATIBILITY = ("none", "ampere_plus", "same_compute_capability")
PRECISION_CONSTRAINTS = ("none", "prefer", "obey")


def attrs(default_version: str) -> tuple[Attr, ...]:
    """The options, with ``default_version`` as the default of ``trt_version``."""
    return (
        Attr(
            "trt_version",
            String(r"[0-9]+\.[0-9]+(\.[0-9]+)?", "a TensorRT version such as 10.3 or 11.4.1"),
            default=default_version,
            doc="The TensorRT version the engine is built with (10.x or 11.x). Default: the installed "
            "tensorrt package, else the newest release the plugin's tables know.",
        ),
        Attr(
            "trt_precisions",
            StringList(Choice(PRECISION_FLAGS)),
            doc="TensorRT 10.x weak typing: the reduced precisions the builder may choose "
            "(BuilderFlag / trtexec --fp16, --bf16, --int8, --fp8). Not valid with strong typing "
            "or TensorRT 11, where the network's own types decide.",
        ),
        Attr(
            "trt_strongly_typed",
            Boolean(),
            doc="Build a strongly typed network (types come from the network, no precision flags). "
            "Default: false on 10.x; TensorRT 11 networks are always strongly typed.",
        ),
        Attr(
            "trt_precision_constraints",
            Choice(PRECISION_CONSTRAINTS),
            default="none",
            doc="TensorRT 10.x weak typing: whether layer precisions set in the network are "
            "preferred or obeyed (BuilderFlag.PREFER/OBEY_PRECISION_CONSTRAINTS).",
        ),
        Attr(
            "trt_tf32",
            Boolean(),
            default=True,
            doc="Allow TF32 tensor-core math for FP32 layers (TensorRT's default); false disables it (--noTF32).",
        ),
        Attr(
            "trt_optimization_level",
            Integer(minimum=0, maximum=5),
            doc="Builder optimization level 0-5 (TensorRT's default is 3): higher searches longer for faster engines.",
        ),
        Attr(
            "trt_workspace_bytes",
            Integer(minimum=0),
            doc="Limit of the builder's workspace memory pool, in bytes (--memPoolSize=workspace:...).",
        ),
        Attr(
            "trt_dla_core",
            Integer(minimum=0),
            doc="Run the engine on this DLA core (Jetson Xavier/Orin) instead of the GPU.",
        ),
        Attr(
            "trt_gpu_fallback",
            Boolean(),
            default=False,
            doc="With -trt_dla_core: let layers the DLA cannot run fall back to the GPU.",
        ),
        Attr(
            "dla_cores",
            Integer(minimum=0),
            doc="DLA cores on this device (board tags set it: AGX Orin 2, Orin NX 8GB 1, Orin Nano 0); "
            "when absent, the most any device of the arch has.",
        ),
        Attr(
            "trt_timing_cache",
            String(r"[^\x00]+", "a file path"),
            doc="Path of a timing cache file the builder reads and updates (--timingCacheFile).",
        ),
        Attr(
            "trt_sparsity",
            Boolean(),
            default=False,
            doc="Use structured-sparsity kernels for 2:4 sparse weights (Ampere and later).",
        ),
        Attr(
            "trt_version_compatible",
            Boolean(),
            default=False,
            doc="Build a version-compatible engine that newer TensorRT runtimes can load.",
        ),
        Attr(
            "trt_hardware_compatibility",
            Choice(HARDWARE_COMPATIBILITY),
            default="none",
            doc="Hardware compatibility level: none (this GPU only), ampere_plus (Ampere and later), "
            "same_compute_capability (GPUs of the same compute capability).",
        ),
    )


#: Every feature the compiler derives, from the device and the TensorRT version.
FEATURES = (
    Feature("trt_version", 'The TensorRT version targeted, as text ("10.3", "11.4.1").'),
    Feature("trt_strongly_typed", "The network is strongly typed (always on TensorRT 11)."),
    Feature("trt_tf32", "TensorRT may run FP32 layers with TF32 tensor-core math on this device."),
    Feature("trt_fp16", "TensorRT can run FP16 layers on this device and version."),
    Feature("trt_bf16", "TensorRT can run BF16 layers on this device and version."),
    Feature("trt_int8", "TensorRT can run INT8 layers on this device and version."),
    Feature("trt_fp8", "TensorRT can run FP8 layers on this device and version (compute capability 8.9+)."),
    Feature("trt_fp4", "TensorRT can run FP4 (E2M1, explicitly quantized) layers: Blackwell, TensorRT 10.8+."),
    Feature("dla", "The engine runs on a DLA core (Deep Learning Accelerator)."),
    Feature("dla_cores", "DLA cores on the device, when it has any."),
)

_DLA_PRECISIONS = ("fp16", "int8")


@functools.cache
def compute_capability(arch: str) -> str:
    """The device compute capability of a cuda ``arch`` (``sm_90a`` -> ``"9.0"``, ``sm_101`` -> ``"11.0"``)."""
    from tcfg_cuda import arch_info

    info = arch_info(arch)
    if info.renamed_to is not None:
        info = arch_info(info.renamed_to)
    return f"{info.major}.{info.minor}"


def _cc_tuple(cc: str) -> tuple[int, int]:
    major, minor = cc.split(".")
    return (int(major), int(minor))


@functools.cache
def _base(cc: str, version: Version) -> tuple[DeviceFacts, bool, dict[str, FeatureValue], dict[str, str]]:
    """Facts, strong typing, and the GPU features of one device under one version (computed once)."""
    facts = device(cc, version)
    shown = format_version(version)
    strong = data()["majors"][str(version[0])]["typing"] == "strong"
    features: dict[str, FeatureValue] = {"trt_version": shown}
    why = {"trt_version": f"-trt_version={shown} (or the default: the installed TensorRT, else the newest known)"}
    for precision in data()["precisions"]["order"]:
        name = f"trt_{precision}"
        if precision in facts.precisions:
            features[name] = True
            what = f"{precision.upper()} on compute capability {cc} ({facts.example})"
            why[name] = f"TensorRT {shown} runs {what}; {facts.sources}"
        else:
            what = f"{precision.upper()} for compute capability {cc} ({facts.example})"
            why[name] = f"TensorRT's support matrix lists no {what}"
    return facts, strong, features, why


def _refuse(message: str) -> AttributeValueError:
    return AttributeValueError(f"-compiler=tensorrt: {message}")


def _check_typing(attrs: Mapping[str, Any], version: Version, strong_default: bool) -> tuple[bool, tuple[str, ...]]:
    shown = format_version(version)
    major = data()["majors"][str(version[0])]
    given_strong = attrs.get("trt_strongly_typed")
    precisions: tuple[str, ...] = tuple(attrs.get("trt_precisions", ()))
    if strong_default and given_strong is False:
        raise _refuse(
            f"-trt_strongly_typed=false: TensorRT {shown} has no weak typing; every TensorRT 11 network is "
            "strongly typed (give the types in the model, e.g. with ModelOpt AutoCast)"
        )
    strong = strong_default or bool(given_strong)
    if precisions and not major["precision_flags"]:
        raise _refuse(
            f"-trt_precisions={','.join(precisions)}: TensorRT {shown} removed the precision builder flags and "
            "trtexec --fp16/--bf16/--int8/--fp8/--best; networks are strongly typed, so convert the model's types "
            "(ModelOpt AutoCast) or quantize it (Q/DQ nodes) instead"
        )
    if precisions and strong:
        raise _refuse(
            f"-trt_precisions={','.join(precisions)} cannot be combined with -trt_strongly_typed: a strongly typed "
            "network takes its precisions from its own types"
        )
    constraints = attrs["trt_precision_constraints"]
    if constraints != "none" and not major["precision_constraints"]:
        raise _refuse(
            f"-trt_precision_constraints={constraints}: TensorRT {shown} removed PREFER/OBEY_PRECISION_CONSTRAINTS "
            "(strong typing always holds)"
        )
    if constraints != "none" and strong:
        raise _refuse(f"-trt_precision_constraints={constraints} applies to weakly typed networks only")
    return strong, precisions


def _check_precisions(precisions: tuple[str, ...], facts: DeviceFacts, shown: str) -> None:
    for precision in precisions:
        if precision not in facts.precisions:
            offered = [p for p in data()["precisions"]["flags"] if p in facts.precisions]
            raise _refuse(
                f"-trt_precisions={precision}: TensorRT {shown} cannot run {precision.upper()} on compute capability "
                f"{facts.compute_capability} ({facts.example}); it offers {', '.join(offered)} there"
            )


def _check_dla(
    attrs: Mapping[str, Any], facts: DeviceFacts, precisions: tuple[str, ...], strong: bool, shown: str
) -> int:
    """The DLA cores of the device, after checking the DLA options."""
    cores = attrs.get("dla_cores")
    cc = facts.compute_capability
    if cores is not None and cores > facts.dla_cores:
        raise _refuse(
            f"-dla_cores={cores}: devices of compute capability {cc} ({facts.example}) have at most {facts.dla_cores}"
        )
    available = facts.dla_cores if cores is None else cores
    core = attrs.get("trt_dla_core")
    fallback = attrs["trt_gpu_fallback"]
    if core is None:
        if fallback:
            raise _refuse("-trt_gpu_fallback needs -trt_dla_core: only DLA engines fall back to the GPU")
        return available
    if available == 0:
        raise _refuse(f"-trt_dla_core={core}: " + (facts.dla_reason or "this device has no DLA (-dla_cores=0)"))
    if not facts.dla_supported:
        raise _refuse(f"-trt_dla_core={core}: {facts.dla_reason}")
    if core >= available:
        raise _refuse(
            f"-trt_dla_core={core}: the device has {available} DLA core{'s' if available > 1 else ''} "
            f"(valid: {', '.join(str(i) for i in range(available))})"
        )
    if not strong and not set(precisions) & set(_DLA_PRECISIONS):
        raise _refuse(f"-trt_dla_core={core}: the DLA runs FP16 and INT8 only; add -trt_precisions=fp16 or int8")
    gpu_only = [p for p in precisions if p not in _DLA_PRECISIONS]
    if gpu_only and not fallback:
        raise _refuse(
            f"-trt_precisions={','.join(gpu_only)} with -trt_dla_core={core}: the DLA runs FP16 and INT8 only; "
            "drop them or add -trt_gpu_fallback"
        )
    return available


def _check_portability(attrs: Mapping[str, Any], facts: DeviceFacts) -> None:
    rules = data()["rules"]
    cc = _cc_tuple(facts.compute_capability)
    if attrs["trt_sparsity"] and not facts.sparsity:
        raise _refuse(
            f"-trt_sparsity: compute capability {facts.compute_capability} ({facts.example}) has no sparse tensor "
            f"cores; {rules['sparsity_note']}"
        )
    if attrs["trt_hardware_compatibility"] == "ampere_plus" and cc < _cc_tuple(
        rules["ampere_plus_min_compute_capability"]
    ):
        raise _refuse(
            f"-trt_hardware_compatibility=ampere_plus on compute capability {facts.compute_capability} "
            f"({facts.example}): {rules['ampere_plus_note']}"
        )


def parse_tensorrt(request: DeriveRequest) -> Derived:
    """Check a ``cuda -compiler=tensorrt`` target against the tables and derive its TensorRT features."""
    attrs = request.attrs
    arch = attrs.get("arch")
    if arch is None:
        raise _refuse("TensorRT builds an engine for one GPU; give its arch (-arch=sm_87)")
    version = parse_version(attrs["trt_version"])
    shown = format_version(version)
    cc = compute_capability(arch)
    facts, strong_default, base_features, base_why = _base(cc, version)
    if not facts.supported:
        raise _refuse(f"-arch={arch} with -trt_version={attrs['trt_version']}: {facts.reason}")
    strong, precisions = _check_typing(attrs, version, strong_default)
    _check_precisions(precisions, facts, shown)
    cores = _check_dla(attrs, facts, precisions, strong, shown)
    _check_portability(attrs, facts)
    features = dict(base_features)
    why = dict(base_why)
    if strong:
        features["trt_strongly_typed"] = True
        why["trt_strongly_typed"] = (
            f"TensorRT {shown} networks are always strongly typed" if strong_default else "-trt_strongly_typed"
        )
    if not attrs["trt_tf32"] and features.pop("trt_tf32", False):
        why["trt_tf32"] = "-trt_tf32=false disables TF32 math"
    if cores:
        features["dla_cores"] = cores
        why["dla_cores"] = (
            "-dla_cores" if "dla_cores" in attrs else f"devices of compute capability {cc} have up to {cores}"
        )
    core = attrs.get("trt_dla_core")
    if core is not None:
        features["dla"] = True
        why["dla"] = f"-trt_dla_core={core}"
        if not attrs["trt_gpu_fallback"]:
            for name in ("trt_tf32", "trt_bf16", "trt_fp8", "trt_fp4"):
                if features.pop(name, False):
                    why[name] = f"the engine runs on DLA core {core} (FP16 and INT8 only) without GPU fallback"
    return Derived(keys=("tensorrt",), features=features, why=why)


def make_compiler(default_version: str | None = None) -> Compiler:
    """The ``tensorrt`` compiler for the ``cuda`` kind.

    ``default_version`` defaults to the installed TensorRT, else the data file's default.
    """
    from tcfg_tensorrt.detect import installed_version

    version = default_version or installed_version() or data()["default_version"]
    return Compiler(
        name="tensorrt",
        kinds=("cuda",),
        attrs=attrs(version),
        parser=parse_tensorrt,
        features=FEATURES,
        doc="NVIDIA TensorRT: builds an inference engine for one GPU (or DLA core) from a whole network.",
    )
