"""The x86 tags (``data/tags.json``): real machines, with their cited sources."""

from __future__ import annotations

from collections.abc import Iterator

from tcfg.plugin import TagSpec
from tcfg_x86.facts import load_json

__all__ = ["x86_tags"]


def x86_tags() -> Iterator[TagSpec]:
    """Every tag of ``data/tags.json``."""
    for name, entry in load_json("tags.json")["tags"].items():
        yield TagSpec(name, entry["config"], entry["description"], entry["source"], tuple(entry.get("aliases", ())))
