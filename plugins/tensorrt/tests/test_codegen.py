"""The TensorRT codegen: trtexec lines for 10.x and 11.x, to_dict, and a builder config.

``tensorrt`` cannot be installed on these machines. The builder-config tests inject a
FAKE ``tensorrt`` module (a recorder, defined below) into ``sys.modules``: it checks
that the codegen makes the right API calls, not that TensorRT accepts them. When the
real package is importable, :func:`test_real_tensorrt_builder_config` runs against it.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

import tcfg
from tcfg_tensorrt.codegen import TensorRTCodegen

Build = Callable[[str], tcfg.Target]


def _codegen(build: Build, spec: str) -> TensorRTCodegen:
    gen = build(spec).codegen()
    assert isinstance(gen, TensorRTCodegen)
    return gen


def test_trtexec_10x_weak_typing_has_precision_flags(build: Build) -> None:
    gen = _codegen(
        build,
        "cuda -arch=sm_87 -compiler=tensorrt -trt_version=10.3 -trt_precisions=fp16,int8 -trt_dla_core=1 "
        "-trt_gpu_fallback -trt_optimization_level=5 -trt_workspace_bytes=1073741824 -trt_timing_cache=/tmp/orin.cache "
        "-trt_precision_constraints=prefer",
    )
    assert gen.trtexec_args() == [
        "--fp16",
        "--int8",
        "--precisionConstraints=prefer",
        "--builderOptimizationLevel=5",
        "--memPoolSize=workspace:1073741824B",
        "--useDLACore=1",
        "--allowGPUFallback",
        "--timingCacheFile=/tmp/orin.cache",
    ]
    assert gen.builder_flags() == ["FP16", "INT8", "PREFER_PRECISION_CONSTRAINTS", "GPU_FALLBACK"]
    assert gen.network_flags() == []


def test_trtexec_10x_strongly_typed(build: Build) -> None:
    gen = _codegen(build, "cuda -arch=sm_90 -compiler=tensorrt -trt_version=10.9 -trt_strongly_typed -trt_tf32=false")
    assert gen.trtexec_args() == ["--stronglyTyped", "--noTF32"]
    assert gen.network_flags() == ["STRONGLY_TYPED"]


def test_trtexec_11x_has_no_precision_or_typing_flags(build: Build) -> None:
    gen = _codegen(
        build,
        "cuda -arch=sm_100a -compiler=tensorrt -trt_version=11.3 -trt_sparsity -trt_version_compatible "
        "-trt_hardware_compatibility=ampere_plus",
    )
    args = gen.trtexec_args()
    assert args == ["--sparsity=enable", "--versionCompatible", "--hardwareCompatibilityLevel=ampere+"]
    removed = {"--fp16", "--int8", "--bf16", "--fp8", "--int4", "--best", "--stronglyTyped"}
    assert not removed & set(args)
    assert gen.network_flags() == [] and gen.strongly_typed
    assert gen.builder_flags() == ["SPARSE_WEIGHTS", "VERSION_COMPATIBLE"]


def test_same_compute_capability_spelling(build: Build) -> None:
    gen = _codegen(
        build,
        "cuda -arch=sm_89 -compiler=tensorrt -trt_version=10.8 -trt_hardware_compatibility=same_compute_capability",
    )
    assert gen.trtexec_args() == ["--hardwareCompatibilityLevel=sameComputeCapability"]


def test_to_dict_is_json_and_complete(build: Build) -> None:
    gen = _codegen(build, "cuda -arch=sm_87 -compiler=tensorrt -trt_version=11.4.1 -trt_dla_core=0")
    data = json.loads(json.dumps(gen.to_dict()))
    assert data["kind"] == "tensorrt"
    assert data["tensorrt_version"] == "11.4.1"
    assert data["compute_capability"] == "8.7"
    assert data["strongly_typed"] is True
    assert data["dla_core"] == 0
    assert data["trtexec"] == ["trtexec", "--useDLACore=0"]


def test_codegen_only_for_tensorrt_targets(build: Build) -> None:
    plain = build("cuda -arch=sm_80").codegen()
    assert not isinstance(plain, TensorRTCodegen)
    assert plain.to_dict()["arch"] == "sm_80"


def test_builder_config_without_tensorrt_says_what_to_install(build: Build, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tensorrt", None)  # makes `import tensorrt` raise ImportError
    gen = _codegen(build, "cuda -arch=sm_80 -compiler=tensorrt -trt_version=10.3")
    with pytest.raises(tcfg.TargetError, match=r"pip install 'tensorrt==10\.\*'"):
        gen.builder_config()


class _Enum:
    """FAKE enum namespace: attribute access returns the member's qualified name."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, member: str) -> str:
        return f"{self._name}.{member}"


