"""The ``clml`` BYOC compiler of ``opencl`` targets: Qualcomm's OpenCL ML SDK (the ``cl_qcom_ml_ops``
extension of Adreno GPUs' OpenCL drivers). A target naming it must be an Adreno device
(``-device=adreno``, as the ``qcom/adreno-opencl*`` tags are).
"""

from __future__ import annotations

from tcfg.plugin import AttributeValueError, Compiler, Derived, DeriveRequest, Feature

__all__ = ["CLML", "parse_clml"]

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
