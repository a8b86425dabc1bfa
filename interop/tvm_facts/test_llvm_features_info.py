"""TVM's ``test_llvm_features_info.py``: LLVM's targets, each CPU family's CPUs, and CPU features."""

from __future__ import annotations

import pytest

from tcfg.compat.tvm import Target, codegen

from .facts import check_llvm_features, fact

FACTS = [
    fact("x86_64", "sandybridge", "sse4.1", True),
    fact("x86_64", "ivybridge", ["sse4.1", "ssse3"], True),
    fact("x86_64", "ivybridge", ["sse4.1", "ssse3", "avx512bw"], False),
    fact("aarch64", "cortex-a55", "neon", True),
    fact("aarch64", "cortex-a55", "dotprod", True),
    fact("aarch64", "cortex-a55", "dsp", False),
    fact("arm", "cortex-a55", "dsp", True),
    fact("aarch64", "cortex-a55", ["neon", "dotprod"], True),
    fact("aarch64", "cortex-a55", ["neon", "dotprod", "dsp"], False),
    fact("arm", "cortex-a55", ["neon", "dotprod"], True, differs="soft-float"),
    fact("arm", "cortex-a55", ["neon", "dotprod", "dsp"], True, differs="soft-float"),
]


def test_llvm_targets_are_listed() -> None:
    assert codegen.llvm_get_targets()
    assert codegen.llvm_version_major() == 22


def test_this_machine() -> None:
    assert codegen.llvm_get_system_cpu()
    assert codegen.llvm_get_system_triple() == Target("llvm").attrs["mtriple"]


@pytest.mark.parametrize("cpu", [fact("dummy", differs="unknown-cpu")])
def test_an_unknown_cpu_falls_back_to_generic(cpu: str) -> None:
    """TVM warns and uses ``-mcpu=generic`` for ``-mcpu=dummy``; tcfg refuses it."""
    assert codegen.llvm_get_cpu_features(Target(f"llvm -mtriple=x86_64-linux-gnu -mcpu={cpu}")) is not None


@pytest.mark.parametrize(("llvm_target", "cpu", "features", "supported"), FACTS)
def test_target_features(llvm_target: str, cpu: str, features: str | list[str], supported: bool) -> None:
    target = Target(f"llvm -mtriple={llvm_target}-- -mcpu={cpu}")
    check_llvm_features(llvm_target, cpu, features, supported, target)
    for feature in [features] if isinstance(features, str) else features:
        assert codegen.llvm_cpu_has_features(feature, target) == (feature in codegen.llvm_get_cpu_features(target))
