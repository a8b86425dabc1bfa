"""The hook implementations of the gpuapi plugin: ``vulkan``, ``opencl`` and ``webgpu``, CLML, tags, codegen, detection.

Importing this module reads no data and runs no tool: the SPIR-V facts, the device
table, ``vulkaninfo`` and ``clinfo`` are reached by the functions that use them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from tcfg.plugin import Compiler, TagRegistrar, Target, TargetKind, hookimpl

if TYPE_CHECKING:
    from typing import Any

    from tcfg.plugin import Codegen


@hookimpl
def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
    from tcfg_gpuapi.kind import OPENCL, VULKAN, WEBGPU

    for kind in (VULKAN, OPENCL, WEBGPU):
        register(kind)


@hookimpl
def tcfg_register_compilers(register: Callable[[Compiler], None]) -> None:
    from tcfg_gpuapi.byoc import CLML

    register(CLML)


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_gpuapi.tags import device_tags

    for tag in device_tags():
        register(tag)


@hookimpl
def tcfg_codegen(target: Target) -> Codegen | None:
    if target.kind.name not in ("vulkan", "opencl", "webgpu"):
        return None
    from tcfg_gpuapi.codegen import codegen_for

    return codegen_for(target)


@hookimpl
def tcfg_detect(sources: Mapping[str, tuple[str, ...]] | None) -> Sequence[dict[str, Any]]:
    """One vulkan target per Vulkan device ``vulkaninfo`` reports and one opencl target per OpenCL
    device ``clinfo --json`` reports (none without the tools or devices), or per device in the
    recorded ``vulkaninfo --json`` documents and ``clinfo --json`` output."""
    from tcfg_gpuapi.clinfo import detect_opencl, opencl_devices
    from tcfg_gpuapi.detect import detect_vulkan, recorded_devices

    if sources is not None:
        opencl = [dev for text in sources.get("clinfo", ()) for dev in opencl_devices(text, "recorded clinfo")]
        return recorded_devices(sources.get("vulkaninfo", ())) + opencl
    return detect_vulkan() + detect_opencl()


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """vulkan, opencl and webgpu code: the versions, capabilities and limits it needs (:mod:`tcfg_gpuapi.running`)."""
    from tcfg_gpuapi.running import target_runs_on

    return target_runs_on(code, machine)
