"""The vulkan, opencl and webgpu kinds: TVM 0.27's names, defaults and keys; features; refusals."""

from __future__ import annotations

import pytest

import tcfg
from tcfg._services.to_tvm import tvm_kinds
from tcfg_gpuapi.kind import SUPPORTS

from .conftest import fixture_json

TVM = fixture_json("tvm-0.27-kind-defaults.json")["kinds"]
MAKE_API = {
    "1.0": 4194304,
    "1.1": 4198400,
    "1.2": 4202496,
    "1.3": 4206592,
    "1.4": 4210688,
}  # VK_MAKE_API_VERSION(0,1,m,0)


@pytest.mark.parametrize("kind", ["vulkan", "opencl", "webgpu"])
def test_defaults_and_keys_are_tvms(reg: tcfg.Registry, kind: str) -> None:
    t = tcfg.Target(kind, registry=reg)
    assert list(t.keys) == TVM[kind]["keys"]
    for name, value in TVM[kind]["defaults"].items():
        assert t.attrs[name] == value, name


@pytest.mark.parametrize("kind", ["vulkan", "opencl", "webgpu"])
def test_every_tvm_attribute_name_exists(reg: tcfg.Registry, kind: str) -> None:
    names = tvm_kinds()["kinds"][kind]["options"]  # checked against TVM itself in interop/test_tvm.py
    assert set(names) - {"kind"} <= set(reg.get_kind(kind).table)


@pytest.mark.parametrize(("attr", "feature"), [(a, a.removeprefix("supports_")) for a, _ in SUPPORTS])
def test_each_supports_attribute_is_a_feature(reg: tcfg.Registry, attr: str, feature: str) -> None:
    # The contract: the prefix dropped; names that would start with a digit read buffer_8bit, buffer_16bit.
    expected = {"8bit_buffer": "buffer_8bit", "16bit_buffer": "buffer_16bit"}.get(feature, feature)
    base = tcfg.Target("vulkan -supports_float32=false -supports_int32=false", registry=reg)
    assert base.features[expected] is False
    assert tcfg.Target(f"vulkan -{attr}=true", registry=reg).features[expected] is True


@pytest.mark.parametrize(
    ("api", "spirv"), [("1.0", "1.0"), ("1.1", "1.3"), ("1.2", "1.5"), ("1.3", "1.6"), ("1.4", "1.6")]
)
def test_spirv_version_follows_the_vulkan_version(reg: tcfg.Registry, api: str, spirv: str) -> None:
    t = tcfg.Target(f"vulkan -vulkan_api_version={MAKE_API[api] + 230}", registry=reg)  # a patch level is fine
    assert (t.features.vulkan_version, t.features.spirv_version) == (api, spirv)


def test_spirv_version_alone_implies_the_least_vulkan_version(reg: tcfg.Registry) -> None:
    assert tcfg.Target("vulkan -max_spirv_version=66816", registry=reg).features.vulkan_version == "1.2"
    t = tcfg.Target("vulkan -max_spirv_version=66560 -vulkan_api_version=4198400", registry=reg)  # 1.4 on Vulkan 1.1
    assert t.features.spirv_version == "1.4"
    assert tcfg.Target("vulkan", registry=reg).features.spirv_version == "1.0"  # TVM's default


