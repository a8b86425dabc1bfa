"""The Arm tags (``data/tags.json``): boards and machines with their sources; microcontroller boards get ``aot``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from tcfg.plugin import TagSpec
from tcfg_aarch64.facts import tag_table

__all__ = ["arm_tags"]

#: The AOT executor as microcontroller deployments use it: plain C calls, no packed functions.
_AOT = {"name": "aot", "unpacked-api": True, "interface-api": "c"}


def _board_variants(name: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """A microcontroller board's (kind ``c``) ``aot`` variant: the board as a composite with AOT and the C runtime."""
    if config["kind"] != "c":
        return {}
    board = {"tag": name}
    return {"aot": {"kind": "composite", "host": board, "devices": [board], "executor": _AOT, "runtime": "crt"}}


def arm_tags() -> Iterator[TagSpec]:
    """Every tag of ``data/tags.json``, with its aliases and variants."""
    for name, tag in tag_table().items():
        yield TagSpec(
            name,
            tag["config"],
            tag["description"],
            tag["source"],
            tuple(tag.get("aliases", ())),
            _board_variants(name, tag["config"]),
        )
