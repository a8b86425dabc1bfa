"""The Trainium instance tags (``data/instances.json``): each instance's NeuronCores and memory sizes."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from tcfg.plugin import TagSpec, package_json

__all__ = ["instance_tags"]


@functools.cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_aws", "data/instances.json")
    return data


def instance_tags() -> Iterator[TagSpec]:
    """One ``trn`` tag per instance: its chips' NeuronCores, partitions and per-partition SBUF/PSUM bytes."""
    data = _data()
    for name, row in data["instances"].items():
        chip = data["chips"][row["chip"]]
        cores = chip["neuron_cores"] * row["chips"]
        config = {
            "kind": "trn",
            "num-cores": cores,
            "partition_size": chip["partition_size"],
            "max_sbuf_size_per_partition": chip["sbuf_bytes_per_partition"],
            "max_psum_size_per_partition": chip["psum_bytes_per_partition"],
        }
        description = f"{name.rsplit('/', 1)[1]}: {row['chips']}x {chip['description']}, {cores} NeuronCores"
        yield TagSpec(name, config, description, f"{row['source']}; {chip['source']} (compiled {data['date']})")
