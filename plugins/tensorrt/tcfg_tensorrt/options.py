"""The ``tensorrt`` compiler's options (target attributes) and the features it derives.

Every option is an attribute of a ``cuda`` target that names ``-compiler=tensorrt``
and round-trips like any other attribute::

    cuda -arch=sm_87 -compiler=tensorrt -trt_version=10.3 -trt_precisions=fp16,int8 -trt_dla_core=0
"""

from __future__ import annotations

from tcfg.plugin import Attr, Boolean, Choice, Feature, Integer, String, StringList

__all__ = ["FEATURES", "HARDWARE_COMPATIBILITY", "PRECISION_CONSTRAINTS", "PRECISION_FLAGS", "attrs"]

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
