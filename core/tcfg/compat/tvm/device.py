"""``Target.from_device``: the target of one of this machine's devices, found by tcfg's detection.

A device is named as TVM names it (``"cpu"``, ``"llvm"``, ``"cuda"``, ``"rocm"``, ...), by its
DLPack device type code, or by an object with ``device_type`` (or ``dlpack_device_type()``)
and ``device_id`` or ``index`` (a TVM ``Device`` works). The CPU is this machine's ``llvm``
with its triple and LLVM's name of its CPU (``llvm -mcpu=native``, what TVM's ``_detect_cpu``
gives); other devices come from the plugins' ``tcfg_detect`` hooks, the ``device_id``-th of
their kind. Only the CPU and detection from recordings are tested here: this machine has no
GPU (docs/from-tvm.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import tcfg
from tcfg._base.errors import describe_choices
from tcfg._model.kind import DLPACK_DEVICES
from tcfg._registry.registry import default_registry

__all__ = ["device_code", "from_device"]

#: TVM's other names for device types (``tvm.runtime.Device``'s string table).
_ALIASES = {"llvm": 1, "c": 1, "gpu": 2, "nvptx": 2, "cl": 4, "mtl": 8, "ext_dev": 12}


def device_code(device: Any) -> tuple[int, int]:
    """``(DLPack device type, device index)`` of ``device``; a TargetError for what is not a device."""
    if isinstance(device, str):
        name, _, number = device.partition(":")
        codes = {v: k for k, v in DLPACK_DEVICES.items()} | _ALIASES
        if name not in codes or (number and not number.isdigit()):
            raise tcfg.TargetError(f"device {device!r}: not a device name; {describe_choices(name, codes)}")
        return codes[name], int(number or 0)
    if isinstance(device, int) and not isinstance(device, bool):
        if device not in DLPACK_DEVICES:
            raise tcfg.TargetError(f"device {device!r}: not a DLPack device type; valid: {dict(DLPACK_DEVICES)}")
        return device, 0
    method = getattr(device, "dlpack_device_type", None)
    code: Any = method() if callable(method) else getattr(device, "device_type", None)
    index: Any = getattr(device, "device_id", None)
    index = getattr(device, "index", 0) if index is None else index
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (code, index))
    if not ints or code not in DLPACK_DEVICES or index < 0:
        raise tcfg.TargetError(
            f"device {device!r}: expected a device name, a DLPack device type or an object with "
            "device_type and device_id"
        )
    return code, index


def from_device(device: Any, sources: Mapping[str, str | Sequence[str]] | None = None) -> tcfg.Target:
    """The :class:`tcfg.Target` of ``device`` on this machine, or a TargetError saying it is not here.

    ``sources`` (recorded ``tcfg detect`` sources, ``{"nvidia-smi": TEXT}``) answers for the machine
    they record instead of this one. The CPU's index is ignored (every ``cpu:N`` is the one CPU)."""
    code, index = device_code(device)
    if code == 1:
        if sources is None:
            return tcfg.Target("llvm -mcpu=native")
        index = 0
    found = [t for t in default_registry().detect(sources) if t.kind.dlpack_device_type == code]
    if index >= len(found):
        have = ", ".join(str(t) for t in found) or "none"
        raise tcfg.TargetError(
            f"device {device!r}: this machine has no {DLPACK_DEVICES[code]} device {index} (tcfg detect found: {have})"
        )
    return found[index]
