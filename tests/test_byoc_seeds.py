"""The design discussions' examples (shared/seeds) with the real cuda, tensorrt and x86 plugins.

Each is written as the seeds write it, in tcfg's dict form. Adapted where the seeds'
syntax is not tcfg's: ``library: tensor-rt`` is the CUDA device's ``-compiler=tensorrt``
(TensorRT is a BYOC compiler in tcfg, not a -libs library), the top level's
``runtime: vm`` is ``executor: vm`` (vm is TVM's executor), and ``arm``/``x86``/``vulkan``
hosts are written as targets (``llvm -mtriple=...``), and the vulkan device as a Vulkan 1.3
target with fp16.
"""

from __future__ import annotations

from typing import Any

import pytest

import tcfg

cuda_plugin = pytest.importorskip("tcfg_cuda.plugin")
tensorrt_plugin = pytest.importorskip("tcfg_tensorrt.plugin")
x86_plugin = pytest.importorskip("tcfg_x86.plugin")

X86 = "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake"
ARM = "llvm -mtriple=aarch64-linux-gnu"
CUDA = "cuda -arch=sm_80"


@pytest.fixture(scope="module")
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[cuda_plugin, tensorrt_plugin, x86_plugin], autoload=False)


def roundtrip(t: tcfg.Target) -> None:
    for form in (str(t), t.export(), t.to_json()):
        assert tcfg.Target(form, registry=t.registry) == t


def roundtrip_config(cfg: tcfg.CompilationConfig) -> None:
    assert tcfg.CompilationConfig(cfg.to_target(), registry=cfg.registry) == cfg
    assert tcfg.CompilationConfig(cfg.export(), registry=cfg.registry) == cfg
    assert tcfg.CompilationConfig(str(cfg.to_target()), registry=cfg.registry) == cfg


#: - host: x86
#: - vdevice0: byoc-myawesome-cuda
#:     - host: x86
#:     - runtime: cuda-graph
#:     - vdevice0: cuda
#:     - library: tensor-rt
#: - vdevice1: cuda
#: - runtime: vm
BYOC_MYAWESOME_CUDA: dict[str, Any] = {
    "kind": "composite",
    "host": X86,
    "devices": [
        {
            "kind": "composite",
            "host": X86,
            "runtime": "cuda-graph",
            "devices": [f"{CUDA} -compiler=tensorrt"],
        },
        CUDA,
    ],
    "executor": "vm",
}

#: - machine0:
#:    - host: x86
#:    - vdevice0: cuda
#: - machine1:
#:    - host: arm
#:    - vdevice0: vulkan
VULKAN = "vulkan -vulkan_api_version=4206592 -supports_float16=true"  # Vulkan 1.3
TWO_MACHINES: dict[str, Any] = {
    "kind": "composite",
    "devices": [
        {"kind": "composite", "host": X86, "devices": [CUDA]},
        {"kind": "composite", "host": ARM, "devices": [VULKAN]},
    ],
}


def test_byoc_myawesome_cuda(reg: tcfg.Registry) -> None:
    system = tcfg.Target(BYOC_MYAWESOME_CUDA, registry=reg)
    roundtrip(system)
    inner, plain = system.attrs["devices"]
    assert inner.attrs["runtime"].name == "cuda-graph" and inner.host == tcfg.Target(X86, registry=reg)
    trt = inner.attrs["devices"][0]
    assert trt.attrs["compiler"] == "tensorrt" and trt.is_specialization_of(tcfg.Target(CUDA, registry=reg))
    cfg = tcfg.CompilationConfig(system, registry=reg)
    assert cfg.executor is not None and cfg.executor.name == "vm"
    assert cfg.target_for("cuda") == plain.with_host(X86) and cfg.target_for("composite") == inner
    roundtrip_config(cfg)


def test_byoc_myawesome_cuda_without_its_cuda_device_is_refused(reg: tcfg.Registry) -> None:
    broken = {
        **BYOC_MYAWESOME_CUDA,
        "devices": [{"kind": "composite", "host": X86, "runtime": "cuda-graph", "devices": [X86]}],
    }
    with pytest.raises(tcfg.AttributeValueError, match=r"-runtime=cuda-graph: CUDA graphs .* needs a CUDA target"):
        tcfg.Target(broken, registry=reg)


def test_two_machines() -> None:
    """x86 + cuda on one machine, Arm + vulkan on the other (needs the gpuapi plugin too)."""
    gpuapi_plugin = pytest.importorskip("tcfg_gpuapi.plugin")
    reg = tcfg.Registry(plugins=[cuda_plugin, x86_plugin, gpuapi_plugin], autoload=False)
    system = tcfg.Target(TWO_MACHINES, registry=reg)
    roundtrip(system)
    cfg = tcfg.CompilationConfig(system, registry=reg)
    assert cfg.host is None and [t.host for t in cfg.targets] == [
        tcfg.Target(X86, registry=reg),
        tcfg.Target(ARM, registry=reg),
    ]
    machine1 = cfg.targets[1]
    assert machine1.attrs["devices"][0].features.float16 and machine1.attrs["devices"][0].keys == ("vulkan", "gpu")
    roundtrip_config(cfg)


def test_cuda_base_with_tensorrt_and_cutlass(reg: tcfg.Registry) -> None:
    """Collage's bag of targets: the least-specialised CUDA target is the one the others specialise."""
    targets = [f"{CUDA} -compiler=tensorrt", CUDA, f"{CUDA} -compiler=cutlass -cutlass_arch=80", X86]
    cfg = tcfg.CompilationConfig(targets, registry=reg)
    base = cfg.target_for("cuda")
    assert base == tcfg.Target(CUDA, host=X86, registry=reg)
    byoc = [t for t in cfg.targets if t.kind.name == "cuda" and t != base]
    assert {t.attrs["compiler"] for t in byoc} == {"tensorrt", "cutlass"}
    assert all(t.is_specialization_of(base) and not base.is_specialization_of(t) for t in byoc)
    roundtrip_config(cfg)
    without_base = tcfg.CompilationConfig(targets[:1] + targets[2:], registry=reg)
    with pytest.raises(tcfg.TargetError, match="ambiguous"):
        without_base.target_for("cuda")


def test_dnnl_next_to_the_x86_host(reg: tcfg.Registry) -> None:
    cfg = tcfg.CompilationConfig([X86, f"{X86} -compiler=dnnl -libs=mkl"], host=X86, registry=reg)
    assert cfg.target_for("cpu") == tcfg.Target(X86, registry=reg)
    roundtrip_config(cfg)
