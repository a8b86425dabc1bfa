"""The cuda plugin's BYOC compilers, -libs libraries, the cuda-graph runtime and TVM's -mcpu alias."""

from __future__ import annotations

import pytest

import tcfg
from tcfg.plugin import package_json
from tcfg_cuda import arch_info
from tcfg_cuda.facts import arch_names


def roundtrip(t: tcfg.Target) -> None:
    for form in (str(t), t.export(), t.to_json()):
        assert tcfg.Target(form, registry=t.registry) == t


@pytest.mark.parametrize("arch", arch_names())
def test_cutlass_is_valid_exactly_where_the_arch_has_tensor_cores(reg: tcfg.Registry, arch: str) -> None:
    """Swept over every arch of the table: the cuda kind's own tensor_cores feature is the independent fact."""
    plain = tcfg.Target(f"cuda -arch={arch}", registry=reg)
    spec = f"cuda -arch={arch} -compiler=cutlass"
    if plain.features.tensor_cores:
        t = tcfg.Target(spec, registry=reg)
        assert t.is_specialization_of(plain) and t.keys[0] == "cutlass"
        roundtrip(t)
    else:
        with pytest.raises(tcfg.AttributeValueError, match=r"compute capability 7\.0 or newer"):
            tcfg.Target(spec, registry=reg)


def test_cutlass_on_sm_60_says_why_and_where(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.AttributeValueError) as info:
        tcfg.Target("cuda -arch=sm_60 -compiler=cutlass", registry=reg)
    message = str(info.value)
    assert "compute capability 6.0" in message and "tensor cores" in message and "7.0 or newer" in message


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cuda -arch=sm_86 -compiler=cutlass -cutlass_arch=90", "kernels for sm_90 do not run on -arch=sm_86"),
        ("cuda -arch=sm_80 -compiler=cutlass -cutlass_arch=75", "kernels for sm_75 do not run on -arch=sm_80"),
        ("cuda -arch=sm_80 -compiler=cutlass -cutlass_arch=81", "no CUDA arch sm_81"),
        ("cuda -arch=sm_100 -compiler=cutlass -cutlass_version=3.5", "from version 3.8 on"),
        ("cuda -arch=sm_90a -compiler=cutlass -cutlass_version=2.11", "from version 3.0 on"),
        ("cuda -compiler=cutlass", "give -arch"),
        ("cuda -compiler=cudnn", "give -arch"),
        ("cuda -arch=sm_80 -compiler=cutlas", "did you mean 'cutlass'"),
        ("cuda -arch=sm_80 -cutlass_arch=80", "add -compiler=cutlass"),
    ],
)
def test_cutlass_options_are_checked(reg: tcfg.Registry, spec: str, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        tcfg.Target(spec, registry=reg)


def test_cutlass_takes_tvms_options(reg: tcfg.Registry) -> None:
    t = tcfg.Target(
        "cuda -arch=sm_86 -compiler=cutlass -cutlass_arch=80 -cutlass_use_3xtf32=0 -cutlass_threads=8", registry=reg
    )
    assert t.attrs["cutlass_arch"] == 80 and t.attrs["cutlass_use_3xtf32"] is False
    assert t.attrs["cutlass_version"] == package_json("tcfg_cuda", "data/byoc.json")["cutlass_default_version"]
    roundtrip(t)


@pytest.mark.parametrize("compiler", ["cublas", "cudnn"])
def test_library_compilers_on_every_arch(reg: tcfg.Registry, compiler: str) -> None:
    """Compute capability 5.0 or newer, where CUDA 12's cuBLAS and cuDNN 9 run: Fermi and Kepler are refused."""
    for arch in arch_names():
        spec = f"cuda -arch={arch} -compiler={compiler}"
        if (arch_info(arch).major, arch_info(arch).minor) >= (5, 0):
            assert tcfg.Target(spec, registry=reg).keys[0] == compiler
        else:
            with pytest.raises(tcfg.TargetError, match=r"compute capability 5\.0 or newer"):
                tcfg.Target(spec, registry=reg)


def test_several_byoc_targets_of_one_device_type(reg: tcfg.Registry) -> None:
    """CompilationConfig picks the base target when BYOC specialisations of it sit next to it."""
    base = "cuda -arch=sm_80"
    cfg = tcfg.CompilationConfig(
        [f"{base} -compiler=cutlass", base, f"{base} -compiler=cudnn", "llvm -mtriple=x86_64-linux-gnu"], registry=reg
    )
    chosen = cfg.target_for("cuda")
    assert chosen.without_host() == tcfg.Target(base, registry=reg)
    assert all(t.is_specialization_of(chosen) for t in cfg.targets if t.kind.name == "cuda")


def test_libs_are_checked_with_did_you_mean_and_the_valid_list(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.AttributeValueError) as info:
        tcfg.Target("cuda -arch=sm_80 -libs=cudnnx", registry=reg)
    message = str(info.value)
    assert "did you mean 'cudnn'" in message
    assert "valid for this target: cublas, cublaslt, cudnn, cutlass, thrust" in message
    t = tcfg.Target("cuda -arch=sm_80 -libs=cudnn,cublas,thrust", registry=reg)
    assert t.attrs["libs"] == ("cudnn", "cublas", "thrust")
    roundtrip(t)
    assert tcfg.Target("cuda -libs=cutlass", registry=reg).attrs["libs"] == ("cutlass",)  # no arch: nothing refuses


def test_libs_follow_the_gpu(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.AttributeValueError, match=r"-libs=cutlass: -arch=sm_61 is compute capability 6\.1"):
        tcfg.Target("cuda -arch=sm_61 -libs=cublas,cutlass", registry=reg)


def test_mcpu_is_tvms_name_of_arch(reg: tcfg.Registry) -> None:
    canonical = tcfg.Target("cuda -arch=sm_80", registry=reg)
    for spec in ("cuda -mcpu=sm_80", {"kind": "cuda", "mcpu": "sm_80"}, '{"kind": "cuda", "mcpu": "sm_80"}'):
        t = tcfg.Target(spec, registry=reg)
        assert t == canonical and str(t) == "cuda -arch=sm_80" and "mcpu" not in t.export()
    assert tcfg.Target("cuda -arch=sm_80 -mcpu=sm_80", registry=reg) == canonical
    with pytest.raises(tcfg.AttributeValueError, match="-arch and -mcpu name the same attribute"):
        tcfg.Target({"kind": "cuda", "arch": "sm_80", "mcpu": "sm_75"}, registry=reg)
    assert "mcpu" not in reg.get_kind("cuda").table


def test_cuda_graph_runtime_needs_a_cuda_device(reg: tcfg.Registry) -> None:
    host = "llvm -mtriple=x86_64-linux-gnu"
    t = tcfg.Target(
        {"kind": "composite", "host": host, "runtime": "cuda-graph", "devices": ["cuda -arch=sm_80"]}, registry=reg
    )
    assert t.attrs["runtime"].name == "cuda-graph"
    roundtrip(t)
    with pytest.raises(tcfg.AttributeValueError, match="needs a CUDA target among the composite's -devices"):
        tcfg.Target({"kind": "composite", "host": host, "runtime": "cuda-graph", "devices": [host]}, registry=reg)
    assert "cuda-graph" in reg.components("runtime")


def test_the_data_cites_its_sources() -> None:
    data = package_json("tcfg_cuda", "data/byoc.json")
    assert data["source"] and data["date"]
    for fact in [*data["min_compute_capability"].values(), *data["cutlass_first_release"].values()]:
        assert fact["source"] in data["sources"]
    for source in data["sources"].values():
        assert source["url"].startswith("https://") and source["date"]
