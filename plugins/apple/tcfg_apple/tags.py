"""The Apple GPU tags (``data/metal.json``): each GPU's family, limits and Apple silicon host CPU."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tcfg.plugin import TagSpec
from tcfg_apple.facts import metal_table

__all__ = ["gpu_tags"]


def _config(row: dict[str, Any]) -> dict[str, Any]:
    fam = metal_table()["families"][row["family"]]
    config: dict[str, Any] = {
        "kind": "metal",
        "gpu_family": row["family"],
        "max_threads_per_block": row["max_threads_per_block"],
        "max_shared_memory_per_block": fam["max_threadgroup_memory"],
        "max_function_args": fam["max_buffer_arguments"],
        "host": f"llvm -mtriple=arm64-apple-macos -mcpu={row['host_cpu']}",
    }
    if "simd_width" in fam:
        config["thread_warp_size"] = fam["simd_width"]
    return config


def gpu_tags() -> Iterator[TagSpec]:
    """One ``metal`` tag per Apple GPU, citing its sources and the table's date."""
    data = metal_table()
    for name, row in data["tags"].items():
        yield TagSpec(name, _config(row), row["description"], f"{row['source']} (compiled {data['date']})")
