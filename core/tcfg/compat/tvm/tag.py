"""``tvm.target.tag``: the tag functions, as TVM 0.27 has them in their own module."""

from __future__ import annotations

from tcfg.compat.tvm.target import list_tags, register_tag

__all__ = ["list_tags", "register_tag"]
