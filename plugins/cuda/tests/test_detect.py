"""Detection on recorded outputs of real GPUs (see fixtures/README.md), and on this GPU-less machine."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

import tcfg
import tcfg_cuda.detect as detect
import tcfg_cuda.plugin
from tcfg.testing import registry_with
from tcfg_cuda.detect import DRIVER_ATTRIBUTES, GpuInfo, gpu_from_driver, parse_nvidia_smi


def test_nvidia_smi_csv_of_two_real_gpus() -> None:
    gpus = parse_nvidia_smi((FIXTURES / "nvidia-smi-titan-v-rtx-5880.csv").read_text())
    assert [(g.name, g.arch) for g in gpus] == [
        ("NVIDIA TITAN V", "sm_70"),
        ("NVIDIA RTX 5880 Ada Generation", "sm_89"),
    ]
    assert all(g.source == "nvidia-smi" for g in gpus)
    assert gpus[0].multi_processor_count is None  # not reported, not a known name: left unset


def test_nvidia_smi_memory_and_known_name_fill_the_rest() -> None:
    text = "index, name, compute_cap, memory.total [MiB]\n0, NVIDIA A100-SXM4-80GB, 8.0, 81920\n"
    (gpu,) = parse_nvidia_smi(text)
    assert gpu.global_memory_bytes == 81920 << 20
    assert gpu.multi_processor_count == 108 and gpu.l2_cache_size_bytes == 40 << 20


def test_cuda_driver_attributes_of_a_real_a100(reg: tcfg.Registry) -> None:
    data = json.loads((FIXTURES / "cuda-driver-a100-sxm4-40gb.json").read_text())
    values = {DRIVER_ATTRIBUTES[k]: v for k, v in data["attributes"].items()}
    gpu = gpu_from_driver(data["name"], values, data["total_memory"])
    target = tcfg.Target(gpu.spec(), registry=reg)
    assert target.attrs["arch"] == "sm_80"
    assert target.attrs["multi_processor_count"] == 108
    assert target.attrs["l2_cache_size_bytes"] == 41943040
    assert target.attrs["global_memory_bytes"] == 42298834944
    assert target.attrs["max_shared_memory_per_block_optin"] == 166912
    assert target.attrs["model"] == "NVIDIA A100-SXM4-40GB"
    assert tcfg.Target(str(target), registry=reg) == target


def test_unknown_compute_capability_is_an_error() -> None:
    with pytest.raises(tcfg.TargetError, match=r"13\.7"):
        parse_nvidia_smi("name, compute_cap\nNVIDIA Future, 13.7\n")


FIXTURES = Path(__file__).parent / "fixtures"
_REPLAY = "import sys; sys.stdout.write(open(sys.argv[1]).read()); sys.exit(int(sys.argv[2]))"


def _fake_nvidia_smi(tmp_path: Path, fixture: str, status: int) -> str:
    script = tmp_path / "nvidia-smi"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} -c \"{_REPLAY}\" '{FIXTURES / fixture}' {status}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(tmp_path)


def test_nvidia_smi_without_devices_means_no_gpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", _fake_nvidia_smi(tmp_path, "nvidia-smi-no-devices.txt", 6))
    assert detect._read_nvidia_smi() == []


def test_nvidia_smi_too_old_for_compute_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", _fake_nvidia_smi(tmp_path, "nvidia-smi-old-driver.txt", 2))
    with pytest.raises(tcfg.TargetError, match="compute_cap"):
        detect._read_nvidia_smi()


def test_nvidia_smi_recorded_output_through_the_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", _fake_nvidia_smi(tmp_path, "nvidia-smi-titan-v-rtx-5880.csv", 0))
    gpus = detect._read_nvidia_smi()
    assert gpus is not None and [g.arch for g in gpus] == ["sm_70", "sm_89"]


def test_first_source_that_answers_wins() -> None:
    a100 = GpuInfo("NVIDIA A100-SXM4-40GB", "sm_80", "test")
    found, unavailable = detect.detect_gpus((("none", lambda: None), ("one", lambda: [a100]), ("x", lambda: 1 / 0)))
    assert found == [a100] and unavailable == ["none"]


def test_native_uses_the_detected_gpu(reg: tcfg.Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    h100 = GpuInfo("NVIDIA H100 80GB HBM3", "sm_90a", "test", 132, 80 << 30, 50 << 20)
    monkeypatch.setattr(detect, "native_gpu", lambda: h100)
    t = tcfg.Target("cuda -arch=native", registry=reg)
    assert t.attrs["arch"] == "sm_90a" and t.features.wgmma is True
    assert t.attrs["multi_processor_count"] == 132
    assert "native" not in str(t) and tcfg.Target(str(t), registry=reg) == t


@pytest.mark.skipif(
    os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl"), reason="this machine has an NVIDIA GPU"
)
def test_native_without_a_gpu_is_a_clear_error(reg: tcfg.Registry) -> None:
    detect.native_gpu.cache_clear()
    fresh = registry_with(tcfg_cuda.plugin)
    with pytest.raises(tcfg.TargetError, match="no NVIDIA GPU found") as info:
        tcfg.Target("cuda -arch=native", registry=fresh)
    assert "-arch=sm_80" in str(info.value)
    assert fresh.detect() == []
