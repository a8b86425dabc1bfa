"""TVM's ``test_target_target.py``: parsing, properties, tags, hosts, the ``canon_*`` helpers.

Left out, as TVM-only: the ``test`` kind (a kind TVM registers for its own tests), TVM's
``tvm.runtime`` objects (``String``, ``Map``, ``Device``; plain Python values stand for
them), and ``from_device`` on GPUs this machine lacks (checked where tcfg detects one).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import tcfg
from tcfg.compat.tvm import Target, arm_cpu, bifrost, cuda, intel_graphics, mali, rocm
from tcfg.compat.tvm.target import HostWithoutTargetError

from .facts import fact

#: TVM's ``Device._DEVICE_NAME_TO_TYPE`` for the kinds both have (dlpack.h's codes).
DEVICE_TYPES = {"llvm": 1, "c": 1, "cuda": 2, "nvptx": 2, "opencl": 4, "vulkan": 7, "metal": 8, "rocm": 10,
                "webgpu": 15, "hexagon": 16, "trn": 18}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(DEVICE_TYPES))
def test_all_targets_device_type_verify(kind: str) -> None:
    assert Target(kind).get_target_device_type() == DEVICE_TYPES[kind]
    assert Target(kind).kind.dlpack_device_type == DEVICE_TYPES[kind]


def test_every_kind_knows_its_dlpack_device_type() -> None:
    for name in Target.list_kinds():
        assert isinstance(tcfg.get_kind(name).dlpack_device_type, int), name


def test_target_string_parse() -> None:
    target = Target("cuda -model=unknown -libs=cublas,cudnn")
    assert target.kind.name == "cuda"
    assert target.model == "unknown"
    assert set(target.keys) == {"cuda", "gpu"}
    assert set(target.libs) == {"cublas", "cudnn"}
    assert str(target) == str(cuda(options="-libs=cublas,cudnn"))
    assert intel_graphics().device_name == "intel_graphics"
    assert mali().device_name == "mali"
    assert arm_cpu().device_name == "arm_cpu"


def test_target_string_with_spaces() -> None:
    target = Target("vulkan -device_name='Name of GPU with spaces' -device_type=discrete")
    for t in (target, Target(str(target))):
        assert t.attrs["device_name"] == "Name of GPU with spaces"
        assert t.attrs["device_type"] == "discrete"


def test_target_llvm_options() -> None:
    target = Target("llvm -cl-opt='-unroll-threshold:uint=100,-unroll-count:uint=3'")
    assert sorted(target.attrs["cl-opt"]) == sorted(["-unroll-threshold:uint=100", "-unroll-count:uint=3"])


@pytest.mark.parametrize("jit", ["mcjit", "orcjit"])
def test_target_llvm_jit_options(jit: str) -> None:
    assert Target(f"llvm -jit={jit}").attrs["jit"] == jit


@pytest.mark.parametrize(
    ("spec", "width"),
    [
        fact("llvm -vector-width=256", 256, differs="wider-than-cpu"),
        fact("llvm -vector-width=1024", 1024, differs="wider-than-cpu"),
        fact("llvm -mtriple=x86_64-linux-gnu -mcpu=sapphirerapids -vector-width=256", 256),
    ],
)
def test_target_llvm_vector_width(spec: str, width: int) -> None:
    assert Target(spec).attrs["vector-width"] == width


def test_target_create() -> None:
    for target in (cuda(), rocm(), mali(), intel_graphics(), arm_cpu("rk3399"), bifrost()):
        assert target is not None


CONFIG = {
    "kind": "llvm",
    "keys": ["arm_cpu", "cpu"],
    "device": "arm_cpu",
    "libs": ["cblas"],
    "mfloat-abi": "hard",
    "mattr": ["+neon", "-avx512f"],
}


def _check_config(target: Target) -> None:
    assert target.kind.name == "llvm"
    assert all(key in target.keys for key in ["arm_cpu", "cpu"])
    assert target.device_name == "arm_cpu"
    assert target.libs == ["cblas"]
    assert target.attrs["mfloat-abi"] == "hard"
    assert all(attr in target.attrs["mattr"] for attr in ["+neon", "-avx512f"])


@pytest.mark.parametrize(
    "config", [fact(CONFIG, differs="neon-on-x86"), fact(json.dumps(CONFIG), differs="neon-on-x86")]
)
def test_target_config(config: Any) -> None:
    _check_config(Target(config))


@pytest.mark.parametrize(
    "config",
    [
        fact({**CONFIG, "mtriple": "armv7a-linux-gnueabihf", "libs": ["cblas"], "mattr": ["+neon"]}, differs="cblas"),
    ],
)
def test_target_config_on_arm(config: Any) -> None:
    """The same config with an Arm triple, so that ``+neon`` is a feature of the target."""
    _check_config(Target(config))


def test_target_config_as_tcfg_reads_it() -> None:
    """The config with what tcfg keeps: an Arm triple, a library a plugin registers, Arm's features."""
    config = {**CONFIG, "mtriple": "armv7a-linux-gnueabihf", "libs": ["openblas"], "mattr": ["+neon", "-vfp4"]}
    target = Target(config)
    assert target.keys[:2] == ["arm_cpu", "cpu"] and target.device_name == "arm_cpu"
    assert target.libs == ["openblas"] and target.attrs["mfloat-abi"] == "hard"
    assert target.mattr == ["+neon", "-vfp4"]
    assert Target(json.dumps(config)) == target


