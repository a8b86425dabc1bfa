"""The hardware facts shipped with the plugin (``data/cpus.json``, with its source and date), read on first use."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from tcfg.plugin import package_json

if TYPE_CHECKING:  # typing costs a fresh process milliseconds: its names are for the type checker
    from typing import Any

__all__ = ["cpu_table"]


@cache
def cpu_table() -> dict[str, Any]:
    """The CPU data shipped with the plugin, read once on first use."""
    table: dict[str, Any] = package_json(__package__, "data/cpus.json")
    return table
