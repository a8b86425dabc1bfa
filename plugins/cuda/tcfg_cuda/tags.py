"""The tags of this plugin: known NVIDIA GPUs (``data/gpus.json``, also names for detection), and cloud GPU
instances (``data/systems.json``) as composite tags of the host CPU and its GPUs."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from tcfg.plugin import TagSpec, package_json

__all__ = ["gpu_by_device_name", "gpu_tags", "system_tags"]


@functools.cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_cuda", "data/gpus.json")
    return data


def _config(row: dict[str, Any]) -> dict[str, Any]:
    config: dict[str, Any] = {"kind": "cuda", "arch": row["arch"]}
    if "sm_count" in row:
        config["multi_processor_count"] = row["sm_count"]
    if "l2_bytes" in row:
        config["l2_cache_size_bytes"] = row["l2_bytes"]
    if "memory_gib" in row:
        config["global_memory_bytes"] = row["memory_gib"] << 30
    if "host" in row:
        config["host"] = row["host"]
    return config


def _variants(name: str, row: dict[str, Any]) -> dict[str, Any]:
    """A board's variants (a GPU with a host CPU): ``cuda``, its GPU with that host; ``cpu``, the host alone."""
    if "host" not in row:
        return {}
    return {"cuda": {"tag": name}, "cpu": row["host"]}


def gpu_tags() -> Iterator[TagSpec]:
    """Every GPU tag, with its config, other names (TVM's), variants and a citation of each source."""
    data = _data()
    sources = data["sources"]
    for name, row in data["gpus"].items():
        cited = "; ".join(sources[key] for key in row["sources"])
        note = f" Note: {row['note']}." if "note" in row else ""
        yield TagSpec(
            name,
            _config(row),
            row["description"],
            f"{cited} (compiled {data['compiled']}).{note}",
            aliases=tuple(row.get("aliases", ())),
            variants=_variants(name, row),
        )


@functools.cache
def _by_device_name() -> dict[str, dict[str, Any]]:
    return {device: row for row in _data()["gpus"].values() for device in row.get("device_names", ())}


def gpu_by_device_name(device_name: str) -> dict[str, Any] | None:
    """The known GPU whose driver-reported name is ``device_name`` (its data row), or None."""
    return _by_device_name().get(device_name)


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
