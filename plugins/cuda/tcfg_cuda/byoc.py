"""The CUDA BYOC compilers (``cutlass``, ``cublas``, ``cudnn``), ``-libs`` libraries and the ``cuda-graph`` runtime.

Each is data (``data/byoc.json``: the least compute capability each needs, with its
source) plus a rule. A compiler runs after the ``cuda`` kind's parser, so the arch and
its compute capability are known; on a GPU it cannot use it refuses the target with
the reason and where it is valid. ``cutlass`` takes the options of TVM's CUTLASS BYOC
target, prefixed ``cutlass_`` (TVM's ``sm`` is ``-cutlass_arch``: the compute capability
its kernels are generated for, which must run on the target's arch).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from tcfg.plugin import (
    Attr,
    AttributeValueError,
    Boolean,
    Compiler,
    Component,
    Derived,
    DeriveRequest,
    Integer,
    Library,
    String,
    TargetError,
    package_json,
)
from tcfg_cuda.facts import arch_info, runs_on

__all__ = ["CUDA_GRAPH", "compilers", "libraries"]


@functools.cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_cuda", "data/byoc.json")
    return data


def _cc(text: str) -> tuple[int, int]:
    major, minor = text.split(".")
    return int(major), int(minor)


def _device_cc(attrs: Mapping[str, Any]) -> tuple[int, int] | None:
    arch = attrs.get("arch")
    if arch is None:
        return None
    info = arch_info(arch)
    return info.major, info.minor


def _source(key: str) -> str:
    entry = _data()["sources"][key]
    return f"{entry['title']}, {entry['date']}"


def _needs(name: str) -> str:
    return f"GPUs of compute capability {_data()['min_compute_capability'][name]['cc']} or newer (-arch=sm_XY)"


def _too_old(name: str, attrs: Mapping[str, Any]) -> str | None:
    """Why ``name`` cannot run on the target's GPU, or None (an arch is needed to know)."""
    fact = _data()["min_compute_capability"][name]
    cc = _device_cc(attrs)
    if cc is None:
        return f"{name} needs to know the GPU: give -arch"
    if cc < _cc(fact["cc"]):
        source = _source(fact["source"])
        return f"-arch={attrs['arch']} is compute capability {cc[0]}.{cc[1]}: {fact['why']} (source: {source})"
    return None


def _refuse_if(name: str, attrs: Mapping[str, Any]) -> None:
    reason = _too_old(name, attrs)
    if reason is not None:
        raise AttributeValueError(f"-compiler={name}: {reason}; valid on {_needs(name)}")


@functools.cache
def _keys(name: str) -> Derived:
    return Derived(keys=(name,))


def _check_cutlass(request: DeriveRequest) -> Derived:
    """``cutlass`` needs tensor cores; ``-cutlass_arch`` must run on the device; the version must know the arch."""
    attrs = request.attrs
    _refuse_if("cutlass", attrs)
    device = attrs["arch"]
    code = attrs.get("cutlass_arch")
    if code is not None:
        name = f"sm_{code}"
        try:
            arch_info(name)
        except TargetError:
            raise AttributeValueError(
                f"-cutlass_arch={code}: no CUDA arch {name}; give the compute capability as TVM's CUTLASS 'sm' does "
                f"(70, 75, 80, 86, 89, 90, 100, ...)"
            ) from None
        if not runs_on(name, device):
            raise AttributeValueError(
                f"-cutlass_arch={code}: kernels for {name} do not run on -arch={device}; use "
                f"{device.removeprefix('sm_')} or an older compute capability of the same major version"
            )
        if code < 70:
            raise AttributeValueError(f"-cutlass_arch={code}: CUTLASS's tensor-core kernels need 70 (Volta) or newer")
    version = attrs["cutlass_version"]
    first = _data()["cutlass_first_release"].get(str(arch_info(device).major))
    if first is not None and _version(version) < _version(first["version"]):
        raise AttributeValueError(
            f"-cutlass_version={version}: CUTLASS generates kernels for -arch={device} from version {first['version']} "
            f"on (source: {_source(first['source'])})"
        )
    return _keys("cutlass")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _check_library_compiler(name: str) -> Callable[[DeriveRequest], Derived]:
    """The parser of a compiler that calls library ``name``: refuse GPUs it does not run on."""

    def parse(request: DeriveRequest) -> Derived:
        _refuse_if(name, request.attrs)
        return _keys(name)

    return parse


