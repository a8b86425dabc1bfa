#!/usr/bin/env python3
"""Add Apache TVM 0.27's NVIDIA tag names to ``tcfg_cuda/data/gpus.json``: as aliases of our GPUs, or as new rows.

A TVM name of a GPU we already list (``nvidia/nvidia-a100``, ``nvidia/jetson-agx-orin-64gb``)
becomes an alias of our row (``ALIASES``). Every other TVM name becomes a row named after it
(without TVM's ``nvidia-`` prefix, which stays as an alias), with the compute capability and
L2 size that TVM's tag gives, cited as TVM's (source ``tvm_0_27``): these are the older
GeForce, Quadro, Tesla and NVS GPUs NVIDIA lists among its legacy CUDA GPUs, which no
other stored source gives per product. The limits TVM also exports (registers and shared
memory per block) are not copied: the arch table derives them from NVIDIA's Programming
Guide, and the tests compare the two.

Usage: ``python scripts/import_tvm_gpus.py TVM_TAGS_JSON`` (the dump in the core's
``tests/fixtures/tvm_tags.json``). Rows and aliases already present are left as they are.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tcfg_cuda" / "data" / "gpus.json"

SOURCE = (
    "Apache TVM 0.27.0 tag registry (tvm.target.list_tags(), dumped 2026-11-24): the compute "
    "capability (arch) and, where given, L2 size of each GPU it names; NVIDIA lists these products "
    "on its legacy CUDA GPUs page (https://developer.nvidia.com/cuda-legacy-gpus)"
)

#: TVM names of GPUs this plugin already lists, and our name.
ALIASES = {
    "nvidia/jetson-agx-orin-64gb": "nvidia/jetson-agx-orin",
    "nvidia/jetson-agx-thor": "nvidia/jetson-thor",
    "nvidia/tegra-x1": "nvidia/jetson-tx1",
}

_WORDS = {
    "geforce": "GeForce",
    "gtx": "GTX",
    "rtx": "RTX",
    "quadro": "Quadro",
    "tesla": "Tesla",
    "nvs": "NVS",
    "titan": "TITAN",
    "tegra": "Tegra",
    "jetson": "Jetson",
    "agx": "AGX",
    "orin": "Orin",
    "ti": "Ti",
    "sm": "(SM",
    "gb": "GB",
}


def describe(name: str) -> str:
    """``nvidia/geforce-gtx-980-ti`` -> ``NVIDIA GeForce GTX 980 Ti``."""
    words = [_WORDS.get(w, w.upper()) for w in name.split("/", 1)[1].split("-")]
    text = " ".join(words).replace("(SM ", "(SM ")
    if "(SM" in text:
        text += ")"
    return f"NVIDIA {text}"


def main() -> int:
    tvm: dict[str, Any] = json.loads(Path(sys.argv[1]).read_text())["tags"]
    data = json.loads(OUT.read_text())
    gpus: dict[str, Any] = data["gpus"]
    data["sources"].setdefault("tvm_0_27", SOURCE)
    known = {alias for row in gpus.values() for alias in row.get("aliases", ())} | set(gpus)
    added = 0
    for tvm_name, config in sorted(tvm.items()):
        if config["kind"] != "cuda" or tvm_name in known:
            continue
        plain = tvm_name.replace("nvidia/nvidia-", "nvidia/").replace("nvidia/tesla-", "nvidia/tesla-")
        ours = ALIASES.get(tvm_name, plain)
        if ours in gpus:
            if tvm_name != ours:
                gpus[ours].setdefault("aliases", []).append(tvm_name)
            continue
        row: dict[str, Any] = {"arch": config["arch"], "description": describe(ours), "sources": ["tvm_0_27"]}
        if "l2_cache_size_bytes" in config:
            row["l2_bytes"] = config["l2_cache_size_bytes"]
        if tvm_name != ours:
            row["aliases"] = [tvm_name]
        gpus[ours] = row
        added += 1
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{OUT.name}: {added} GPUs added, {len(gpus)} in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
