"""The Arm BYOC compilers (arm_compute_lib, cmsis-nn, ethos-u) and -libs libraries, swept over every 32-bit Arm CPU."""

from __future__ import annotations

import pytest

import tcfg
from tcfg.plugin import package_json

#: Every 32-bit Arm CPU of the table: M-profile (mclass in llc-22's feature closure), and A/R-profile with
#: NEON in what clang-22 compiles -mcpu=X with (its default FPU included).
_ARM = package_json("tcfg_aarch64", "data/arm.json")["cpus"]
CPUS = {
    name: ("mclass" in e["llc_features"], "+neon" in e["clang"] and "rclass" not in e["llc_features"])
    for name, e in _ARM.items()
}
TRIPLES = {
    name: f"{entry['triple_arch']}-none-eabi"
    for name, entry in package_json("tcfg_aarch64", "data/arm.json")["cpus"].items()
}


def test_the_sweep_covers_both_profiles() -> None:
    assert {m for m, _ in CPUS.values()} == {True, False} and any(neon for _, neon in CPUS.values())


@pytest.mark.parametrize("cpu", sorted(CPUS))
def test_m_profile_compilers_exactly_on_m_profile_cpus(reg: tcfg.Registry, cpu: str) -> None:
    m_profile, neon = CPUS[cpu]
    base = tcfg.Target(f"c -mtriple={TRIPLES[cpu]} -mcpu={cpu}", registry=reg)
    for compiler in ("cmsis-nn", "ethos-u"):
        spec = f"c -mtriple={TRIPLES[cpu]} -mcpu={cpu} -compiler={compiler}"
        if m_profile:
            t = tcfg.Target(spec, registry=reg)
            assert t.is_specialization_of(base) and compiler in t.keys
        else:
            with pytest.raises(tcfg.AttributeValueError, match=r"runs on Arm M-profile CPUs \(Cortex-M\)"):
                tcfg.Target(spec, registry=reg)
    acl = f"llvm -mtriple=armv7a-linux-gnueabihf -mcpu={cpu} -compiler=arm_compute_lib"
    if neon and not m_profile:
        assert "arm_compute_lib" in tcfg.Target(acl, registry=reg).keys
    elif not m_profile:
        with pytest.raises(tcfg.AttributeValueError, match="with NEON"):
            tcfg.Target(acl, registry=reg)


@pytest.mark.parametrize("config", package_json("tcfg_aarch64", "data/byoc.json")["ethos_u"]["configs"])
def test_every_ethos_u_configuration(reg: tcfg.Registry, config: str) -> None:
    t = tcfg.Target(f"c -mcpu=cortex-m55 -compiler=ethos-u -accelerator_config={config}", registry=reg)
    assert t.attrs["accelerator_config"] == config
    for form in (str(t), t.export(), t.to_json()):
        assert tcfg.Target(form, registry=reg) == t


def test_ethos_u_configurations_are_arms() -> None:
    """Vela's list: U55 at 32-256 MACs per cycle, U65 at 256 and 512, U85 at 128-2048."""
    expected = [f"ethos-u55-{n}" for n in (32, 64, 128, 256)] + [f"ethos-u65-{n}" for n in (256, 512)]
    expected += [f"ethos-u85-{n}" for n in (128, 256, 512, 1024, 2048)]
    data = package_json("tcfg_aarch64", "data/byoc.json")
    assert data["ethos_u"]["configs"] == expected and data["ethos_u"]["source"] in data["sources"]
    assert all(s["date"] and s["url"].startswith("https://") for s in data["sources"].values())


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a55 -compiler=ethos-u", "is an AArch64 \\(A-profile\\) CPU"),
        ("llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a9 -compiler=cmsis-nn", "is an A-profile Arm CPU"),
        ("c -mcpu=cortex-m55 -compiler=ethos-u -accelerator_config=ethos-u55-512", "ethos-u55-256"),
        ("c -mcpu=cortex-m4 -compiler=arm_compute_lib", "not registered for kind 'c'"),
        ("llvm -mtriple=x86_64-linux-gnu -compiler=cmsis-nn", "not an Arm CPU"),
        ("llvm -mtriple=thumbv7em-none-eabi -mcpu=cortex-m7 -libs=acl", "is an M-profile Arm CPU"),
        ("llvm -mtriple=aarch64-linux-gnu -libs=acll", "did you mean 'acl'"),
    ],
)
def test_wrong_hardware_is_refused(reg: tcfg.Registry, spec: str, message: str) -> None:
    with pytest.raises(tcfg.AttributeValueError, match=message):
        tcfg.Target(spec, registry=reg)


def test_acl_and_openblas_libs(reg: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-v1 -libs=acl,openblas", registry=reg)
    assert t.attrs["libs"] == ("acl", "openblas") and tcfg.Target(str(t), registry=reg) == t
    assert (
        "arm_compute_lib" in tcfg.Target("llvm -mtriple=aarch64-linux-gnu -compiler=arm_compute_lib", registry=reg).keys
    )
