"""The hook implementations of the cuda plugin: the ``cuda`` and ``nvptx`` kinds, GPU tags, codegen, detection.

Importing this module reads no data and imports no CUDA library: the arch table, the
GPU list, NVML and NVRTC are loaded by the functions that use them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from tcfg.plugin import Compiler, Component, Library, TagRegistrar, Target, TargetKind, hookimpl

if TYPE_CHECKING:
    from typing import Any

    from tcfg.plugin import Codegen


@hookimpl
def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
    from tcfg_cuda.kind import CUDA, NVPTX

    register(CUDA)
    register(NVPTX)


@hookimpl
def tcfg_register_compilers(register: Callable[[Compiler], None]) -> None:
    """The BYOC compilers cutlass, cublas and cudnn."""
    from tcfg_cuda.byoc import compilers

    for compiler in compilers():
        register(compiler)


@hookimpl
def tcfg_register_libraries(register: Callable[[Library], None]) -> None:
    """The -libs libraries of cuda targets."""
    from tcfg_cuda.byoc import libraries

    for library in libraries():
        register(library)


@hookimpl
def tcfg_register_runtimes(register: Callable[[Component], None]) -> None:
    from tcfg_cuda.byoc import CUDA_GRAPH

    register(CUDA_GRAPH)


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_cuda.tags import gpu_tags, system_tags

    for tag in (*gpu_tags(), *system_tags()):
        register(tag)


@hookimpl
def tcfg_codegen(target: Target) -> Codegen | None:
    if target.kind.name not in ("cuda", "nvptx"):
        return None
    from tcfg_cuda.codegen import codegen_for, nvptx_codegen_for

    if target.kind.name == "nvptx":
        return nvptx_codegen_for(target)
    return codegen_for(target.attrs.get("arch"))


@hookimpl
def tcfg_detect(sources: Mapping[str, tuple[str, ...]] | None) -> Sequence[dict[str, Any]]:
    """One cuda target per GPU of this machine (none without an NVIDIA GPU or driver), or per GPU a
    recorded ``nvidia-smi --query-gpu=... --format=csv`` lists."""
    from tcfg_cuda.detect import detect_gpus, parse_nvidia_smi

    if sources is not None:
        return [gpu.spec() for text in sources.get("nvidia-smi", ()) for gpu in parse_nvidia_smi(text)]
    found, _unavailable = detect_gpus()
    return [gpu.spec() for gpu in found]


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """cuda and nvptx code: the cubin and PTX rules of CUDA's compatibility guide."""
    from tcfg_cuda.running import target_runs_on

    return target_runs_on(code, machine)