def test_config_map() -> None:
    with pytest.raises(ValueError):
        Target({"kind": "llvm", "libs": {"a": "b", "c": "d"}})


def test_composite_target() -> None:
    target = Target("composite --host=llvm --devices=cuda,opencl")
    assert target.kind.name == "composite"
    assert target.host is not None and target.host.kind.name == "llvm"
    assert len(target.attrs["devices"]) == 2
    cuda_device, opencl_device = target.attrs["devices"]
    assert cuda_device.kind.name == "cuda"
    assert opencl_device.kind.name == "opencl"


def _is_cuda_tag(target: Target | None, arch: str, registers: int) -> None:
    """TVM's facts of its RTX 2080 Ti and Jetson Nano tags: the arch, the limits, the register file."""
    assert target is not None and target.kind.name == "cuda"
    assert target.attrs["arch"] == arch
    assert target.attrs["max_shared_memory_per_block"] == 49152
    assert target.attrs["max_threads_per_block"] == 1024
    assert target.attrs["thread_warp_size"] == 32
    assert target.attrs["registers_per_block"] == registers


def _is_rtx_2080_ti(target: Target | None) -> None:
    _is_cuda_tag(target, "sm_75", 65536)


def _is_jetson_nano(target: Target | None) -> None:
    _is_cuda_tag(target, "sm_53", 32768)


def test_target_tag_0() -> None:
    _is_rtx_2080_ti(Target("nvidia/geforce-rtx-2080-ti"))


def test_target_tag_1() -> None:
    _is_jetson_nano(Target("nvidia/jetson-nano"))


def test_list_kinds() -> None:
    kinds = Target.list_kinds()
    assert kinds and "llvm" in kinds and all(isinstance(k, str) for k in kinds)


@pytest.mark.parametrize(
    "build",
    [
        fact(lambda: Target("nvidia/jetson-nano", "nvidia/geforce-rtx-2080-ti"), differs="cpu-host", id="tag-host"),
        fact(lambda: Target("cuda --host nvidia/jetson-nano"), differs="cpu-host", id="string-tag-host"),
        fact(lambda: Target(Target("cuda --host nvidia/jetson-nano"), None), differs="cpu-host", id="merge-0"),
        fact(lambda: Target({"kind": "llvm", "host": "nvidia/jetson-nano"}), id="dict-host"),
        fact(lambda: Target("cuda").with_host(Target("nvidia/jetson-nano")), differs="cpu-host", id="with-host"),
    ],
)
def test_a_gpu_host(build: Any) -> None:
    """TVM's tests that give a GPU (a Jetson Nano's CUDA device) as a host."""
    host = build().host
    _is_jetson_nano(host if host.kind.name == "cuda" else None)


def test_target_host_tag_dict() -> None:
    target = Target("nvidia/jetson-nano", {"kind": "llvm"})
    _is_jetson_nano(target)
    assert target.host is not None and target.host.kind.name == "llvm"


@pytest.mark.parametrize(
    "build",
    [
        lambda: Target("cuda --host llvm"),
        lambda: Target(Target("cuda --host llvm"), Target("cuda --host llvm").host),
        lambda: Target(Target("cuda --host llvm"), Target("llvm")),
        lambda: Target(target="cuda --host llvm"),
        lambda: Target(target="cuda", host="llvm"),
        lambda: Target("cuda").with_host(Target("llvm")),
    ],
    ids=["string", "merge-1", "merge-2", "keyword", "keywords", "with-host"],
)
def test_target_host_cuda_llvm(build: Any) -> None:
    target = build()
    assert target.kind.name == "cuda"
    assert target.host.kind.name == "llvm"


