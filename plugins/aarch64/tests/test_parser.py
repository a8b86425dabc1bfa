"""The sub-parser: claiming, LLVM's feature semantics, errors, explanations, round trips."""

from __future__ import annotations

import pytest

import tcfg
from tcfg_aarch64.facts import aarch64, arm

A64 = "llvm -mtriple=aarch64-linux-gnu"


def test_claims_by_triple_and_keys(make) -> None:
    for spec in (
        f"{A64} -mcpu=cortex-a72",
        "llvm -mtriple=arm64-apple-macos -mcpu=apple-m1",
        "c -mtriple=thumbv7em-none-eabihf -mcpu=cortex-m4",
        "c -mcpu=cortex-m4",
        "c -mcpu=cortex-m55+nomve",
    ):
        assert make(spec).keys == ("arm_cpu", "cpu"), spec


def test_does_not_claim_other_arches_or_generic(make) -> None:
    assert make("llvm -mtriple=x86_64-linux-gnu -mcpu=skylake").keys == ("cpu",)
    assert make("c -mcpu=generic").keys == ("cpu",)


def test_cortex_a72_features(make) -> None:
    f = make(f"{A64} -mcpu=cortex-a72").features
    assert f.is_aarch64 and f.neon and f.crc and f.aes and f.sha2
    assert not f.dotprod and not f.sve and not f.lse and not f.fullfp16
    assert f.arch_version == "8.0" and f.arch == "armv8-a" and f.profile == "a"
    assert f.has_asimd is True and f.has_dotprod is False


def test_one_configuration_answers_alike_under_any_vendor_and_arm_explains_its_own_triple(make) -> None:
    # The parser remembers each CPU configuration: AArch64 never reads the triple, 32-bit Arm's float ABI does.
    first, second = (make(f"llvm -mtriple=aarch64-{v}-linux-gnu -mcpu=neoverse-v1+nosve -mattr=+sme") for v in "ab")
    assert first.features == second.features and first.features.explain("sve") == second.features.explain("sve")
    hard, soft = (
        make("llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a15"),
        make("llvm -mtriple=armv7a-linux-gnueabi -mcpu=cortex-a15"),
    )
    assert (hard.features.float_abi, soft.features.float_abi) == ("hard", "soft")
    assert "gnueabihf" in hard.features.explain("float_abi") and "gnueabihf" not in soft.features.explain("float_abi")


def test_cpu_implies_arch_version_and_extensions(make) -> None:
    f = make(f"{A64} -mcpu=neoverse-v1").features
    assert f.arch_version == "8.4"
    assert f.sve and f.bf16 and f.i8mm and f.dotprod and f.lse and f.rcpc and f.fullfp16
    g = make(f"{A64} -mcpu=neoverse-v2").features
    assert g.arch_version == "9.0" and g.sve2 and not g.sme


def test_aliases_resolve_as_llvm_does(make) -> None:
    assert make(f"{A64} -mcpu=apple-m1").features == make(f"{A64} -mcpu=apple-a14").features
    assert make(f"{A64} -mcpu=grace").features.sve2
    assert "apple-a14" in make(f"{A64} -mcpu=apple-m1").features.explain("neon")
    m4 = make("llvm -mtriple=arm64-apple-macos -mcpu=apple-m4").features
    assert m4.sme and m4.sme2 and m4.has_sme


def test_every_llvm_cpu_builds(make) -> None:
    for name, cpu in aarch64().cpus.items():
        t = make(f"{A64} -mcpu={name}")
        assert t.features.arch_version == cpu.arch_version
        assert t.features.neon == ("neon" in cpu.features)
    for name in arm().cpus:
        make(f"c -mtriple=arm-none-eabihf -mcpu={name}")


@pytest.mark.parametrize("version", [f"8.{i}" for i in range(10)] + [f"9.{i}" for i in range(6)])
def test_arch_versions(make, version: str) -> None:
    march = "armv8-a" if version == "8.0" else "armv9-a" if version == "9.0" else f"armv{version}-a"
    f = make(f"{A64} -march={march}").features
    assert f.arch_version == version and f.arch == march and f.neon
    assert bool(f.lse) == (version != "8.0")
    assert bool(f.sve2) == version.startswith("9")


