"""The ``opencl`` target kind (TVM 0.27's attributes and defaults) and the ``clml`` BYOC compiler.

``opencl_c_version`` (tcfg's; TVM has none) is the OpenCL C version kernels are
compiled as (1.2 by default: what TVM's generated kernels need, and what every
OpenCL 1.2+ device compiles). ``clml`` is Qualcomm's OpenCL ML SDK (the
``cl_qcom_ml_ops`` extension of Adreno GPUs' OpenCL drivers): a target naming it must be
an Adreno device (``-device=adreno``, as the ``qcom/adreno-opencl*`` tags are).
"""

from __future__ import annotations

import functools

from tcfg.plugin import (
    Attr,
    AttributeValueError,
    Choice,
    Compiler,
    Derived,
    DeriveRequest,
    Feature,
    Integer,
    TargetKind,
)
from tcfg_gpuapi.common import check_cpu_host, check_threads

__all__ = ["CLML", "OPENCL", "OPENCL_C_VERSIONS", "parse_clml", "parse_opencl"]

#: OpenCL C versions clang's -cl-std accepts (CL1.2, CL2.0, CL3.0).
OPENCL_C_VERSIONS = ("1.2", "2.0", "3.0")

_ATTRS = (
    Attr("max_threads_per_block", Integer(minimum=1), default=256, doc="CL_DEVICE_MAX_WORK_GROUP_SIZE."),
    Attr("max_shared_memory_per_block", Integer(minimum=0), default=16384, doc="CL_DEVICE_LOCAL_MEM_SIZE (bytes)."),
    Attr(
        "max_num_threads",
        Integer(minimum=1),
        doc="Work-items per work-group that schedules may use; follows max_threads_per_block when not given.",
    ),
    Attr("thread_warp_size", Integer(minimum=1), default=1, doc="The sub-group size (1: unknown)."),
    Attr("texture_spatial_limit", Integer(minimum=1), default=16384, doc="Largest 2D image width/height (pixels)."),
    Attr("texture_depth_limit", Integer(minimum=1), default=2048, doc="Largest image array size (layers)."),
    Attr(
        "max_function_args", Integer(minimum=1), default=128, doc="Most kernel arguments (CL_DEVICE_MAX_CONSTANT_ARGS)."
    ),
    Attr(
        "image_base_address_alignment",
        Integer(minimum=1),
        default=64,
        doc="CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT (pixels) for images made from buffers.",
    ),
    Attr(
        "opencl_c_version",
        Choice(OPENCL_C_VERSIONS),
        default="1.2",
        doc="The OpenCL C version kernels are compiled as (tcfg; not in TVM).",
    ),
)

FEATURES = (Feature("opencl_c_version", 'The OpenCL C version kernels are compiled as, as text ("1.2").'),)


@functools.cache
def _facts(version: str, threads: int) -> Derived:
    return Derived(
        features={"opencl_c_version": version},
        why={"opencl_c_version": "-opencl_c_version (1.2 unless given)"},
        defaults={"max_num_threads": threads},
    )


def parse_opencl(request: DeriveRequest) -> Derived:
    """Check the host and thread limits; the OpenCL C version is a feature."""
    check_cpu_host("opencl", request.attrs.get("host"))
    check_threads(request.attrs)
    return _facts(request.attrs["opencl_c_version"], request.attrs["max_threads_per_block"])


OPENCL = TargetKind(
    name="opencl",
    device_type="opencl",
    attrs=_ATTRS,
    default_keys=("opencl", "gpu"),
    parser=parse_opencl,
    parse_reads=("opencl_c_version", "max_threads_per_block", "max_num_threads", "host"),
    features=FEATURES,
    doc="A device programmed through OpenCL C kernels; TVM 0.27's attributes.",
)

_CLML_DERIVED = Derived(features={"clml": True}, why={"clml": "-compiler=clml on an Adreno device"})


def parse_clml(request: DeriveRequest) -> Derived:
    """Refuse CLML on anything but an Adreno GPU."""
    device = request.attrs.get("device")
    if device != "adreno":
        shown = f"-device={device}" if device is not None else "no -device"
        raise AttributeValueError(
            f"-compiler=clml: CLML (Qualcomm's OpenCL ML SDK, the cl_qcom_ml_ops extension) exists only in "
            f"the OpenCL drivers of Qualcomm Adreno GPUs, and this target has {shown}; give -device=adreno "
            "or start from the tag qcom/adreno-opencl-clml"
        )
    return _CLML_DERIVED


CLML = Compiler(
    name="clml",
    kinds=("opencl",),
    parser=parse_clml,
    features=(Feature("clml", "Offloads supported operators to Qualcomm's CLML library (Adreno only)."),),
    doc="Qualcomm Adreno OpenCL ML SDK (CLML): operators run by the vendor's library on Adreno GPUs.",
)
