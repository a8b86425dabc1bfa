"""The cuda kind: attributes, arch defaults, features, errors, round trips, entry point, speed."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable

import pytest

import tcfg
from tcfg_cuda.arch import arch_names


def test_generic_cuda_target_has_keys_and_no_arch_features(reg: tcfg.Registry) -> None:
    t = tcfg.Target("cuda", registry=reg)
    assert t.kind.device_type == "cuda"
    assert t.keys == ("cuda", "gpu")
    assert str(t) == "cuda"
    assert t.attrs["max_threads_per_block"] == 1024
    assert t.attrs["thread_warp_size"] == 32
    assert t.attrs["max_shared_memory_per_block"] == 49152
    assert "max_shared_memory_per_block_optin" not in t.attrs
    for feat in ("fp16", "tensor_cores", "wgmma", "tcgen05", "compute_capability"):
        assert t.features[feat] is False


def test_arch_fills_its_defaults(reg: tcfg.Registry) -> None:
    a100 = tcfg.Target("cuda -arch=sm_80", registry=reg)
    assert a100.attrs["max_shared_memory_per_block_optin"] == 163 * 1024
    assert a100.attrs["registers_per_block"] == 65536
    assert a100.attrs["max_shared_memory_per_block"] == 49152
    h100 = tcfg.Target("cuda -arch=sm_90a", registry=reg)
    assert h100.attrs["max_shared_memory_per_block_optin"] == 227 * 1024
    nano = tcfg.Target("cuda -arch=sm_53", registry=reg)
    assert nano.attrs["registers_per_block"] == 32768
    assert nano.attrs["max_shared_memory_per_block_optin"] == 48 * 1024
    rtx = tcfg.Target("cuda -arch=sm_86", registry=reg)
    assert rtx.attrs["max_shared_memory_per_block_optin"] == 99 * 1024


def test_user_values_win_over_arch_defaults(reg: tcfg.Registry) -> None:
    spec = "cuda -arch=sm_80 -max_shared_memory_per_block_optin=65536 -registers_per_block=32768"
    t = tcfg.Target(spec, registry=reg)
    assert t.attrs["max_shared_memory_per_block_optin"] == 65536
    assert t.attrs["registers_per_block"] == 32768


@pytest.mark.parametrize("arch", arch_names())
def test_every_arch_round_trips(reg: tcfg.Registry, arch: str) -> None:
    t = tcfg.Target(f"cuda -arch={arch}", registry=reg)
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t
    again = tcfg.Target(str(t), registry=reg)
    assert str(again) == str(t) and dict(again.features) == dict(t.features)


@pytest.mark.parametrize(
    ("arch", "present", "absent"),
    [
        ("sm_53", {"fp16"}, {"dp4a", "tensor_cores", "bf16"}),
        ("sm_61", {"fp16", "dp4a"}, {"tensor_cores"}),
        ("sm_70", {"tensor_cores"}, {"int8_tensor_cores", "bf16"}),
        ("sm_72", {"tensor_cores", "int8_tensor_cores"}, {"bf16", "cp_async"}),
        ("sm_80", {"bf16", "tf32", "cp_async", "int8_tensor_cores"}, {"fp8", "tma", "wgmma"}),
        ("sm_89", {"fp8"}, {"tma", "wgmma"}),
        ("sm_90", {"tma", "fp8"}, {"wgmma", "tcgen05"}),
        ("sm_90a", {"tma", "wgmma"}, {"tcgen05", "fp4"}),
        ("sm_100", {"tma", "fp8"}, {"wgmma", "tcgen05", "fp4"}),
        ("sm_100a", {"tcgen05", "fp4"}, {"wgmma"}),
        ("sm_100f", {"tcgen05", "fp4"}, {"wgmma"}),
        ("sm_103a", {"tcgen05", "fp4"}, {"wgmma"}),
        ("sm_110a", {"tcgen05", "fp4"}, {"wgmma"}),
        ("sm_120", {"tma", "fp8"}, {"tcgen05", "fp4", "wgmma"}),
        ("sm_120a", {"fp4"}, {"tcgen05", "wgmma"}),
    ],
)
def test_features_per_arch(reg: tcfg.Registry, arch: str, present: set[str], absent: set[str]) -> None:
    t = tcfg.Target(f"cuda -arch={arch}", registry=reg)
    for feat in present:
        assert t.features[feat] is True, feat
    for feat in absent:
        assert t.features[feat] is False, feat


def test_quantities_and_aliases(reg: tcfg.Registry) -> None:
    t = tcfg.Target("cuda -arch=sm_86", registry=reg)
    assert t.features.compute_capability == "8.6"
    assert t.features.tensor_core_generation == 3
    assert tcfg.Target("cuda -arch=sm_89", registry=reg).features.tensor_core_generation == 4
    assert tcfg.Target("cuda -arch=sm_120", registry=reg).features.tensor_core_generation == 5
    assert tcfg.Target("cuda -arch=sm_75", registry=reg).features.tensor_core_generation == 2
    assert t.features.have_tensorcore is True and t.features.have_fp16 is True
    assert "bf16" in t.features


def test_explain_says_why(reg: tcfg.Registry) -> None:
    t = tcfg.Target("cuda -arch=sm_90", registry=reg)
    assert "sm_90a" in t.features.explain("wgmma")
    assert "9.0" in t.features.explain("compute_capability")


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("cuda -arch=sm_8O", "did you mean"),
        ("cuda -arch=sm_91", "sm_90"),
        ("cuda -arch=sm_90f", "sm_90"),
        ("cuda -arch=compute_80", "-arch=sm_80"),
        ("cuda -arch=sm-80", "sm-80"),
        ("cuda -arch=sm_80 -max_shared_memory_per_block=200000", "max_shared_memory_per_block_optin"),
        ("cuda -max_num_threads=2048", "max_threads_per_block"),
        ("cuda -arch=sm_80 -max_threads_per_block=0", "max_threads_per_block"),
    ],
)
def test_bad_input_is_a_target_error(reg: tcfg.Registry, spec: str, needle: str) -> None:
    with pytest.raises(tcfg.TargetError) as info:
        tcfg.Target(spec, registry=reg)
    assert needle in str(info.value)


def test_host_and_libs_are_common_attributes(reg: tcfg.Registry) -> None:
    t = tcfg.Target("cuda -arch=sm_87 -libs=cublas,cudnn", host="llvm -mtriple=aarch64-linux-gnu", registry=reg)
    assert t.attrs["libs"] == ("cublas", "cudnn")
    assert t.host is not None and t.host.kind.name == "llvm"
    assert tcfg.Target(str(t), registry=reg) == t


def test_specialization(reg: tcfg.Registry) -> None:
    base = tcfg.Target("cuda -arch=sm_80", registry=reg)
    tagged = tcfg.Target("nvidia/a100", registry=reg)
    assert tagged.is_specialization_of(base)
    assert not base.is_specialization_of(tagged)


def test_loads_through_the_entry_point() -> None:
    registry = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "cuda"})
    assert "cuda" in registry.list_kinds()
    record = next(r for r in registry.plugins() if r.name == "cuda")
    assert record.status == "loaded", record.error
    t = tcfg.Target("nvidia/h100", registry=registry)
    assert t.features.wgmma is True


def test_import_loads_no_cuda_python_module_and_no_data() -> None:
    code = (
        "import sys, tcfg_cuda.plugin\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('nvidia', 'pynvml', 'cuda', 'cupy')]\n"
        "import tcfg_cuda.arch, tcfg_cuda.gpus\n"
        "assert not bad, bad\n"
        "assert tcfg_cuda.arch._table.cache_info().currsize == 0\n"
        "assert tcfg_cuda.gpus._data.cache_info().currsize == 0\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _best(run: Callable[[], object], runs: int = 500, batches: int = 7) -> float:
    """Seconds per call, the best of several batches (other processes share this machine)."""
    best = float("inf")
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(runs):
            run()
        best = min(best, (time.perf_counter() - start) / runs)
    return best


def test_building_a_target_is_fast(reg: tcfg.Registry) -> None:
    """The parser costs a few microseconds; a cuda target costs about what a core llvm target does."""
    from tcfg._engine_build import build
    from tcfg._model_kind import DeriveRequest
    from tcfg_cuda.kind import parse_cuda

    built = tcfg.Target("cuda -arch=sm_90a", registry=reg)
    request = DeriveRequest("cuda", dict(built.attrs), reg)
    assert _best(lambda: parse_cuda(request)) < 5e-6
    cuda = _best(lambda: build(reg, "cuda -arch=sm_90a -max_num_threads=512"))
    llvm = _best(lambda: build(reg, "llvm -mtriple=x86_64-linux-gnu -mcpu=znver4 -num-cores=4"))
    assert cuda < max(40e-6, 1.5 * llvm), f"{cuda * 1e6:.1f} us per uncached cuda target"
