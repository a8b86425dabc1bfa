"""Tags for common TensorRT setups: Jetson boards with TensorRT on the GPU and on each DLA core.

Each tag is a ``composite`` target: the board's CPU as host and, as devices, the
board's ``cuda`` tag with ``-compiler=tensorrt`` for the GPU, plus one DLA target per
DLA core. The boards, TensorRT versions and DLA counts are in ``data/tensorrt.json``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tcfg.plugin import TagSpec
from tcfg_tensorrt.facts import cite, data, parse_version

__all__ = ["trt_tags"]


def _devices(row: dict[str, Any], strong: bool) -> list[dict[str, Any]]:
    gpu: dict[str, Any] = {"tag": row["gpu_tag"], "compiler": "tensorrt", "trt_version": row["trt_version"]}
    if row["dla_cores"] == 0:
        return [{**gpu, "dla_cores": 0}]
    gpu["dla_cores"] = row["dla_cores"]
    dla_options: dict[str, Any] = {"trt_gpu_fallback": True}
    if not strong:
        dla_options["trt_precisions"] = ["fp16", "int8"]
    return [gpu, *({**gpu, **dla_options, "trt_dla_core": core} for core in range(row["dla_cores"]))]


def trt_tags(host_of: dict[str, str]) -> Iterator[TagSpec]:
    """Every tag; ``host_of`` maps a cuda tag name to its host target string."""
    loaded = data()
    for name, row in loaded["tags"].items():
        strong = loaded["majors"][str(parse_version(row["trt_version"])[0])]["typing"] == "strong"
        config = {"kind": "composite", "host": host_of[row["gpu_tag"]], "devices": _devices(row, strong)}
        source = f"{cite(row['sources'])} (compiled {loaded['compiled']}). {loaded['tags_note']}"
        yield TagSpec(name, config, row["description"], source)
