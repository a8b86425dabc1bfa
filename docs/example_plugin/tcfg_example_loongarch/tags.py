"""The tags of this plugin, as ``TagSpec`` records with their sources."""

from __future__ import annotations

from tcfg.plugin import TagSpec

__all__ = ["TAGS"]

TAGS = (
    TagSpec(
        "loongson/3a6000",
        {"kind": "llvm", "mtriple": "loongarch64-unknown-linux-gnu", "mcpu": "la664", "num-cores": 4},
        description="Loongson 3A6000 (4x LA664)",
        source="Loongson 3A6000 product page, 2023",
    ),
)