def compilers() -> tuple[Compiler, ...]:
    """The ``cutlass``, ``cublas`` and ``cudnn`` compilers of the ``cuda`` kind."""
    cutlass_attrs = (
        Attr(
            "cutlass_version",
            String(r"[0-9]+\.[0-9]+(\.[0-9]+)?", "a CUTLASS version such as 3.8"),
            default=_data()["cutlass_default_version"],
            doc="The CUTLASS release whose kernels are generated.",
        ),
        Attr(
            "cutlass_arch",
            Integer(minimum=0),
            doc="TVM's 'sm': the compute capability the kernels are generated for, as an integer (80); "
            "must run on the target's arch. Default: the target's arch.",
        ),
        Attr("cutlass_use_3xtf32", Boolean(), default=True, doc="TVM's use_3xtf32: accurate 3xTF32 for fp32 inputs."),
        Attr("cutlass_profile_all_alignments", Boolean(), default=False, doc="TVM's profile_all_alignments."),
        Attr("cutlass_find_first_valid", Boolean(), default=False, doc="TVM's find_first_valid."),
        Attr("cutlass_use_multiprocessing", Boolean(), default=False, doc="TVM's use_multiprocessing."),
        Attr("cutlass_threads", Integer(minimum=-1), default=-1, doc="TVM's threads (-1: one per CPU)."),
        Attr("cutlass_use_fast_math", Boolean(), default=False, doc="TVM's use_fast_math."),
        Attr("cutlass_tmp_dir", String(), default="./tmp", doc="TVM's tmp_dir for intermediate artifacts."),
    )
    return (
        Compiler(
            "cutlass",
            ("cuda",),
            cutlass_attrs,
            parser=_check_cutlass,
            doc="NVIDIA CUTLASS: generated tensor-core GEMM and convolution kernels (sm_70+).",
        ),
        Compiler(
            "cublas",
            ("cuda",),
            parser=_check_library_compiler("cublas"),
            doc="NVIDIA cuBLAS (and cuBLASLt) for matrix multiplications.",
        ),
        Compiler(
            "cudnn",
            ("cuda",),
            parser=_check_library_compiler("cudnn"),
            doc="NVIDIA cuDNN for convolutions, attention and normalisations.",
        ),
    )


def _library_rule(name: str) -> Callable[[DeriveRequest], str | None]:
    """The rule of library ``name``: refuse GPUs it does not run on (without an arch, nothing to refuse)."""

    def rule(request: DeriveRequest) -> str | None:
        return None if "arch" not in request.attrs else _too_old(name, request.attrs)

    return rule


def libraries() -> tuple[Library, ...]:
    """The ``-libs`` names of ``cuda`` targets (TVM's: cublas, cublaslt, cudnn, thrust; and cutlass)."""
    docs = {
        "cublas": "NVIDIA cuBLAS",
        "cublaslt": "NVIDIA cuBLASLt (matmul with epilogues)",
        "cudnn": "NVIDIA cuDNN",
        "thrust": "NVIDIA Thrust (sort, scan)",
        "cutlass": "NVIDIA CUTLASS kernels",
    }
    return tuple(
        Library(name, ("cuda",), doc, rule=_library_rule(name), where=_needs(name), source=_data()["source"])
        for name, doc in docs.items()
    )


def _needs_cuda_device(request: DeriveRequest) -> str | None:
    devices = request.attrs["devices"]
    if any(device.kind.device_type == "cuda" for device in devices):
        return None
    kinds = ", ".join(sorted({d.kind.name for d in devices}))
    return (
        "CUDA graphs capture and replay CUDA kernel launches, so this runtime needs a CUDA target among the "
        f"composite's -devices; it has {kinds} (valid in a composite with a cuda device)"
    )


#: The ``cuda-graph`` runtime: a composite's CUDA kernels launched as one captured CUDA graph.
CUDA_GRAPH = Component(
    "cuda-graph",
    doc="CUDA graphs: the kernels of a CUDA device captured once and replayed as one graph launch.",
    rule=_needs_cuda_device,
)
