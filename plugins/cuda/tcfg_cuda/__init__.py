"""tcfg plugin: NVIDIA CUDA GPUs (the ``cuda`` and ``nvptx`` kinds, GPU tags, PTX codegen, GPU detection).

The public API, for users and for plugins that build on this one (declare
``tcfg-plugin-cuda`` as a dependency and import from here only):
:func:`runs_on` says whether code compiled for one arch runs on a device of another,
:func:`arch_info` gives an arch's facts, :func:`gpu_tags` the GPU tags this plugin registers.
"""

from tcfg_cuda.facts import ArchInfo, arch_info, runs_on
from tcfg_cuda.tags import gpu_tags

__all__ = ["ArchInfo", "arch_info", "gpu_tags", "runs_on"]
