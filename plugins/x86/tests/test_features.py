"""CPU feature sets, -mattr semantics, quantities, keys and errors."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

import tcfg
from tcfg_x86.facts import tables
from tcfg_x86.resolve import resolve

T64 = "llvm -mtriple=x86_64-linux-gnu"


@pytest.mark.parametrize(
    ("cpu", "present", "absent"),
    [
        ("haswell", ["sse4_2", "avx", "avx2", "fma", "f16c", "bmi2"], ["avx512f"]),
        ("skylake-avx512", ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"], ["avx512vnni"]),
        ("cascadelake", ["avx512vnni"], ["avx512bf16"]),
        ("cooperlake", ["avx512bf16"], ["amx_tile"]),
        ("sapphirerapids", ["amx_tile", "amx_int8", "amx_bf16", "avx512fp16", "avxvnni", "waitpkg"], ["amx_fp16"]),
        ("graniterapids", ["amx_fp16", "amx_tile"], []),
        ("znver4", ["avx512f", "avx512bf16", "avx512vnni"], ["avx512fp16", "amx_tile"]),
        ("x86-64", ["sse2", "64bit"], ["sse3", "sse4_2"]),
        ("x86-64-v2", ["sse4_2", "popcnt"], ["avx"]),
        ("x86-64-v3", ["avx2", "fma", "bmi2", "f16c"], ["avx512f"]),
        ("x86-64-v4", ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"], ["avx512vnni"]),
    ],
)
def test_cpu_implies_its_features(make, cpu: str, present: list[str], absent: list[str]) -> None:
    t = make(f"{T64} -mcpu={cpu}")
    for name in present:
        assert t.features[name] is True, (cpu, name)
    for name in absent:
        assert t.features[name] is False, (cpu, name)
    assert t.keys == ("x86", "cpu")


@pytest.mark.parametrize(
    ("spelling", "twin", "triple"),
    [
        ("skylake_avx512", "skylake-avx512", "x86_64-linux-gnu"),
        ("icelake_server", "icelake-server", "x86_64-linux-gnu"),
        ("core_4th_gen_avx", "haswell", "x86_64-linux-gnu"),
        ("atom_sse4_2", "silvermont", "x86_64-linux-gnu"),
        ("pentium_iii", "pentium3", "i686-linux-gnu"),
    ],
)
def test_cpu_dispatch_spelling_has_its_twins_features(make, spelling: str, twin: str, triple: str) -> None:
    """A cpu_dispatch spelling has its -march twin's features, sahf/cx8/cx16 included."""
    t = make(f"llvm -mtriple={triple} -mcpu={spelling}")
    assert dict(t.features) == dict(make(f"llvm -mtriple={triple} -mcpu={twin}").features)


def test_inline_ignored_features_of_skylake_avx512_and_generic(make) -> None:
    skx = make(f"{T64} -mcpu=skylake_avx512").features
    assert (skx["sahf"], skx["cx8"], skx["cx16"]) == (True, True, True)
    for spec in (f"{T64} -mcpu=generic", "llvm -mtriple=i686-linux-gnu -mcpu=generic"):
        generic = make(spec).features
        assert (generic["sahf"], generic["cx8"], generic["cx16"]) == (False, True, False), spec


def test_every_llvm22_cpu_is_known_including_levels() -> None:
    cpus = tables().cpus
    for name in ("x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4", "znver5", "diamondrapids", "sapphirerapids"):
        assert name in cpus
    assert len(cpus) > 120


def test_plus_adds_requirements(make) -> None:
    t = make(f"{T64} -mcpu=haswell -mattr=+avx512vnni")
    assert t.features.avx512vnni and t.features.avx512f
    assert t.features.vector_width_bits == 512
    assert "implied by -mattr=+avx512vnni" in t.features.explain("avx512f")
    amx = make(f"{T64} -mcpu=x86-64 -mattr=+amx-int8")
    assert amx.features.amx_tile and amx.features.amx_int8


def test_minus_removes_dependents(make) -> None:
    t = make(f"{T64} -mcpu=sapphirerapids -mattr=-avx512f")
    for name in ("avx512f", "avx512bw", "avx512vnni", "avx512bf16", "avx512fp16", "avx512vl", "avx512cd"):
        assert t.features[name] is False, name
    assert t.features.avx2 and t.features.avxvnni and t.features.amx_int8
    assert t.features.vector_width_bits == 256
    assert "removed by -mattr=-avx512f" in t.features.explain("avx512bw")


