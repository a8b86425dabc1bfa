"""Known AMD GPU boards (``data/boards.json``) as tags: ``amd/mi300x``, ``amd/radeon-rx-7900-xtx``.

Each tag is the rocm target of one GPU as ROCm sees it: the processor, the compute
units, L2 cache and memory of that GPU. A board with several GPUs (MI250X: two dies)
has each die's share.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tcfg.plugin import TagSpec, package_json

__all__ = ["board_config", "board_tags", "boards"]


def boards() -> dict[str, Any]:
    """The board table: ``boards`` (tag name to row), ``sources``, ``date``."""
    data: dict[str, Any] = package_json("tcfg_rocm", "data/boards.json")
    return data


def board_config(row: dict[str, Any]) -> dict[str, Any]:
    """The rocm target of one GPU of the board ``row``."""
    devices = row["devices_per_board"]
    return {
        "kind": "rocm",
        "mcpu": row["mcpu"],
        "model": row["name"],
        "multi_processor_count": row["compute_units"] // devices,
        "l2_cache_size_bytes": (row["l2_mib"] << 20) // devices,
        "global_memory_bytes": (row["vram_gib"] << 30) // devices,
    }


def board_tags() -> Iterator[TagSpec]:
    """Every board tag, with its config, a one-line description and its cited sources."""
    data = boards()
    for name, row in data["boards"].items():
        cited = "; ".join(data["sources"][key] for key in row["sources"])
        per = f", one of its {row['devices_per_board']} GPUs" if row["devices_per_board"] > 1 else ""
        description = f"{row['name']} ({row['mcpu']}, {row['compute_units']} CUs, {row['vram_gib']} GiB{per})"
        yield TagSpec(name, board_config(row), description, cited)
