"""The trn kind and the instance tags, against Apache TVM 0.27's snapshot and the AWS Neuron figures."""

from __future__ import annotations

import json
from typing import Any

import pytest

import tcfg
import tcfg_aws.plugin
from tcfg.testing import check_plugin
from tcfg_aws import instance_tags

TAGS = [tag.name for tag in instance_tags()]


def _tvm_attrs(export: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in export.items() if k not in ("kind", "tag", "keys")}


def test_bare_kind_matches_tvm(reg: tcfg.Registry, tvm: dict[str, Any]) -> None:
    t = tcfg.Target("trn", registry=reg)
    assert t.keys == tuple(tvm["kind"]["keys"])
    assert dict(t.attrs) == _tvm_attrs(tvm["kind"]["export"])
    attrs = set(reg.get_kind("trn").table)
    assert {"num-cores", "partition_size", "max_sbuf_size_per_partition", "max_psum_size_per_partition"} <= attrs


@pytest.mark.parametrize("name", ["aws/trn1/trn1.2xlarge", "aws/trn1/trn1.32xlarge"])
def test_tvm_tags_resolve_to_the_same_device(reg: tcfg.Registry, tvm: dict[str, Any], name: str) -> None:
    theirs = tvm["tags"][name]
    t = tcfg.Target(name, registry=reg)
    assert t.kind.name == theirs["export"]["kind"]
    assert {k: v for k, v in t.export().items() if k not in ("kind", "tag")} == _tvm_attrs(theirs["export"])
    assert t.keys == tuple(theirs["keys"])


def test_every_tvm_trn_tag_is_registered(reg: tcfg.Registry, tvm: dict[str, Any]) -> None:
    assert set(tvm["tags"]) <= set(reg.list_tags("aws/"))
    assert not reg.list_tags("aws/cpu/")  # the x86 plugin's


@pytest.mark.parametrize("name", TAGS)
def test_tag_round_trips_and_cites(reg: tcfg.Registry, name: str) -> None:
    t = tcfg.Target(name, registry=reg)
    assert t.tag == name
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t
    entry = reg.tag_entry(name)
    assert "AWS Neuron" in entry.source and "2026" in entry.source
    assert entry.description


def test_neuron_core_figures() -> None:
    """Cores and per-partition bytes follow from the cited chip figures (MiB / 128 partitions)."""
    configs = {tag.name: tag.config for tag in instance_tags()}
    trn2 = configs["aws/trn2/trn2.48xlarge"]
    assert trn2["num-cores"] == 16 * 8
    assert trn2["max_sbuf_size_per_partition"] * trn2["partition_size"] == 28 << 20
    assert trn2["max_psum_size_per_partition"] * trn2["partition_size"] == 2 << 20
    trn1 = configs["aws/trn1/trn1n.32xlarge"]
    assert trn1["max_sbuf_size_per_partition"] * trn1["partition_size"] == 24 << 20


def test_overrides(reg: tcfg.Registry) -> None:
    t = tcfg.Target("aws/trn1/trn1.32xlarge -num-cores=8", registry=reg)
    assert t.attrs["num-cores"] == 8 and t.attrs["partition_size"] == 128
    assert tcfg.Target(str(t), registry=reg) == t


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("trn -num_cores=2", "did you mean 'num-cores'"),
        ("trn -num-cores=0", "num-cores"),
        ({"kind": "trn", "partition_size": "128"}, "partition_size"),
        ("aws/trn1/trn1.3xlarge", "did you mean"),
        ("trn -host=trn", "must be a CPU target"),
        ("trm", "did you mean 'trn'"),
    ],
)
def test_bad_input(reg: tcfg.Registry, spec: Any, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        tcfg.Target(spec, registry=reg)


def test_trn_device_in_a_composite(reg: tcfg.Registry) -> None:
    system = tcfg.Target(
        {"kind": "composite", "host": "llvm -mtriple=x86_64-linux-gnu", "devices": ["aws/trn1/trn1.2xlarge"]},
        registry=reg,
    )
    assert tcfg.Target(str(system), registry=reg) == system
    assert tcfg.Target(json.loads(system.to_json()), registry=reg) == system
    cfg = tcfg.CompilationConfig(system, registry=reg)
    assert cfg.target_for("trn").attrs["num-cores"] == 2
    assert cfg.host is not None and cfg.host.kind.name == "llvm"


def test_entry_point_loads_the_plugin() -> None:
    loaded = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "aws"})
    assert "trn" in loaded.list_kinds()
    assert "aws/trn1/trn1.2xlarge" in loaded.list_tags("aws/")


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk: each kind's default target, every tag and variant, no PluginWarning."""
    check_plugin(tcfg_aws.plugin)