def test_mattr_applies_in_order_and_accepts_both_spellings(make) -> None:
    assert make(f"{T64} -mcpu=haswell -mattr=-avx2,+avx2").features.avx2
    assert not make(f"{T64} -mcpu=haswell -mattr=+avx2,-avx").features.avx2
    assert make(f"{T64} -mcpu=x86-64 -mattr=+sse4_2").features["sse4.2"]


def test_quantities(make) -> None:
    cases = {
        "haswell": (256, 8, 256),
        "znver4": (512, 16, 512),
        "skylake-avx512": (512, 16, 256),
        "x86-64": (128, 4, 128),
    }
    for cpu, (width, lanes, preferred) in cases.items():
        f = make(f"{T64} -mcpu={cpu}").features
        assert (f.vector_width_bits, f.vector_lanes_32bit, f.preferred_vector_width_bits) == (width, lanes, preferred)
    assert make(f"{T64} -mcpu=skylake-avx512 -vector-width=512").features.preferred_vector_width_bits == 512
    assert make(f"{T64} -mcpu=znver4 -mattr=+prefer-256-bit").features.preferred_vector_width_bits == 256
    assert "vector_width_bits" not in make("llvm -mtriple=i386-linux-gnu -mcpu=i486").features


def test_preferred_width_model_matches_llvm_probe_for_every_cpu() -> None:
    for name, entry in tables().cpus.items():
        got = resolve(name, entry.is_64bit, (), None).preferred_width
        assert got == entry.preferred_vector_width, name


def test_claims_cpu_without_triple_and_32bit_triples(make) -> None:
    t = make("llvm -mcpu=znver4")
    assert t.keys == ("x86", "cpu") and t.features.avx512f
    t32 = make("llvm -mtriple=i686-linux-gnu -mcpu=pentium4")
    assert t32.features.sse2 and not t32.features["64bit"]
    assert make("c -mtriple=amd64-unknown-freebsd -mcpu=haswell").features.avx2
    assert make("llvm -mtriple=x86_64-linux-gnu -march=x86-64-v3").features.avx2


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (f"{T64} -mcpu=skylake-avx52", "skylake-avx512"),
        (f"{T64} -mcpu=haswel", "haswell"),
        (f"{T64} -mcpu=haswell -mattr=+avx512vni", "avx512vnni"),
        (f"{T64} -mcpu=haswell -mattr=+amx_int", "amx-int8"),
        (f"{T64} -mcpu=i386", "32-bit CPU"),
        (f"{T64} -mcpu=haswell -vector-width=512", "wider than the 256-bit"),
        (f"{T64} -mcpu=znver4 -vector-width=300", "128, 256, 512"),
        (f"{T64} -mcpu=znver4 -march=haswell", "disagree"),
    ],
)
def test_bad_input_is_a_target_error_naming_closest(make, spec: str, expected: str) -> None:
    with pytest.raises(tcfg.TargetError, match=expected):
        make(spec)


def test_unknown_feature_name_on_target_names_closest(make) -> None:
    t = make(f"{T64} -mcpu=haswell")
    with pytest.raises(AttributeError, match="avx512vnni"):
        _ = t.features.avx512vnnni


def test_round_trips(make) -> None:
    specs = (f"{T64} -mcpu=znver4 -mattr=-avx512f,+amx-int8", "llvm -mcpu=haswell -vector-width=128")
    native = ("llvm -mcpu=native",) if platform.machine() in ("x86_64", "AMD64") else ()
    for spec in specs + native:
        t = make(spec)
        assert make(str(t)) == t
        assert make(t.export()) == t
        assert make(t.to_json()) == t


def test_declared_feature_names_are_canonical_and_distinct() -> None:
    from tcfg._model.features import feature_name
    from tcfg_x86.parser import X86CpuParser

    names = [f.name for f in X86CpuParser().features]
    assert len(names) == len(set(names))
    assert all(feature_name(n) == n for n in names)
    assert {"amx_int8", "sse4_2", "avx512fp16", "vector_width_bits", "vector_lanes_32bit"} <= set(names)


def test_entry_point_loads_the_plugin() -> None:
    reg = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "x86"})
    assert [r.status for r in reg.plugins() if r.name == "x86"] == ["loaded"]
    assert tcfg.Target(f"{T64} -mcpu=znver4", registry=reg).features.avx512f


def test_import_reads_no_data() -> None:
    code = "import sys, tcfg_x86.plugin; print('tcfg_x86.facts' in sys.modules, 'llvmlite' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
