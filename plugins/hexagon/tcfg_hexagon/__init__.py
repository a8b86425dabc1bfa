"""tcfg plugin: Qualcomm Hexagon DSPs (the ``hexagon`` kind, HVX features, ``qcom/hexagon-*`` tags, LLVM codegen).

The public API: :func:`cpu_names` lists the Hexagon CPUs clang-22 knows.
"""

from tcfg_hexagon.facts import cpu_names

__all__ = ["cpu_names"]
