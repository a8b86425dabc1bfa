"""tcfg plugin: NVIDIA CUDA GPUs (the ``cuda`` kind, GPU tags, PTX codegen, GPU detection).

:func:`runs_on` says whether code compiled for one arch runs on a device of another.
"""

from tcfg_cuda.arch import runs_on

__all__ = ["runs_on"]
