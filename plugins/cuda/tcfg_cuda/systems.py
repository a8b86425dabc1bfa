"""Cloud GPU instances (``data/systems.json``) as composite tags: the host CPU and its GPUs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tcfg.plugin import TagSpec, package_json

__all__ = ["system_tags"]


def system_tags() -> Iterator[TagSpec]:
    """One composite tag per system, each GPU a device built from its GPU tag."""
    data: dict[str, Any] = package_json("tcfg_cuda", "data/systems.json")
    for name, row in data["systems"].items():
        config = {
            "kind": "composite",
            "host": row["host"],
            "devices": [{"tag": row["gpu"]}] * row["count"],
        }
        cited = "; ".join(data["sources"][key] for key in row["sources"])
        yield TagSpec(name, config, row["description"], f"{cited} (compiled {data['compiled']})")
