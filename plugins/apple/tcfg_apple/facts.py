"""The Apple GPU table (``data/metal.json``), read on first use: families (limits, features, MSL versions), tags."""

from __future__ import annotations

import functools
from typing import Any

from tcfg.plugin import AttributeValueError, describe_choices, package_json

__all__ = ["family", "family_names", "metal_table"]


@functools.cache
def metal_table() -> dict[str, Any]:
    """The whole table: ``families``, ``tags``, ``source`` and ``date``."""
    data: dict[str, Any] = package_json("tcfg_apple", "data/metal.json")
    return data


def family_names() -> tuple[str, ...]:
    """The GPU families of the table, oldest first."""
    return tuple(metal_table()["families"])


def family(name: str) -> dict[str, Any]:
    """The row of GPU family ``name``, or a TargetError naming the closest families."""
    row: dict[str, Any] | None = metal_table()["families"].get(name)
    if row is None:
        raise AttributeValueError(
            f"-gpu_family={name}: not an Apple GPU family tcfg knows; {describe_choices(name, family_names())}"
        )
    return row
