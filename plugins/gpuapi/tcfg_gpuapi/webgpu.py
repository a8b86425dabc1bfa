"""The ``webgpu`` target kind: TVM 0.27's attributes and defaults, and the ``subgroups`` feature.

TVM's default workgroup storage (32768 bytes) is twice the WebGPU specification's default
``maxComputeWorkgroupStorageSize`` (16384): a device must be requested with the higher
limit; the codegen lists such required limits (:mod:`tcfg_gpuapi.wgsl`).
"""

from __future__ import annotations

import functools

from tcfg.plugin import Attr, Boolean, Derived, DeriveRequest, Feature, Integer, TargetKind
from tcfg_gpuapi.common import check_cpu_host

__all__ = ["WEBGPU", "parse_webgpu"]

_ATTRS = (
    Attr("max_num_threads", Integer(minimum=1), default=256, doc="Invocations per workgroup schedules may use."),
    Attr("max_shared_memory_per_block", Integer(minimum=0), default=32768, doc="Workgroup storage (bytes)."),
    Attr("supports_subgroups", Boolean(), default=False, doc="The WebGPU 'subgroups' feature (WGSL enable subgroups)."),
    Attr("thread_warp_size", Integer(minimum=1), default=1, doc="The subgroup size (1: unknown)."),
)


@functools.cache
def _facts(subgroups: bool) -> Derived:
    if not subgroups:
        return Derived()
    return Derived(features={"subgroups": True}, why={"subgroups": "-supports_subgroups=true"})


def parse_webgpu(request: DeriveRequest) -> Derived:
    """Check the host; ``supports_subgroups`` is the ``subgroups`` feature."""
    check_cpu_host("webgpu", request.attrs.get("host"))
    return _facts(bool(request.attrs["supports_subgroups"]))


WEBGPU = TargetKind(
    name="webgpu",
    device_type="webgpu",
    attrs=_ATTRS,
    default_keys=("webgpu", "gpu"),
    parser=parse_webgpu,
    parse_reads=("supports_subgroups", "host"),
    features=(Feature("subgroups", "WebGPU subgroup operations (the 'subgroups' feature, WGSL enable subgroups)."),),
    doc="A GPU programmed through WebGPU compute shaders in WGSL; TVM 0.27's attributes.",
)