def test_subgroup_bits_are_features(reg: tcfg.Registry) -> None:
    t = tcfg.Target("vulkan -vulkan_api_version=4198400 -supported_subgroup_operations=21", registry=reg)
    on = {k for k, v in t.features.items() if k.startswith("subgroup_") and v}
    assert on == {"subgroup_basic", "subgroup_arithmetic", "subgroup_shuffle"}
    assert "supported_subgroup_operations" in t.features.explain("subgroup_shuffle")


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("vulkan -vulkan_api_version=13", "known versions"),
        ("vulkan -vulkan_api_version=4215000", "version 1.5"),  # no Vulkan 1.5
        ("vulkan -vulkan_api_version=541065216", "variant 1"),  # a non-zero variant
        ("vulkan -max_spirv_version=66817", "not a SPIR-V version word"),
        ("vulkan -max_spirv_version=67328", "not a SPIR-V version word"),
        ("vulkan -max_spirv_version=66816 -vulkan_api_version=4198400", "at most SPIR-V 1.3"),
        ("vulkan -max_spirv_version=67072 -vulkan_api_version=4202496", "at most SPIR-V 1.5"),
        ("vulkan -supported_subgroup_operations=1", "need SPIR-V 1.3"),
        ("vulkan -vulkan_api_version=4198400 -supported_subgroup_operations=4096", "no VkSubgroupFeatureFlagBits"),
        ("vulkan -max_num_threads=512", "exceeds -max_threads_per_block=256"),
        ("vulkan -thread_warp_size=64 -min_subgroup_size=8 -max_subgroup_size=32", "outside the subgroup sizes"),
        ("vulkan -min_subgroup_size=64 -max_subgroup_size=32", "exceeds -max_subgroup_size"),
        ("vulkan -device_type=gpu", "integrated"),
        ("vulkan -supports_float17=true", "supports_float16"),
        ("vulkan -host=vulkan", "must be a CPU target"),
        ("opencl -compiler=clml", "no -device"),
        ("opencl -compiler=clml -device=mali", "-device=mali"),
        ("opencl -opencl_c_version=2.1", "2.0"),
        ("webgpu -host=opencl", "must be a CPU target"),
    ],
)
def test_bad_input_is_a_target_error_that_says_why(reg: tcfg.Registry, spec: str, needle: str) -> None:
    with pytest.raises(tcfg.TargetError) as info:
        tcfg.Target(spec, registry=reg)
    assert needle in str(info.value)


def test_clml_on_adreno(reg: tcfg.Registry) -> None:
    t = tcfg.Target("qcom/adreno-opencl-clml -compiler=clml", registry=reg)
    assert t.features.clml is True and "clml" in t.keys
    with pytest.raises(tcfg.TargetError, match="-compiler=clml"):
        tcfg.Target("opencl -compiler=clml -device=nvidia", registry=reg)
    with pytest.raises(tcfg.TargetError, match="clml"):
        tcfg.Target("vulkan -compiler=clml -device=adreno", registry=reg)  # registered for opencl only


def test_max_num_threads_follows_the_block_limit(reg: tcfg.Registry) -> None:
    assert tcfg.Target("vulkan -max_threads_per_block=128", registry=reg).attrs["max_num_threads"] == 128
    assert tcfg.Target("opencl -max_threads_per_block=1024", registry=reg).attrs["max_num_threads"] == 1024


def test_webgpu_subgroups(reg: tcfg.Registry) -> None:
    assert tcfg.Target("webgpu -supports_subgroups", registry=reg).features.subgroups is True
    assert tcfg.Target("webgpu", registry=reg).features.subgroups is False


def test_through_the_entry_point() -> None:
    loaded = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "gpuapi"})
    assert {"vulkan", "opencl", "webgpu"} <= set(loaded.list_kinds())


def test_webgpu_subgroups_are_32_wide_as_in_tvm(reg: tcfg.Registry) -> None:
    """TVM 0.27: ``supports_subgroups=true`` sets ``thread_warp_size`` to 32."""
    for spec in ("webgpu -supports_subgroups=true", "webgpu -supports_subgroups -thread_warp_size=32"):
        t = tcfg.Target(spec, registry=reg)
        assert t.attrs["thread_warp_size"] == 32
        assert t == tcfg.Target("webgpu -supports_subgroups", registry=reg)
        assert t.to_tvm()["thread_warp_size"] == 32
    assert tcfg.Target("webgpu", registry=reg).attrs["thread_warp_size"] == 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("webgpu -thread_warp_size=32", "needs -supports_subgroups=true"),
        ("webgpu -supports_subgroups=false -thread_warp_size=4", "needs -supports_subgroups=true"),
        ("webgpu -supports_subgroups -thread_warp_size=16", "32-wide subgroups"),
    ],
)
def test_webgpu_subgroup_sizes_tvm_refuses(reg: tcfg.Registry, spec: str, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        tcfg.Target(spec, registry=reg)
