"""Device tags (``data/devices.json``): TVM's Adreno tags and Vulkan devices from published reports."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from tcfg.plugin import TagSpec, package_json

__all__ = ["device_tags", "iree_target_of"]


@functools.cache
def _devices() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = package_json("tcfg_gpuapi", "data/devices.json")["devices"]
    return data


def device_tags() -> Iterator[TagSpec]:
    """Every device tag, with its config, description and the source it cites."""
    for name, row in _devices().items():
        yield TagSpec(name, row["config"], row["description"], row["source"])


def iree_target_of(tag: str | None) -> str | None:
    """The ``--iree-vulkan-target`` name IREE knows for the device of ``tag``, or None."""
    row = _devices().get(tag) if tag else None
    return row.get("iree_target") if row else None
