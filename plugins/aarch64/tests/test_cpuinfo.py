"""Host detection from recorded /proc/cpuinfo texts of real Arm machines (shipped by archspec)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tcfg
from tcfg_aarch64 import detect

# archspec's recording (its own microarchitecture label) -> the CPU LLVM's Host.cpp reports.
RECORDED = {
    "linux-amazon-cortex_a72": "cortex-a72",
    "linux-amazon-neoverse_n1": "neoverse-n1",
    "linux-amazon-neoverse_v1": "neoverse-v1",
    "linux-rhel8-neoverse_v1": "neoverse-v1",
    "linux-rhel9-neoverse_n2": "neoverse-n2",
    "linux-rhel9-neoverse_v2": "neoverse-v2",
    "linux-ubuntu22.04-neoverse_n2": "neoverse-n2",
    "linux-ubuntu22.04-neoverse_v2": "neoverse-v2",
    "linux-unknown-neoverse_v2": "neoverse-v2",
    "linux-ubuntu24.04-neoverse_v3ae": "neoverse-v3ae",
    "linux-asahi-m1": "apple-m1",
    "linux-asahi-m2": "apple-m2",
    "linux-centos7-thunderx2": "thunderx2t99",
    "linux-rocky8-a64fx": "a64fx",
    "linux-ubuntu22.04-ampere1": "ampere1",
    "linux-ubuntu22.04-ampere1a": "ampere1a",
    "linux-ubuntu26.04-olympus": "olympus",
}


def _recordings() -> Path:
    archspec = pytest.importorskip("archspec", reason="the recorded cpuinfo texts come with archspec")
    return Path(archspec.__file__).parent / "json" / "tests" / "targets"


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_machines(make, name: str) -> None:
    path = _recordings() / name
    if not path.exists():
        pytest.skip(f"this archspec version has no recording {name}")
    text = path.read_text()
    attrs = detect.native_attrs(text)
    assert attrs["mcpu"] == RECORDED[name]
    (detected,) = tcfg.detect(sources={"cpuinfo": text})
    assert detected.attrs["mcpu"] == RECORDED[name] and detected.attrs["mtriple"] == "aarch64-unknown-linux-gnu"
    target = make({"kind": "llvm", "mtriple": "aarch64-unknown-linux-gnu", **attrs})
    info = detect.parse_cpuinfo(text)
    f = target.features
    assert bool(f.sve) == ("sve" in info.hwcaps), name
    assert bool(f.dotprod) == ("asimddp" in info.hwcaps), name
    assert bool(f.aes) == ("aes" in info.hwcaps), name
    assert bool(f.lse) == ("atomics" in info.hwcaps), name
    assert bool(f.i8mm) == ("i8mm" in info.hwcaps), name


def test_a64fx_has_no_aes(make) -> None:
    text = (_recordings() / "linux-rocky8-a64fx").read_text()
    attrs = detect.native_attrs(text)
    assert attrs["mcpu"] == "a64fx" and "-aes" in attrs["mattr"]


def test_x86_cpuinfo_is_refused() -> None:
    text = (_recordings() / "linux-rhel7-haswell").read_text()
    with pytest.raises(tcfg.TargetError, match="CPU implementer"):
        detect.native_attrs(text)


def test_unknown_part_is_generic() -> None:
    attrs = detect.native_attrs("CPU implementer\t: 0x41\nCPU part\t: 0xfff\nFeatures\t: fp asimd\n")
    assert "mcpu" not in attrs


def test_mcpu_native_and_detect_read_proc_cpuinfo(make, monkeypatch, tmp_path) -> None:
    recorded = _recordings() / "linux-amazon-neoverse_n1"
    monkeypatch.setattr(detect, "CPUINFO", recorded)
    import tcfg_aarch64.plugin as plugin

    monkeypatch.setattr(plugin, "host_triple", lambda: "aarch64-unknown-linux-gnu")
    found = plugin.tcfg_detect(None)
    assert found == [{"kind": "llvm", "mtriple": "aarch64-unknown-linux-gnu", "mcpu": "neoverse-n1"}]
    import tcfg_aarch64.parser as parser

    monkeypatch.setattr(parser, "host_triple", lambda: "aarch64-unknown-linux-gnu")
    t = make("llvm -mtriple=aarch64-unknown-linux-gnu -mcpu=native")
    assert t.attrs["mcpu"] == "neoverse-n1" and t.features.dotprod
    assert make(str(t)) == t
    monkeypatch.setattr(detect, "CPUINFO", tmp_path / "missing")
    with pytest.raises(tcfg.TargetError, match="cpuinfo"):
        make("llvm -mtriple=aarch64-unknown-linux-gnu -mcpu=native -opt-level=1")


def _cpuinfo(implementer: str, *parts: str, variant: str = "0x0", hardware: str = "") -> str:
    """A /proc/cpuinfo with one core per part (as LLVM's Host.cpp unit tests write them)."""
    cores = [
        f"processor\t: {n}\nFeatures\t: fp asimd\nCPU implementer\t: {implementer}\n"
        f"CPU architecture: 8\nCPU variant\t: {variant}\nCPU part\t: {part}\nCPU revision\t: 0\n"
        for n, part in enumerate(parts)
    ]
    return "\n".join(cores) + (f"\nHardware\t: {hardware}\n" if hardware else "")


@pytest.mark.parametrize(
    ("text", "cpu"),
    [
        # LLVM 22's big.LITTLE rule: exactly the parts 0xd85 (X925) and 0xd87 (A725) -> the big core.
        (_cpuinfo("0x41", "0xd87", "0xd87", "0xd85", "0xd85"), "cortex-x925"),
        (_cpuinfo("0x41", "0xd85", "0xd87"), "cortex-x925"),
        # Other mixes: the last part listed.
        (_cpuinfo("0x41", "0xd85", "0xd87", "0xd80"), "cortex-a520"),
        (_cpuinfo("0x41", "0xd05", "0xd0d"), "cortex-a77"),
        # Parts LLVM 22 added.
        (_cpuinfo("0x41", "0xd8a"), "c1-nano"),
        (_cpuinfo("0x41", "0xd90"), "c1-premium"),
        (_cpuinfo("0x41", "0xd8b"), "c1-pro"),
        (_cpuinfo("0x41", "0xd8c"), "c1-ultra"),
        (_cpuinfo("0xc0", "0xac7"), "ampere1c"),
        # Samsung: variant << 12 | part; anything else is exynos-m3.
        (_cpuinfo("0x53", "0x002", variant="0x1"), "exynos-m3"),
        (_cpuinfo("0x53", "0x003", variant="0x1"), "exynos-m4"),
        (_cpuinfo("0x53", "0x003", variant="0x4"), "exynos-m3"),
        # Qualcomm SoCs whose part line names the core the kernel ran on.
        (_cpuinfo("0x41", "0xd07", hardware="Qualcomm Technologies, Inc MSM8996"), "cortex-a53"),
        # LLVM matches part strings exactly (it lists both 0xaf and 0x0af for Cavium).
        (_cpuinfo("0x43", "0x0af"), "thunderx2t99"),
        (_cpuinfo("0x41", "0xfff"), "generic"),
        (_cpuinfo("0x99", "0xd08"), "generic"),
    ],
)
def test_llvm22_host_rules(text: str, cpu: str) -> None:
    assert detect.cpu_name(detect.parse_cpuinfo(text)) == cpu


def test_every_cpu_the_rules_name_is_one_llvm_22_knows() -> None:
    from tcfg_aarch64.facts import cpuinfo_table
    from tcfg_aarch64.resolve import family_of_cpu

    table = cpuinfo_table()
    names = {cpu for parts in table["parts"].values() for cpu in parts.values()}
    names |= {row[-1] for rows in table["big_little"].values() for row in rows}
    names |= {row[-1] for rows in table["hardware"].values() for row in rows}
    names |= {cpu for rule in table["variant_parts"].values() for cpu in [*rule["cases"].values(), rule["default"]]}
    unknown = sorted(name for name in names - {"generic"} if family_of_cpu(name) is None)
    assert unknown == []


def test_recorded_32bit_arm_triple() -> None:
    text = _cpuinfo("0x41", "0xc07").replace("fp asimd", "half thumb fastmult vfp edsp neon vfpv3 tls vfpv4")
    assert detect.recorded_triple(text.replace("CPU architecture: 8", "CPU architecture: 7")) == (
        "armv7-unknown-linux-gnueabihf"
    )
    assert detect.recorded_triple(_cpuinfo("0x41", "0xd0c")) == "aarch64-unknown-linux-gnu"


def _llvm_unit_cases() -> list[dict[str, str]]:
    """The /proc/cpuinfo cases of LLVM's Host.cpp unit test (fixtures/README.md says which revisions)."""
    import json

    path = Path(__file__).resolve().parent / "fixtures" / "llvm-host-unittests.json"
    cases: list[dict[str, str]] = json.loads(path.read_text())["cases"]
    return cases


@pytest.mark.parametrize("case", _llvm_unit_cases(), ids=lambda c: f"{c['test']}-{c['name'] or c['cpuinfo'][-5:]}")
def test_llvm_host_unit_test_inputs(case: dict[str, str]) -> None:
    """Every /proc/cpuinfo of LLVM's own Host.cpp unit tests gets the CPU LLVM expects."""
    expected = case.get("llvm22", case["cpu"])  # a CPU newer than LLVM 22: what LLVM 22's Host.cpp gives
    info = detect.parse_cpuinfo(case["cpuinfo"])
    assert detect.cpu_name(info) == expected
    if info.hwcaps:  # a whole recording: detection gives a target that builds, with that CPU
        (target,) = tcfg.detect(sources={"cpuinfo": case["cpuinfo"]})
        assert target.attrs.get("mcpu", "generic") == expected


#: archspec's macOS recordings of Apple silicon Macs -> LLVM 22's CPU for their hw.cpufamily
#: (the Big Sur recording has no hw.cpufamily: LLVM's family 0, generic).
APPLE = {
    "darwin-monterey-m1": "apple-m1",
    "darwin-monterey-m2": "apple-m2",
    "darwin-sequoia-m3": "apple-m3",
    "darwin-sequoia-m4": "apple-m4",
    "darwin-bigsur-m1": "generic",
}


@pytest.mark.parametrize("name", sorted(APPLE))
def test_recorded_macs(make, name: str) -> None:
    path = _recordings() / name
    if not path.exists():
        pytest.skip(f"this archspec version has no recording {name}")
    text = path.read_text()
    (target,) = tcfg.detect(sources={"sysctl": text})
    assert target.attrs.get("mcpu", "generic") == APPLE[name]
    said = {
        line.split(":")[0].removeprefix("hw.optional.arm."): line.split(":")[1].strip()
        for line in text.splitlines()
        if line.startswith("hw.optional.arm.FEAT_")
    }
    f = target.features
    for feat, feature in (("FEAT_SME", "sme"), ("FEAT_BF16", "bf16"), ("FEAT_I8MM", "i8mm"), ("FEAT_SSBS", "ssbs")):
        if feat in said:
            assert bool(f[feature]) == (said[feat] == "1"), (name, feat)


def test_apple_cpufamily_rules() -> None:
    from tcfg_aarch64.facts import cpuinfo_table

    rules = cpuinfo_table()["apple_cpufamily"]
    assert rules["0x1b588bb3"] == "apple-m1" and rules["0x72015832"] == "apple-m3" and rules["default"] == "apple-m4"
    # sysctl prints hw.cpufamily signed: -634136515 is 0xda33d83d, the M2's.
    assert detect.sysctl_attrs("hw.cputype: 16777228\nhw.cpufamily: -634136515\n")["mcpu"] == "apple-m2"
    assert detect.sysctl_attrs("hw.cputype: 16777228\nhw.cpufamily: 12345\n")["mcpu"] == "apple-m4"
    with pytest.raises(tcfg.TargetError, match=r"hw\.cpufamily is 'x'"):
        detect.sysctl_attrs("hw.cputype: 16777228\nhw.cpufamily: x\n")