class FakeBuilderConfig:
    """FAKE IBuilderConfig that records every call and assignment (not TensorRT)."""

    def __init__(self, calls: list[tuple[Any, ...]]) -> None:
        object.__setattr__(self, "calls", calls)

    def __setattr__(self, name: str, value: Any) -> None:
        self.calls.append(("set", name, value))

    def set_flag(self, flag: str) -> None:
        self.calls.append(("set_flag", flag))

    def clear_flag(self, flag: str) -> None:
        self.calls.append(("clear_flag", flag))

    def set_memory_pool_limit(self, pool: str, size: int) -> None:
        self.calls.append(("set_memory_pool_limit", pool, size))

    def create_timing_cache(self, blob: bytes) -> tuple[str, bytes]:
        self.calls.append(("create_timing_cache", blob))
        return ("cache", blob)

    def set_timing_cache(self, cache: Any, ignore_mismatch: bool) -> None:
        self.calls.append(("set_timing_cache", cache, ignore_mismatch))


def _fake_tensorrt(version: str, calls: list[tuple[Any, ...]]) -> ModuleType:
    """A FAKE ``tensorrt`` module exposing only what the codegen touches, recording calls."""
    fake = ModuleType("tensorrt")
    fake.__version__ = version  # type: ignore[attr-defined]
    for enum in ("BuilderFlag", "MemoryPoolType", "DeviceType", "HardwareCompatibilityLevel"):
        setattr(fake, enum, _Enum(enum))

    class Logger:
        WARNING = "Logger.WARNING"

        def __init__(self, severity: str) -> None:
            calls.append(("Logger", severity))

    class Builder:
        def __init__(self, logger: Logger) -> None:
            calls.append(("Builder",))

        def create_builder_config(self) -> FakeBuilderConfig:
            return FakeBuilderConfig(calls)

    fake.Logger = Logger  # type: ignore[attr-defined]
    fake.Builder = Builder  # type: ignore[attr-defined]
    return fake


@pytest.fixture()
def fake_trt(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], list[tuple[Any, ...]]]]:
    def install(version: str) -> list[tuple[Any, ...]]:
        calls: list[tuple[Any, ...]] = []
        monkeypatch.setitem(sys.modules, "tensorrt", _fake_tensorrt(version, calls))
        return calls

    yield install


def test_builder_config_10x_with_fake_tensorrt(
    build: Build, fake_trt: Callable[[str], list[tuple[Any, ...]]], tmp_path: Path
) -> None:
    cache = tmp_path / "timing.cache"
    cache.write_bytes(b"\x01\x02")
    calls = fake_trt("10.3.0.26")
    gen = _codegen(
        build,
        "cuda -arch=sm_87 -compiler=tensorrt -trt_version=10.3 -trt_precisions=fp16 -trt_dla_core=0 "
        f"-trt_gpu_fallback -trt_optimization_level=4 -trt_workspace_bytes=268435456 -trt_tf32=false "
        f"-trt_timing_cache={cache} -trt_hardware_compatibility=same_compute_capability",
    )
    gen.builder_config()
    assert calls == [
        ("Logger", "Logger.WARNING"),
        ("Builder",),
        ("set_flag", "BuilderFlag.FP16"),
        ("set_flag", "BuilderFlag.GPU_FALLBACK"),
        ("clear_flag", "BuilderFlag.TF32"),
        ("set", "builder_optimization_level", 4),
        ("set_memory_pool_limit", "MemoryPoolType.WORKSPACE", 268435456),
        ("set", "default_device_type", "DeviceType.DLA"),
        ("set", "DLA_core", 0),
        ("set", "hardware_compatibility_level", "HardwareCompatibilityLevel.SAME_COMPUTE_CAPABILITY"),
        ("create_timing_cache", b"\x01\x02"),
        ("set_timing_cache", ("cache", b"\x01\x02"), False),
    ]


def test_builder_config_11x_sets_no_precision_flags(
    build: Build, fake_trt: Callable[[str], list[tuple[Any, ...]]], tmp_path: Path
) -> None:
    calls = fake_trt("11.4.1.5")
    gen = _codegen(
        build,
        f"cuda -arch=sm_120 -compiler=tensorrt -trt_version=11.4.1 -trt_timing_cache={tmp_path / 'new.cache'}",
    )
    given = SimpleNamespace(create_builder_config=lambda: FakeBuilderConfig(calls))
    gen.builder_config(given)
    assert calls == [("create_timing_cache", b""), ("set_timing_cache", ("cache", b""), False)]


def test_builder_config_refuses_another_major(build: Build, fake_trt: Callable[[str], list[tuple[Any, ...]]]) -> None:
    fake_trt("10.7.0")
    gen = _codegen(build, "cuda -arch=sm_90 -compiler=tensorrt -trt_version=11.0")
    with pytest.raises(tcfg.TargetError, match=r"tensorrt 10\.7\.0 is installed"):
        gen.builder_config()


@pytest.mark.skipif(importlib.util.find_spec("tensorrt") is None, reason="the tensorrt package is not installed")
def test_real_tensorrt_builder_config(reg: tcfg.Registry) -> None:  # pragma: no cover - needs TensorRT
    import tensorrt as trt

    from tcfg_tensorrt.detect import installed_version

    version = installed_version()
    target = tcfg.Target(
        f"cuda -arch=sm_80 -compiler=tensorrt -trt_version={version} -trt_optimization_level=2", registry=reg
    )
    config = target.codegen().builder_config()  # type: ignore[attr-defined]
    assert config.builder_optimization_level == 2
    assert isinstance(config, trt.IBuilderConfig)
