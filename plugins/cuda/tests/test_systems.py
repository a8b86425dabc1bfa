"""Cloud GPU instance tags: composite targets of an x86 host and its GPUs."""

from __future__ import annotations

import json
from importlib import resources

import pytest

import tcfg
import tcfg_cuda.plugin
from tcfg.testing import registry_with

REG = registry_with(tcfg_cuda.plugin)


@pytest.mark.parametrize(
    ("tag", "gpu", "count", "cpu"),
    [
        ("aws/p4d.24xlarge", "sm_80", 8, "cascadelake"),
        ("aws/p5.48xlarge", "sm_90a", 8, "znver3"),
        ("aws/g5.xlarge", "sm_86", 1, "znver2"),
        ("aws/g6.48xlarge", "sm_89", 8, "znver3"),
    ],
)
def test_instance_tags_are_composites_of_host_and_gpus(tag: str, gpu: str, count: int, cpu: str) -> None:
    system = tcfg.Target(tag, registry=REG)
    assert system.kind.name == "composite" and system.tag == tag
    assert system.host is not None and system.host.attrs["mcpu"] == cpu
    devices = system.attrs["devices"]
    assert len(devices) == count and {d.attrs["arch"] for d in devices} == {gpu}
    for form in (str(system), system.export(), system.to_json()):
        assert tcfg.Target(form, registry=REG) == system
    config = tcfg.CompilationConfig(system, registry=REG)
    assert config.host == system.host
    cuda = config.target_for("cuda")
    assert cuda.host == system.host and cuda.attrs["arch"] == gpu
    assert tcfg.CompilationConfig(config.export(), registry=REG) == config


def test_num_cores_counts_physical_cores_as_the_x86_instance_tags_do() -> None:
    """Every instance here runs two vCPUs per core; ``num-cores`` is the core count, not the vCPUs."""
    data = json.loads(resources.files("tcfg_cuda").joinpath("data/systems.json").read_text(encoding="utf-8"))
    for name, row in data["systems"].items():
        host = tcfg.Target(name, registry=REG).host
        assert host is not None and host.attrs["num-cores"] * 2 == row["vcpus"], name
    p4d_host = tcfg.Target("aws/p4d.24xlarge", registry=REG).host
    assert p4d_host is not None and p4d_host.attrs["num-cores"] == 48  # 2 x 24-core Xeon 8275CL
