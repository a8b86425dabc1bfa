"""The rocm kind: target IDs, features, limits, errors, round trips, composites, entry point, speed."""

from __future__ import annotations

import subprocess
import sys

import pytest

import tcfg
import tcfg_rocm.plugin
from tcfg.testing import registry_with
from tcfg_rocm.facts import processor, processor_names

from .conftest import variants


def test_generic_rocm_target(reg: tcfg.Registry) -> None:
    t = tcfg.Target("rocm", registry=reg)
    assert t.kind.device_type == "rocm"
    assert t.keys == ("rocm", "gpu")
    assert str(t) == "rocm"
    assert t.attrs["mtriple"] == "amdgcn-amd-amdhsa"
    assert t.attrs["max_threads_per_block"] == 256 and t.attrs["max_num_threads"] == 256
    assert t.features.wavefront_size is False and t.features.gfx90a_insts is False
    with pytest.raises(tcfg.TargetError, match="without -mcpu is generic"):
        t.codegen()


#: The rocm kind's own attributes in Apache TVM 0.27 (src/target/target_kind.cc).
TVM_ROCM_ATTRS = (
    "mcpu",
    "mtriple",
    "mattr",
    "max_num_threads",
    "max_threads_per_block",
    "max_shared_memory_per_block",
    "thread_warp_size",
)


def test_tvm_attribute_names(reg: tcfg.Registry) -> None:
    assert set(TVM_ROCM_ATTRS) <= set(reg.get_kind("rocm").table)


@pytest.mark.parametrize(
    ("spec", "mcpu", "xnack", "sramecc"),
    [
        ("rocm -mcpu=gfx90a", "gfx90a", "any", "any"),
        ("rocm -mcpu=gfx90a:xnack+", "gfx90a:xnack+", "on", "any"),
        ("rocm -mcpu=gfx942:xnack-:sramecc+", "gfx942:sramecc+:xnack-", "off", "on"),
        ("rocm -mcpu=gfx900:xnack-", "gfx900:xnack-", "off", False),
        ("rocm -mcpu=gfx1100", "gfx1100", False, False),
    ],
)
def test_target_ids(reg: tcfg.Registry, spec: str, mcpu: str, xnack: object, sramecc: object) -> None:
    t = tcfg.Target(spec, registry=reg)
    assert t.attrs["mcpu"] == mcpu
    assert t.features.xnack_setting == xnack and t.features.sramecc_setting == sramecc
    assert t.features.xnack is (xnack == "on") and t.features.sramecc is (sramecc == "on")


def test_wavefront_and_lds(reg: tcfg.Registry) -> None:
    cdna = tcfg.Target("rocm -mcpu=gfx90a", registry=reg)
    assert cdna.features.wavefront_size == 64 and cdna.attrs["thread_warp_size"] == 64
    rdna = tcfg.Target("rocm -mcpu=gfx1100", registry=reg)
    assert rdna.features.wavefront_size == 32 and rdna.attrs["thread_warp_size"] == 32
    wave64 = tcfg.Target("rocm -mcpu=gfx1100 -mattr=+wavefrontsize64", registry=reg)
    assert wave64.features.wavefront_size == 64 and wave64.features.wavefrontsize32 is False
    assert tcfg.Target("rocm -mcpu=gfx1100 -mattr=+wavefrontsize64 -thread_warp_size=64", registry=reg) == wave64
    assert tcfg.Target("rocm -mcpu=gfx950", registry=reg).features.lds_size == 160 * 1024
    assert tcfg.Target("rocm -mcpu=gfx950", registry=reg).attrs["max_shared_memory_per_block"] == 160 * 1024
    assert tcfg.Target("rocm -mcpu=gfx90a", registry=reg).features.lds_size == 64 * 1024
    assert (
        tcfg.Target("rocm -mcpu=gfx90a -max_shared_memory_per_block=32768", registry=reg).attrs[
            "max_shared_memory_per_block"
        ]
        == 32768
    )


def test_declared_features_read_false_and_spellings(reg: tcfg.Registry) -> None:
    t = tcfg.Target("rocm -mcpu=gfx90a", registry=reg)
    assert t.features["gfx90a-insts"] is True and t.features.mai_insts is True
    assert t.features.gfx11_insts is False and t.features["16-bit-insts"] is True
    assert "gfx11_insts" not in t.features and "dot10-insts" in t.features
    with pytest.raises(AttributeError, match="mai_insts"):
        _ = t.features.mai_inst
    assert "-mcpu=gfx90a" in t.features.explain("mai_insts")


def test_legacy_names_resolve(reg: tcfg.Registry) -> None:
    assert str(tcfg.Target("rocm -mcpu=fiji", registry=reg)) == "rocm -mcpu=gfx803"


