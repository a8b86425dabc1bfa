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
