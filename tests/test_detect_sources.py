"""Detection from recorded inputs (``tcfg.detect(sources=...)``, ``tcfg detect --from``), the order of
detected devices and ``--why-not``, on in-process plugins (the real readers are tested in the plugins)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import tcfg
from tcfg.cli import main
from tests.fake_plugins import plugin_with

CPUINFO = "processor : 0\nmodel name : Cortex-M4 board\n"


def _recorded(sources: Mapping[str, tuple[str, ...]] | None) -> list[Any]:
    """Reads a recorded cpuinfo naming a Cortex-M4; the live machine has a Cortex-M7."""
    if sources is None:
        return ["c -mcpu=cortex-m7"]
    return ["c -mcpu=cortex-m4"] if "Cortex-M4" in "".join(sources.get("cpuinfo", ())) else []


def _registry(*extra: object) -> tcfg.Registry:
    return tcfg.Registry(plugins=[plugin_with("reader", tcfg_detect=_recorded), *extra], autoload=False)


def test_sources_reach_the_hooks_that_take_them() -> None:
    reg = _registry()
    assert [str(t) for t in reg.detect()] == ["c -mcpu=cortex-m7"]
    assert [str(t) for t in reg.detect(sources={"cpuinfo": CPUINFO})] == ["c -mcpu=cortex-m4"]
    assert [str(t) for t in reg.detect(sources={"cpuinfo": [CPUINFO]})] == ["c -mcpu=cortex-m4"]
    assert reg.detect(sources={"nvidia-smi": "name, compute_cap\n"}) == []


def test_a_hook_without_sources_reads_only_the_live_machine() -> None:
    reg = _registry(plugin_with("old", tcfg_detect=lambda: ["c -mcpu=cortex-m0"]))
    assert sorted(str(t) for t in reg.detect()) == ["c -mcpu=cortex-m0", "c -mcpu=cortex-m7"]
    assert [str(t) for t in reg.detect(sources={"cpuinfo": CPUINFO})] == ["c -mcpu=cortex-m4"]


@pytest.mark.parametrize(
    ("sources", "needles"),
    [
        ({"cpuinf": "x"}, ["unknown detection source 'cpuinf'", "did you mean 'cpuinfo'", "nvidia-smi", "vulkaninfo"]),
        ({"cpuinfo": 3}, ["detection source 'cpuinfo' must be the text of"]),
        ({"cpuinfo": ["a", "b"]}, ["'cpuinfo' describes a whole machine: give one text, not 2"]),
        ("cpuinfo", ["must be a mapping of source name to text"]),
    ],
)
def test_bad_sources_are_target_errors(sources: Any, needles: list[str]) -> None:
    with pytest.raises(tcfg.TargetError) as info:
        _registry().detect(sources=sources)
    for needle in needles:
        assert needle in str(info.value)


def test_devices_are_ordered_discrete_integrated_software() -> None:
    def devices() -> list[Any]:
        return [
            {"kind": "c", "mcpu": "cortex-m0", "model": "software"},
            {"kind": "c", "mcpu": "cortex-m4", "model": "integrated"},
            {"kind": "c", "mcpu": "cortex-m7", "model": "discrete"},
        ]

    from tcfg._base.recordings import DEVICE_ORDER, device_rank

    assert [device_rank({"device_type": d}) for d in DEVICE_ORDER] == list(range(len(DEVICE_ORDER)))
    assert device_rank({}) == 0 and device_rank({"device_type": 7}) == 0
    reg = tcfg.Registry(plugins=[plugin_with("gpus", tcfg_detect=devices)], autoload=False)
    # The c kind has no device_type: the order the plugin gave is kept (the sort is stable).
    assert [t.attrs["model"] for t in reg.detect()] == ["software", "integrated", "discrete"]


def run(capsys: pytest.CaptureFixture[str], reg: tcfg.Registry, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv), registry=reg)
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_from_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recording = tmp_path / "cpuinfo.txt"
    recording.write_text(CPUINFO)
    status, out, err = run(capsys, _registry(), "detect", "--from", f"cpuinfo={recording}")
    assert (status, out, err) == (0, "c -mcpu=cortex-m4\n", "")
    status, out, _ = run(capsys, _registry(), "detect", "--from", f"cpuinfo={recording}", "--json")
    assert json.loads(out) == [{"kind": "c", "mcpu": "cortex-m4"}]


def test_cli_from_says_when_the_recordings_show_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recording = tmp_path / "smi.csv"
    recording.write_text("name, compute_cap\n")
    status, out, err = run(capsys, _registry(), "detect", "--from", f"nvidia-smi={recording}")
    assert status == 1 and out == ""
    assert "no installed plugin detected a device in the recordings" in err


@pytest.mark.parametrize(
    ("argument", "needle"),
    [
        (
            "cpuinfo",
            "--from 'cpuinfo': write NAME=FILE, NAME one of "
            "cpuinfo, sysctl, cpuid, nvidia-smi, rocminfo, amd-smi, vulkaninfo, clinfo",
        ),
        ("gpu=x", "unknown detection source 'gpu'"),
        ("cpuinfo=/nonexistent/cpuinfo", "--from 'cpuinfo=/nonexistent/cpuinfo': cannot read '/nonexistent/cpuinfo'"),
    ],
)
def test_cli_from_bad_arguments(capsys: pytest.CaptureFixture[str], argument: str, needle: str) -> None:
    status, out, err = run(capsys, _registry(), "detect", "--from", argument)
    assert status == 2 and out == ""
    assert err.startswith("tcfg: error: ") and needle in err, err


def test_cli_why_not(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tcfg_x86", reason="the x86 plugin gives the CPUs and their features")
    spec = "llvm -mtriple=x86_64-unknown-linux-gnu -mcpu=haswell"
    reg = tcfg.Registry(plugins=[plugin_with("host", tcfg_detect=lambda: [spec])])
    status, out, err = run(capsys, reg, "detect", "--why-not", "skylake")
    assert (status, err) == (0, "")
    # LLVM 22's skylake has these beyond its haswell (aes included: LLVM's haswell lacks it).
    missing = "adx, aes, clflushopt, prfchw, rdseed, sgx, xsavec, xsaves"
    assert out == f"this machine (haswell) lacks 8 features of skylake: {missing}\n"
    status, out, _ = run(capsys, reg, "detect", "--why-not", "haswell")
    assert out == "this machine (haswell) has every feature of haswell\n"
    status, out, _ = run(capsys, reg, "detect", "--why-not", "skylake", "--json")
    report = json.loads(out)
    assert report["cpu"] == "skylake" and report["host_cpu"] == "haswell" and "adx" in report["missing"]
    status, out, err = run(capsys, reg, "detect", "--why-not", "cortex-a72")
    assert status == 2 and "-mcpu=cortex-a72 is not an x86 CPU" in err


def test_why_not_needs_a_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    reg = tcfg.Registry(plugins=[plugin_with("gpu", tcfg_detect=lambda: ["c -mcpu=cortex-m4"])], autoload=False)
    status, _, err = run(capsys, reg, "detect", "--why-not", "cortex-m7")
    assert status == 2 and "--why-not needs the machine's CPU" in err
