"""tcfg plugin: Apple GPUs through Metal (the ``metal`` kind, Apple silicon GPU tags, Metal codegen).

:func:`gpu_tags` gives the GPU tags this plugin registers.
"""

from tcfg_apple.tags import gpu_tags

__all__ = ["gpu_tags"]
