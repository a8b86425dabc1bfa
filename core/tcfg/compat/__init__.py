"""Compatibility layers: other projects' target APIs answered from tcfg's own tables.

``from tcfg.compat import tvm as target`` stands in for ``from tvm import target``
(:mod:`tcfg.compat.tvm`); nothing here imports the project it imitates.
"""