def test_tvm_triple_is_read(reg: tcfg.Registry) -> None:
    t = tcfg.Target({"kind": "rocm", "mcpu": "gfx90a", "mtriple": "amdgcn-amd-amdhsa-hcc"}, registry=reg)
    assert t == tcfg.Target("rocm -mcpu=gfx90a", registry=reg)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("rocm -mcpu=gfx9999", r"unknown AMDGPU processor; did you mean 'gfx909'"),
        ("rocm -mcpu=gfx1100:xnack+", r"supports no target-ID features"),
        ("rocm -mcpu=gfx900:sramecc+", r"gfx900, which supports xnack\+/xnack-"),
        ("rocm -mcpu=gfx90a:xnack", r"supports sramecc\+/sramecc- and xnack\+/xnack-"),
        ("rocm -mcpu=gfx90a:xnack+:xnack-", r"given twice"),
        ("rocm -mcpu=gfx90a -mattr=+xnack", r"part of the target ID \(-mcpu=gfx90a:xnack\+\)"),
        ("rocm -mcpu=gfx90a -mattr=+wavefrontsize32", r"wavefronts of 64 threads"),
        ("rocm -mcpu=gfx1250 -mattr=+wavefrontsize64", r"wavefronts of 32 threads"),
        ("rocm -mcpu=gfx90a -mattr=+dot1insts", r"did you mean 'dot1-insts'"),
        ("rocm -mcpu=gfx90a -mattr=+dpp,+dpp", r"given twice"),
        ("rocm -mcpu=gfx1100 -thread_warp_size=64", r"wavefront size on gfx1100 is 32"),
        ("rocm -mcpu=gfx90a -max_shared_memory_per_block=65537", r"65536 bytes"),
        ("rocm -mcpu=gfx90a -max_num_threads=512", r"exceeds -max_threads_per_block=256"),
        ("rocm -mtriple=x86_64-linux-gnu", r"triple is amdgcn-amd-amdhsa"),
        ("rocm -mattr=+dpp", r"needs -mcpu"),
        ("rocm -mcpu=gfx90a -host='rocm -mcpu=gfx90a'", r"must be a CPU target"),
    ],
)
def test_bad_input_is_a_target_error(reg: tcfg.Registry, spec: str, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        tcfg.Target(spec, registry=reg)


@pytest.mark.parametrize("spec", variants())
def test_every_variant_round_trips(reg: tcfg.Registry, spec: str) -> None:
    t = tcfg.Target(spec, registry=reg)
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t
    assert dict(tcfg.Target(str(t), registry=reg).features) == dict(t.features)


def test_every_processor_is_a_variant() -> None:
    assert {v.split()[1].removeprefix("-mcpu=").split(":")[0] for v in variants()} == set(processor_names())


def test_composite_and_compilation_config(reg: tcfg.Registry) -> None:
    spec = {"kind": "composite", "host": "llvm -mtriple=x86_64-linux-gnu", "devices": ["rocm -mcpu=gfx90a"]}
    t = tcfg.Target(spec, registry=reg)
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t
    config = tcfg.CompilationConfig(t, registry=reg)
    device = config.target_for("rocm")
    assert device.attrs["mcpu"] == "gfx90a" and device.features.wavefront_size == 64
    assert str(device.host) == "llvm -mtriple=x86_64-linux-gnu"
    assert tcfg.CompilationConfig(config.to_target(), registry=reg) == config


def test_entry_point_loads_the_plugin() -> None:
    code = (
        "import tcfg; reg = tcfg.Registry(environ={'TCFG_LOAD_PLUGINS': 'rocm'});"
        "t = tcfg.Target('amd/mi300x', registry=reg); print(t.attrs['mcpu'], t.features.wavefront_size)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["gfx942", "64"]


def test_importing_the_plugin_reads_no_table() -> None:
    code = (
        "import sys, tcfg_rocm.plugin; import tcfg_rocm.facts as p;"
        "print(p._raw.cache_info().currsize, 'tcfg_rocm.tags' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "False"]


def test_processor_rows_are_consistent() -> None:
    for name in processor_names():
        row = processor(name)
        assert row.default_wavefront_size in row.wavefront_sizes
        assert (row.generic) == name.endswith("-generic")


def _best_per_call(build: object, runs: int = 2000, repeat: int = 5) -> float:
    import itertools
    import timeit

    count = itertools.count()
    return min(timeit.repeat(lambda: build(next(count)), number=runs, repeat=repeat)) / runs  # type: ignore[operator]


def test_building_a_target_costs_what_a_cuda_target_costs(reg: tcfg.Registry) -> None:
    """A new rocm string (a distinct -model each call, so no cache hits) costs about what a cuda one does."""
    cuda_plugin = pytest.importorskip("tcfg_cuda.plugin")
    both = registry_with(tcfg_rocm.plugin, cuda_plugin)
    rocm = _best_per_call(lambda i: tcfg.Target(f"rocm -mcpu=gfx90a -model=m{i}", registry=both))
    cuda = _best_per_call(lambda i: tcfg.Target(f"cuda -arch=sm_80 -model=m{i}", registry=both))
    assert rocm < max(40e-6, 1.5 * cuda), f"rocm {rocm * 1e6:.1f} us, cuda {cuda * 1e6:.1f} us per new target"