def test_march_with_extensions(make) -> None:
    f = make(f"{A64} -march=armv8.2-a+dotprod+nosve").features
    assert f.dotprod and f.lse and f.rdm and not f.sve and f.arch_version == "8.2"
    assert "+dotprod" in f.explain("dotprod")


def test_plus_ext_adds_its_requirements(make) -> None:
    f = make(f"{A64} -march=armv8-a+sve").features
    assert f.sve and f.fullfp16  # SVE requires fullfp16 in LLVM
    g = make(f"{A64} -march=armv8-a+sme2").features
    assert g.sme2 and g.sme and g.bf16


def test_minus_neon_removes_dependents_but_sve_hangs_on_fullfp16(make) -> None:
    f = make(f"{A64} -mcpu=neoverse-v1 -mattr=-neon").features
    assert not f.neon and not f.dotprod and not f.i8mm and not f.bf16
    assert f.sve and f.fullfp16
    assert "-mattr=-neon" in f.explain("dotprod")
    g = make(f"{A64} -mcpu=neoverse-v1 -mattr=-fullfp16").features
    assert not g.sve and not g.fullfp16 and g.neon and g.dotprod


def test_mcpu_suffixes(make) -> None:
    f = make(f"{A64} -mcpu=neoverse-v1+nosve+crypto").features
    assert not f.sve and f.sha3 and f.neon


def test_mattr_arch_version_raises_arch_version(make) -> None:
    f = make(f"{A64} -mcpu=cortex-a72 -mattr=+v8.2a").features
    assert f.arch_version == "8.2" and f.lse


@pytest.mark.parametrize(
    ("spec", "near"),
    [
        (f"{A64} -mcpu=cortex-a722", "cortex-a72"),
        (f"{A64} -mcpu=neoverse-v1+nosvee", "nosve"),
        (f"{A64} -march=armv8.2-a+dotprd", "dotprod"),
        (f"{A64} -march=armv8.11-a", "armv8.1-a"),
        (f"{A64} -mattr=+neonn", "neon"),
        ("c -mcpu=cortex-m55+nomvee", "nomve"),
        ("c -mtriple=thumbv7em-none-eabi -mcpu=cortex-m44", "cortex-m4"),
    ],
)
def test_unknown_names_are_errors_with_closest(make, spec: str, near: str) -> None:
    with pytest.raises(tcfg.TargetError, match=repr(near).replace(".", r"\.")):
        make(spec)


def test_soft_float_abi_refused_on_aarch64(make) -> None:
    with pytest.raises(tcfg.TargetError, match="only 'hard'"):
        make(f"{A64} -mcpu=cortex-a72 -mfloat-abi=soft")


CORTEX_M = {
    # cpu: (arch, dsp, mve, mve_fp, fpu)
    "cortex-m0": ("armv6-m", False, False, False, "none"),
    "cortex-m0plus": ("armv6-m", False, False, False, "none"),
    "cortex-m3": ("armv7-m", False, False, False, "none"),
    "cortex-m4": ("armv7e-m", True, False, False, "fpv4-sp-d16"),
    "cortex-m7": ("armv7e-m", True, False, False, "fpv5-d16"),
    "cortex-m23": ("armv8-m.base", False, False, False, "none"),
    "cortex-m33": ("armv8-m.main", True, False, False, "fpv5-sp-d16"),
    "cortex-m35p": ("armv8-m.main", True, False, False, "fpv5-sp-d16"),
    "cortex-m52": ("armv8.1-m.main", True, True, True, "fpv5-d16"),
    "cortex-m55": ("armv8.1-m.main", True, True, True, "fpv5-d16"),
    "cortex-m85": ("armv8.1-m.main", True, True, True, "fpv5-d16"),
}


