"""The RISC-V tags (``data/tags.json``: TVM's ``riscv/*`` boards, with their sources)."""

from __future__ import annotations

from collections.abc import Iterator

from tcfg.plugin import TagSpec, package_json

__all__ = ["riscv_tags"]


def riscv_tags() -> Iterator[TagSpec]:
    """Every tag of ``data/tags.json``, citing its source and the table's date."""
    data = package_json("tcfg_riscv", "data/tags.json")
    for name, tag in data["tags"].items():
        yield TagSpec(name, tag["config"], tag["description"], f"{tag['source']} ({data['date']})")
