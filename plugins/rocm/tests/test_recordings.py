"""Recorded ``rocminfo`` and ``amd-smi static --json`` outputs read through ``tcfg.detect(sources=...)``.

``rocminfo-8x-mi300x-gfx942.txt`` is real (see fixtures/README.md). The amd-smi documents
here are built in the shape ``amdsmi_cli/amdsmi_commands.py`` writes (ROCm/amdsmi at
0ceca28, ROCm 6.3: a list of ``{"gpu": N, "asic": {...}}``; ROCm 6.4+ wraps it in
``{"gpu_data": [...]}``): no public real recording was found (see the README).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import tcfg
from tcfg_rocm.amd_smi import parse_amd_smi
from tcfg_rocm.detect import parse_rocminfo

from .conftest import FIXTURES

MI300X = (FIXTURES / "rocminfo-8x-mi300x-gfx942.txt").read_text()


def test_real_mi300x_rocminfo(reg: tcfg.Registry) -> None:
    [gpu] = parse_rocminfo(MI300X)  # agents 1 and 2 are the two Xeon sockets
    assert (gpu.node, gpu.processor, gpu.compute_units) == (3, "gfx942", 304)
    [target] = reg.detect(sources={"rocminfo": MI300X})
    assert target.kind.name == "rocm" and target.attrs["mcpu"] == "gfx942"
    assert target.attrs["multi_processor_count"] == 304
    assert target.features.wavefront_size == 64
    assert tcfg.Target(str(target), registry=reg) == target


def _asic(name: str = "AMD Instinct MI300X", version: Any = "gfx942", units: Any = 304) -> dict[str, Any]:
    return {
        "market_name": name,
        "vendor_id": "0x1002",
        "vendor_name": "Advanced Micro Devices Inc. [AMD/ATI]",
        "subvendor_id": "0x1002",
        "device_id": "0x74a1",
        "subsystem_id": "0x74a1",
        "rev_id": "0x00",
        "asic_serial": "N/A",
        "oam_id": 0,
        "num_compute_units": units,
        "target_graphics_version": version,
    }


def _smi(*asics: dict[str, Any], wrapped: bool = False) -> str:
    gpus = [{"gpu": index, "asic": asic} for index, asic in enumerate(asics)]
    return json.dumps({"gpu_data": gpus} if wrapped else gpus)


@pytest.mark.parametrize("wrapped", [False, True])
def test_amd_smi_both_shapes(reg: tcfg.Registry, wrapped: bool) -> None:
    text = _smi(_asic(), _asic("AMD Radeon RX 7900 XTX", "gfx1100", 96), wrapped=wrapped)
    found = reg.detect(sources={"amd-smi": text})
    assert [(t.attrs["mcpu"], t.attrs.get("multi_processor_count")) for t in found] == [
        ("gfx942", 304),
        ("gfx1100", 96),
    ]
    assert [t.features.wavefront_size for t in found] == [64, 32]


def test_amd_smi_without_compute_units() -> None:
    [gpu] = parse_amd_smi(_smi(_asic(units="N/A")))
    assert (gpu.processor, gpu.compute_units) == ("gfx942", None)


def test_rocminfo_and_amd_smi_of_one_machine_give_each_gpu_once(reg: tcfg.Registry) -> None:
    found = reg.detect(sources={"rocminfo": MI300X, "amd-smi": _smi(_asic())})
    assert [t.attrs["mcpu"] for t in found] == ["gfx942"]
    with pytest.raises(
        tcfg.TargetError, match=r"rocminfo lists GPUs \['gfx942'\] and the recorded amd-smi \['gfx90a'\]"
    ):
        reg.detect(sources={"rocminfo": MI300X, "amd-smi": _smi(_asic(version="gfx90a"))})


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            "GPU: 0\n    ASIC:\n        MARKET_NAME: MI308X\n",
            r"recorded amd-smi: line 1: not JSON .*amd-smi static --json",
        ),
        ('{"gpus": []}', r"the top level is dict: expected .* a list of GPUs"),
        ('[{"gpu": 0, "bus": {}}]', r"GPU 0 has no 'asic' block"),
        (_smi(_asic(version="N/A")), r"GPU 0 asic.target_graphics_version is 'N/A', not a gfx processor name"),
        (_smi(_asic(name="AMD Instinct MI300X", version="gfx941")), r"GPU 0 \(AMD Instinct MI300X\) is gfx941, which"),
    ],
)
def test_bad_amd_smi_is_a_target_error(reg: tcfg.Registry, text: str, match: str) -> None:
    with pytest.raises(tcfg.TargetError, match=match):
        reg.detect(sources={"amd-smi": text})
