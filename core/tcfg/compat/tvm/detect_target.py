"""``tvm.target.detect_target``: a device's target (``detect_target_from_device``), as TVM 0.27 has it.

TVM looks the device type up in ``SUPPORTED_DEVICE`` (only ``cpu`` unless a backend registers a
detector); tcfg asks its plugins' ``tcfg_detect`` hooks instead, so every kind a plugin detects is
supported and ``register_device_target_detector`` is not offered (write a plugin's ``tcfg_detect``).
"""

from __future__ import annotations

from typing import Any

from tcfg.compat.tvm.target import Target

__all__ = ["detect_target_from_device"]


def detect_target_from_device(dev: Any) -> Target:
    """The target of ``dev`` (``"cuda"``, ``"cuda:1"``, a DLPack code or a ``Device``); see ``Target.from_device``."""
    return Target.from_device(dev)