@pytest.mark.parametrize("cpu", sorted(CORTEX_M))
def test_cortex_m_without_triple(make, cpu: str) -> None:
    arch, dsp, mve, mve_fp, fpu = CORTEX_M[cpu]
    f = make(f"c -mcpu={cpu}").features
    assert (f.arch, f.dsp, f.mve, f.mve_fp, f.fpu) == (arch, dsp, mve, mve_fp, fpu)
    assert f.profile == "m" and not f.is_aarch64
    assert f.has_dsp == dsp and f.has_mve == mve
    assert f.float_abi == ("hard" if fpu != "none" else "soft")


def test_m55_forms_of_removing_mve_and_dsp(make) -> None:
    for spec in ("c -mcpu=cortex-m55+nomve", "c -mcpu=cortex-m55 -mattr=-mve"):
        f = make(spec).features
        assert f.dsp and not f.mve and not f.mve_fp and f.fp64, spec
    for spec in ("c -mcpu=cortex-m55+nodsp", "c -mcpu=cortex-m55 -mattr=-dsp"):
        f = make(spec).features
        assert not f.dsp and not f.mve and not f.mve_fp, spec
    f = make("c -mcpu=cortex-m55+nomve.fp").features
    assert f.mve and not f.mve_fp


def test_float_abi_sources_and_mve(make) -> None:
    hard = make("c -mcpu=cortex-m55").features
    assert hard.mve and "TVM's convention" in hard.explain("float_abi") and "float ABI hard" in hard.explain("mve")
    eabi = make("c -mtriple=thumbv8.1m.main-none-eabi -mcpu=cortex-m55").features
    assert eabi.float_abi == "soft" and not eabi.mve and not eabi.mve_fp and eabi.dsp and eabi.fpu == "none"
    assert "soft-float ABI" in eabi.explain("mve") and "'eabi'" in eabi.explain("mve")
    hf = make("c -mtriple=thumbv8.1m.main-none-eabihf -mcpu=cortex-m55").features
    assert hf.float_abi == "hard" and hf.mve_fp and "'eabihf'" in hf.explain("float_abi")
    given = make("c -mtriple=thumbv8.1m.main-none-eabihf -mcpu=cortex-m55 -mfloat-abi=soft").features
    assert not given.mve and "-mfloat-abi=soft" in given.explain("float_abi")
    softfp = make("c -mcpu=cortex-m55 -mfloat-abi=softfp").features
    assert softfp.mve and softfp.float_abi == "softfp"


def test_m7_single_precision(make) -> None:
    f = make("c -mcpu=cortex-m7 -mattr=-fp64").features
    assert f.fpu == "fpv5-sp-d16" and not f.fp64


def test_round_trips(make) -> None:
    for spec in (
        f"{A64} -mcpu=neoverse-v1+nosve -mattr=-neon",
        "c -mcpu=cortex-m55+nomve",
        f"{A64} -march=armv8.2-a+dotprod+nosve",
        "raspberry-pi/4b",
    ):
        t = make(spec)
        assert make(str(t)) == t and make(t.export()) == t and make(t.to_json()) == t


def test_unknown_feature_name_suggests(make) -> None:
    t = make(f"{A64} -mcpu=cortex-a72")
    with pytest.raises(AttributeError, match="dotprod"):
        _ = t.features.dotprd


def test_entry_point_loads_plugin() -> None:
    reg = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "aarch64"})
    t = tcfg.Target("c -mcpu=cortex-m4", registry=reg)
    assert t.keys == ("arm_cpu", "cpu") and t.features.dsp
    assert any(p.name == "aarch64" and p.status == "loaded" for p in reg.plugins())


def test_parse_speed(make) -> None:
    """CPU time (not wall time: other processes on the machine do not count), best of five loops."""
    import time

    from tcfg_aarch64.parser import resolve_target, values

    attrs = {"mtriple": "aarch64-linux-gnu", "mcpu": "neoverse-v1", "mattr": ("+sve2", "-aes")}
    values(resolve_target(attrs, "aarch64"))
    best = min(_timed(lambda: values(resolve_target(attrs, "aarch64")), time.process_time) for _ in range(5))
    assert best < 40e-6, f"{best * 1e6:.1f} us per resolution"


def _timed(fn, clock) -> float:  # type: ignore[no-untyped-def]
    n = 500
    start = clock()
    for _ in range(n):
        fn()
    return (clock() - start) / n
