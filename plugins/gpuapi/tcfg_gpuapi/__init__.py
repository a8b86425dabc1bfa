"""tcfg plugin: portable GPU APIs (the ``vulkan``, ``opencl`` and ``webgpu`` kinds, the ``clml`` compiler).

The public API: :func:`device_attrs` reads a Vulkan device from Vulkan Profiles JSON
(``vulkaninfo --json``, vulkan.gpuinfo.org exports) into vulkan target attributes;
:func:`detect_vulkan` runs ``vulkaninfo`` on this machine.
"""

from tcfg_gpuapi.detect import detect_vulkan
from tcfg_gpuapi.vkprofile import device_attrs

__all__ = ["detect_vulkan", "device_attrs"]
