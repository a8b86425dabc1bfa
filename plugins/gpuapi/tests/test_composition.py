"""The GPU API kinds as devices of composites and CompilationConfig: a two-machine configuration."""

from __future__ import annotations

import tcfg

HOST = "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a78"


def test_two_machine_config(reg: tcfg.Registry) -> None:
    phone = tcfg.Target(
        {"kind": "composite", "host": HOST, "devices": ["vulkan/arm-mali-g710", "qcom/adreno-opencl"]}, registry=reg
    )
    desktop = tcfg.Target(
        {"kind": "composite", "host": "llvm -mtriple=x86_64-linux-gnu", "devices": ["webgpu"]}, registry=reg
    )
    for t in (phone, desktop):
        assert tcfg.Target(str(t), registry=reg) == t
        assert tcfg.Target(t.export(), registry=reg) == t
        assert tcfg.Target(t.to_json(), registry=reg) == t
    config = tcfg.CompilationConfig(phone, registry=reg)
    vulkan = config.target_for("vulkan")
    assert vulkan.tag == "vulkan/arm-mali-g710" and vulkan.host is not None
    assert vulkan.host.attrs["mcpu"] == "cortex-a78"
    assert config.target_for("opencl").kind.name == "opencl"
    assert tcfg.CompilationConfig(config.export(), registry=reg).to_target() == config.to_target()
    rebuilt = config.to_target()
    assert tcfg.Target(str(rebuilt), registry=reg) == rebuilt
    assert tcfg.Target(rebuilt.export(), registry=reg) == rebuilt
