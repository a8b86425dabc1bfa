"""The Hexagon tags (``data/tags.json``: TVM 0.27's ``qcom/hexagon-*`` tags, with their source)."""

from __future__ import annotations

from tcfg.plugin import TagSpec, package_json

__all__ = ["hexagon_tags"]


def hexagon_tags() -> list[TagSpec]:
    """Every tag of ``data/tags.json``, citing the table's source."""
    data = package_json("tcfg_hexagon", "data/tags.json")
    source = f"{data['source']}, retrieved {data['date']}"
    return [TagSpec(name, row["config"], row["description"], source) for name, row in data["tags"].items()]
