"""The TensorRT codegen: the builder configuration of a target and the matching ``trtexec`` command.

:class:`TensorRTCodegen` holds the settings for the requested TensorRT version and
renders them two ways: :meth:`~TensorRTCodegen.trtexec_args` (the command line) and
:meth:`~TensorRTCodegen.builder_config` (a real ``tensorrt.IBuilderConfig``, when
the ``tensorrt`` package is importable). TensorRT 10.x weakly typed networks get
precision flags; TensorRT 11.x has none (every network is strongly typed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcfg.plugin import Codegen, Target, TargetError
from tcfg_tensorrt.byoc import compute_capability
from tcfg_tensorrt.facts import format_version, parse_version

__all__ = ["TensorRTCodegen", "codegen_for"]

_TRTEXEC_HARDWARE = {"ampere_plus": "ampere+", "same_compute_capability": "sameComputeCapability"}
_BUILDER_HARDWARE = {
    "none": "NONE",
    "ampere_plus": "AMPERE_PLUS",
    "same_compute_capability": "SAME_COMPUTE_CAPABILITY",
}
_CONSTRAINT_FLAGS = {"prefer": "PREFER_PRECISION_CONSTRAINTS", "obey": "OBEY_PRECISION_CONSTRAINTS"}


@dataclass(frozen=True)
class TensorRTCodegen(Codegen):
    """The builder settings of one ``cuda -compiler=tensorrt`` target (already validated by its parser)."""

    version: tuple[int, int, int]
    arch: str
    compute_capability: str
    strongly_typed: bool
    precisions: tuple[str, ...] = ()
    precision_constraints: str = "none"
    tf32: bool = True
    optimization_level: int | None = None
    workspace_bytes: int | None = None
    dla_core: int | None = None
    gpu_fallback: bool = False
    timing_cache: str | None = None
    sparsity: bool = False
    version_compatible: bool = False
    hardware_compatibility: str = "none"

    @property
    def major(self) -> int:
        """The TensorRT major version (10 or 11)."""
        return self.version[0]

    def builder_flags(self) -> list[str]:
        """The ``BuilderFlag`` members to set, by name (TF32 is on by default and only ever cleared)."""
        flags = [p.upper() for p in self.precisions]
        if self.precision_constraints in _CONSTRAINT_FLAGS:
            flags.append(_CONSTRAINT_FLAGS[self.precision_constraints])
        if self.dla_core is not None and self.gpu_fallback:
            flags.append("GPU_FALLBACK")
        if self.sparsity:
            flags.append("SPARSE_WEIGHTS")
        if self.version_compatible:
            flags.append("VERSION_COMPATIBLE")
        return flags

    def network_flags(self) -> list[str]:
        """The ``NetworkDefinitionCreationFlag`` members to pass to ``create_network``, by name.

        TensorRT 11 networks are strongly typed without a flag; 10.x needs STRONGLY_TYPED.
        """
        return ["STRONGLY_TYPED"] if self.strongly_typed and self.major == 10 else []

    def trtexec_args(self) -> list[str]:
        """The ``trtexec`` options that build an engine with these settings (add --onnx and --saveEngine)."""
        args = [f"--{p}" for p in self.precisions]
        if self.network_flags():
            args.append("--stronglyTyped")
        if self.precision_constraints != "none":
            args.append(f"--precisionConstraints={self.precision_constraints}")
        if not self.tf32:
            args.append("--noTF32")
        if self.optimization_level is not None:
            args.append(f"--builderOptimizationLevel={self.optimization_level}")
        if self.workspace_bytes is not None:
            args.append(f"--memPoolSize=workspace:{self.workspace_bytes}B")
        if self.dla_core is not None:
            args.append(f"--useDLACore={self.dla_core}")
            if self.gpu_fallback:
                args.append("--allowGPUFallback")
        if self.timing_cache is not None:
            args.append(f"--timingCacheFile={self.timing_cache}")
        if self.sparsity:
            args.append("--sparsity=enable")
        if self.version_compatible:
            args.append("--versionCompatible")
        if self.hardware_compatibility != "none":
            args.append(f"--hardwareCompatibilityLevel={_TRTEXEC_HARDWARE[self.hardware_compatibility]}")
        return args

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "tensorrt",
            "tensorrt_version": format_version(self.version),
            "arch": self.arch,
            "compute_capability": self.compute_capability,
            "strongly_typed": self.strongly_typed,
            "precisions": list(self.precisions),
            "precision_constraints": self.precision_constraints,
            "tf32": self.tf32,
            "builder_optimization_level": self.optimization_level,
            "workspace_bytes": self.workspace_bytes,
            "dla_core": self.dla_core,
            "gpu_fallback": self.gpu_fallback,
            "timing_cache": self.timing_cache,
            "sparsity": self.sparsity,
            "version_compatible": self.version_compatible,
            "hardware_compatibility": self.hardware_compatibility,
            "builder_flags": self.builder_flags(),
            "network_flags": self.network_flags(),
            "trtexec": ["trtexec", *self.trtexec_args()],
        }

    def builder_config(self, builder: Any = None) -> Any:
        """A ``tensorrt.IBuilderConfig`` with these settings, made by ``builder`` (a new one if None).

        Needs the ``tensorrt`` package of the targeted major version; the timing cache
        file is read when it exists (an empty cache is created otherwise).
        """
        try:
            import tensorrt as trt
        except ImportError as exc:
            raise TargetError(
                f"building a TensorRT builder config needs the tensorrt package: pip install 'tensorrt=={self.major}.*'"
            ) from exc
        installed = str(getattr(trt, "__version__", ""))
        if installed.split(".", 1)[0] != str(self.major):
            raise TargetError(
                f"the target asks for TensorRT {format_version(self.version)} but tensorrt {installed or '(unknown)'} "
                "is installed; its builder flags differ between major versions"
            )
        if builder is None:
            builder = trt.Builder(trt.Logger(trt.Logger.WARNING))
        config = builder.create_builder_config()
        for flag in self.builder_flags():
            config.set_flag(getattr(trt.BuilderFlag, flag))
        if not self.tf32:
            config.clear_flag(trt.BuilderFlag.TF32)
        if self.optimization_level is not None:
            config.builder_optimization_level = self.optimization_level
        if self.workspace_bytes is not None:
            config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, self.workspace_bytes)
        if self.dla_core is not None:
            config.default_device_type = trt.DeviceType.DLA
            config.DLA_core = self.dla_core
        if self.hardware_compatibility != "none":
            config.hardware_compatibility_level = getattr(
                trt.HardwareCompatibilityLevel, _BUILDER_HARDWARE[self.hardware_compatibility]
            )
        if self.timing_cache is not None:
            config.set_timing_cache(config.create_timing_cache(_read_cache(self.timing_cache)), False)
        return config


def _read_cache(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise TargetError(f"cannot read the TensorRT timing cache {path!r}: {exc}") from exc


def codegen_for(target: Target) -> TensorRTCodegen:
    """The TensorRT codegen of a validated ``cuda -compiler=tensorrt`` target."""
    attrs = target.attrs
    return TensorRTCodegen(
        version=parse_version(attrs["trt_version"]),
        arch=attrs["arch"],
        compute_capability=compute_capability(attrs["arch"]),
        strongly_typed=bool(target.features.trt_strongly_typed),
        precisions=tuple(attrs.get("trt_precisions", ())),
        precision_constraints=attrs["trt_precision_constraints"],
        tf32=attrs["trt_tf32"],
        optimization_level=attrs.get("trt_optimization_level"),
        workspace_bytes=attrs.get("trt_workspace_bytes"),
        dla_core=attrs.get("trt_dla_core"),
        gpu_fallback=attrs["trt_gpu_fallback"],
        timing_cache=attrs.get("trt_timing_cache"),
        sparsity=attrs["trt_sparsity"],
        version_compatible=attrs["trt_version_compatible"],
        hardware_compatibility=attrs["trt_hardware_compatibility"],
    )