def test_a_host_that_is_not_a_target_is_refused() -> None:
    with pytest.raises(ValueError, match="target host"):
        Target(Target("cuda --host llvm"), 12.34)


def test_canon_target_and_host() -> None:
    assert Target.canon_target_and_host(None, None) == (None, None)
    with pytest.raises(AssertionError, match=r"Target host is not empty when target is empty"):
        Target.canon_target_and_host(None, "llvm")
    with pytest.raises(HostWithoutTargetError):
        Target.canon_target_and_host(None, "llvm")
    target, host = Target.canon_target_and_host(Target("cuda"), Target("llvm"))
    assert target is not None and target.kind.name == "cuda" and target.host.kind.name == "llvm"  # type: ignore[union-attr]
    target, host = Target.canon_target_and_host(Target(target="cuda", host="llvm"), None)
    assert target is not None and host is not None
    assert target.kind.name == "cuda" and target.host.kind.name == "llvm" and host.kind.name == "llvm"  # type: ignore[union-attr]
    assert target.host == host


def test_canon_multi_target_and_host() -> None:
    with pytest.raises(AssertionError):
        Target.canon_multi_target_and_host(None)
    for given, kinds in (
        ({"kind": "llvm"}, ["llvm"]),
        ({1: "llvm", 2: "cuda"}, ["llvm", "cuda"]),
        (["llvm", "cuda"], ["llvm", "cuda"]),
        ("llvm", ["llvm"]),
    ):
        assert [t.kind.name for t in Target.canon_multi_target_and_host(given)] == kinds
    (only,) = Target.canon_multi_target_and_host("cuda", "llvm")
    assert only.kind.name == "cuda" and only.host.kind.name == "llvm"  # type: ignore[union-attr]
    cuda_type = Target("cuda").get_target_device_type()
    for given, host in (
        ({cuda_type: Target(target="cuda", host="llvm")}, None),
        ({cuda_type: Target("cuda")}, Target("llvm")),
    ):
        (only,) = Target.canon_multi_target_and_host(given, host)
        assert only.kind.name == "cuda" and only.host.kind.name == "llvm"  # type: ignore[union-attr]


def test_canon_target_map_and_host() -> None:
    target_map, host = Target.canon_target_map_and_host({"cuda": "cuda_module", "llvm": "cpu_module"}, "llvm")
    assert host is not None and host.kind.name == "llvm"
    assert {t.kind.name: v for t, v in target_map.items()} == {"cuda": "cuda_module", "llvm": "cpu_module"}
    assert all(t.host is not None and t.host.kind.name == "llvm" for t in target_map)


@pytest.mark.parametrize(("word", "value"), [("True", 1), ("true", 1), ("False", 0), ("false", 0)])
def test_target_attr_bool_value(word: str, value: int) -> None:
    assert Target(f"vulkan --supports_float16={word}").attrs["supports_float16"] == value


@pytest.mark.parametrize(("tag", "size"), [("nvidia/nvidia-a100", 41943040), ("nvidia/geforce-rtx-4090", 75497472)])
def test_target_attr_l2_cache_size_bytes(tag: str, size: int) -> None:
    assert Target(tag).l2_cache_size_bytes == size


def test_target_features() -> None:
    """A target always has its features object (TVM's ``is_test`` kind is TVM's own)."""
    assert Target("cuda").features
    assert not Target("cuda").features.has_dsp


def test_current() -> None:
    assert Target.current() is None
    with pytest.raises(tcfg.TargetError, match="no target is set"):
        Target.current(allow_none=False)
    with Target("cuda -arch=sm_80") as target:
        assert Target.current(False) == target
    assert Target.current() is None


def test_from_device_cpu() -> None:
    """``from_device`` for the CPU is this machine's ``llvm`` with LLVM's name of its CPU (TVM's
    ``_detect_cpu``); a GPU this machine lacks is a clear error."""
    assert Target.from_device("cpu") == Target("llvm -mcpu=native")
    assert Target.from_device("llvm").mcpu == Target("llvm -mcpu=native").mcpu
    codes = {t.kind.dlpack_device_type for t in tcfg.Registry().detect()}
    if 2 not in codes:
        with pytest.raises(tcfg.TargetError, match="no cuda device 0"):
            Target.from_device("cuda")
    else:
        assert Target.from_device("cuda").kind.name == "cuda"
