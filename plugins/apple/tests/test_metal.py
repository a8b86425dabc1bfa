"""The metal kind and the Apple GPU tags, against Apache TVM 0.27's snapshot and the Metal Feature Set Tables."""

from __future__ import annotations

import json
from typing import Any

import pytest

import tcfg
import tcfg_aarch64.plugin
import tcfg_apple.plugin
from tcfg.testing import check_plugin
from tcfg_apple import gpu_tags

TAGS = [tag.name for tag in gpu_tags()]
#: The Arm features TVM derives for a host; TVM's is_aarch64 reads False for arm64-apple-macos
#: (it matches the triple's spelling "aarch64"), tcfg's reads the architecture.
HOST_FEATURES = ("has_asimd", "has_dotprod", "has_fp16_simd", "has_matmul_i8", "has_sve", "has_sme")


def _tvm_attrs(export: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in export.items() if k not in ("kind", "tag", "keys", "host")}


def test_bare_kind_matches_tvm(reg: tcfg.Registry, tvm: dict[str, Any]) -> None:
    t = tcfg.Target("metal", registry=reg)
    assert t.keys == tuple(tvm["kind"]["keys"])
    assert dict(t.attrs) == _tvm_attrs(tvm["kind"]["export"])


def test_every_tvm_apple_tag_is_registered(reg: tcfg.Registry, tvm: dict[str, Any]) -> None:
    assert set(tvm["tags"]) == {"apple/m1-gpu", "apple/m1-gpu-restricted", "apple/m2-gpu"}
    assert set(tvm["tags"]) <= set(reg.list_tags("apple/"))


@pytest.mark.parametrize("name", ["apple/m1-gpu", "apple/m1-gpu-restricted", "apple/m2-gpu"])
def test_tvm_tags_resolve_to_the_same_device(reg: tcfg.Registry, tvm: dict[str, Any], name: str) -> None:
    theirs = tvm["tags"][name]["export"]
    t = tcfg.Target(name, registry=reg)
    assert t.keys == tuple(tvm["tags"][name]["keys"])
    ours = {k: v for k, v in t.attrs.items() if k not in ("host", "tag", "gpu_family")}
    assert ours == _tvm_attrs(theirs)
    host, their_host = t.host, theirs["host"]
    assert host is not None
    assert (host.kind.name, host.attrs["mtriple"], host.attrs["mcpu"]) == (
        their_host["kind"],
        their_host["mtriple"],
        their_host["mcpu"],
    )
    assert host.keys == tuple(their_host["keys"])
    for feat in HOST_FEATURES:
        assert host.features[feat] is their_host[f"feature.{feat}"], feat


@pytest.mark.parametrize("name", TAGS)
def test_tag_round_trips_and_cites(reg: tcfg.Registry, name: str) -> None:
    t = tcfg.Target(name, registry=reg)
    assert t.tag == name and t.kind.name == "metal"
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t
    entry = reg.tag_entry(name)
    assert "Metal Feature Set Tables" in entry.source and "2026" in entry.source
    assert t.features.metal3 is True and t.features.simdgroup_matrix is True


def test_family_features_and_limits(reg: tcfg.Registry) -> None:
    m3 = tcfg.Target("apple/m3-gpu", registry=reg)
    assert m3.features.gpu_family == "apple9"
    assert m3.attrs["max_threads_per_block"] == 1024 and m3.attrs["max_shared_memory_per_block"] == 32 * 1024
    assert m3.host is not None and m3.host.attrs["mcpu"] == "apple-m3"
    assert tcfg.Target("apple/m1-gpu", registry=reg).features.simd_width == 32
    assert tcfg.Target("metal -gpu_family=apple8", registry=reg).attrs["thread_warp_size"] == 32
    assert m3.attrs["thread_warp_size"] == 16  # TVM's default: Apple9's SIMD-group width is not cited
    assert m3.features.simd_width is False  # not cited for Apple9
    assert "A14" in tcfg.Target("metal -gpu_family=apple7", registry=reg).features.explain("gpu_family")
    generic = tcfg.Target("metal", registry=reg)
    assert generic.features.metal3 is False and generic.features.gpu_family is False


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("metal -gpu_family=apple10", "did you mean 'apple9'"),
        ("metal -gpu_famly=apple7", "did you mean 'gpu_family'"),
        ("metal -max_threads_per_block=2048", "1024"),
        ("metal -gpu_family=apple7 -max_shared_memory_per_block=65536", "32768"),
        ("metal -max_function_args=32", "31"),
        ("metal -max_num_threads=512", "exceeds -max_threads_per_block"),
        ("metal -host=metal", "must be a CPU target"),
        ({"kind": "metal", "max_num_threads": "256"}, "max_num_threads"),
        ("apple/m5-gpu", "did you mean"),
    ],
)
def test_bad_input(reg: tcfg.Registry, spec: Any, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        tcfg.Target(spec, registry=reg)


def test_codegen(reg: tcfg.Registry) -> None:
    out = tcfg.Target("apple/m2-gpu", registry=reg).codegen().to_dict()
    assert out["std"] == "metal3.2" and "-std=metal3.2" in out["xcrun_metal"]
    assert out["simd_width"] == 32 and out["max_threads_per_threadgroup"] == 1024
    generic = tcfg.Target("metal", registry=reg).codegen().to_dict()
    assert generic["std"] is None and not any(f.startswith("-std") for f in generic["xcrun_metal"])
    with pytest.raises(tcfg.TargetError, match="no MLIR target attribute"):
        tcfg.Target("metal", registry=reg).codegen().mlir_attr()


def test_metal_device_in_a_composite(reg: tcfg.Registry) -> None:
    system = tcfg.Target(
        {"kind": "composite", "host": "llvm -mtriple=arm64-apple-macos -mcpu=apple-m2", "devices": ["apple/m2-gpu"]},
        registry=reg,
    )
    assert tcfg.Target(str(system), registry=reg) == system
    assert tcfg.Target(json.loads(system.to_json()), registry=reg) == system
    cfg = tcfg.CompilationConfig(system, registry=reg)
    assert cfg.target_for("metal").features.gpu_family == "apple8"


def test_entry_point_loads_the_plugin() -> None:
    loaded = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "apple,aarch64"})
    assert "metal" in loaded.list_kinds()
    assert tcfg.Target("apple/m1-gpu", registry=loaded).host.keys == ("arm_cpu", "cpu")  # type: ignore[union-attr]


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk (beside the plugin it needs): every kind's default, tag and variant; no PluginWarning."""
    check_plugin(tcfg_apple.plugin, tcfg_aarch64.plugin)
