"""tcfg plugin: portable GPU APIs (the ``vulkan``, ``opencl`` and ``webgpu`` kinds, the ``clml`` compiler).

The public API: :func:`device_attrs` reads a Vulkan device from Vulkan Profiles JSON
(``vulkaninfo --json``, vulkan.gpuinfo.org exports) into vulkan target attributes;
:func:`detect_vulkan` runs ``vulkaninfo`` on this machine. Both are imported on first
use, so that loading the plugin (which imports this package) does not import
``subprocess`` and ``tempfile``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from tcfg_gpuapi.detect import detect_vulkan, device_attrs

__all__ = ["detect_vulkan", "device_attrs"]


def __getattr__(name: str) -> Any:
    if name in ("detect_vulkan", "device_attrs"):
        from tcfg_gpuapi import detect

        return getattr(detect, name)
    raise AttributeError(f"module 'tcfg_gpuapi' has no attribute {name!r}")
