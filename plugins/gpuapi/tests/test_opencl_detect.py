"""OpenCL detection: a recorded ``clinfo --json`` of PoCL (Debian pocl-opencl-icd 3.1), bad
recordings, and the real clinfo when installed."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

import tcfg
from tcfg_gpuapi.clinfo import detect_opencl, opencl_devices

from .conftest import FIXTURES, fixture_json, tool

#: Recorded on the CI machine (Debian 12, clinfo 3.0.23.01.25, pocl-opencl-icd 3.1-3+deb12u1), 2026-11-26.
FIXTURE = "clinfo-pocl-3.1-debian.json"


def _device(document: dict[str, Any]) -> dict[str, Any]:
    device: dict[str, Any] = document["devices"][0]["online"][0]
    return device


def test_recorded_pocl(reg: tcfg.Registry) -> None:
    document = fixture_json(FIXTURE)
    device = _device(document)
    [spec] = opencl_devices(json.dumps(document))
    t = tcfg.Target(spec, registry=reg)
    assert t.kind.name == "opencl"
    assert t.attrs["max_threads_per_block"] == device["CL_DEVICE_MAX_WORK_GROUP_SIZE"] == 4096
    assert t.attrs["max_num_threads"] == 4096  # follows the block limit
    assert t.attrs["max_shared_memory_per_block"] == device["CL_DEVICE_LOCAL_MEM_SIZE"]
    assert t.attrs["texture_spatial_limit"] == device["CL_DEVICE_IMAGE2D_MAX_WIDTH"]
    assert t.attrs["texture_depth_limit"] == device["CL_DEVICE_IMAGE_MAX_ARRAY_SIZE"]
    assert t.attrs["max_function_args"] == device["CL_DEVICE_MAX_CONSTANT_ARGS"]
    # CL_DEVICE_OPENCL_C_VERSION says 1.2 (the backwards-compatible one); OpenCL 3.0 lists C 3.0 too.
    assert device["CL_DEVICE_OPENCL_C_VERSION"].startswith("OpenCL C 1.2")
    assert t.features.opencl_c_version == "3.0"
    assert t.attrs["device_type"] == "cpu"
    assert t.attrs["device_name"] == device["CL_DEVICE_NAME"]
    assert t.attrs["platform_name"] == document["platforms"][0]["CL_PLATFORM_NAME"]
    assert t.attrs["vendor_id"] == device["CL_DEVICE_VENDOR_ID"]
    assert tcfg.Target(str(t), registry=reg) == t


def test_recorded_through_public_detect() -> None:
    text = (FIXTURES / FIXTURE).read_text()
    found = [t for t in tcfg.detect(sources={"clinfo": text}) if t.kind.name == "opencl"]
    assert [t.attrs["device_name"] for t in found] == [_device(json.loads(text))["CL_DEVICE_NAME"]]


def _gpu(**changes: Any) -> str:
    document = fixture_json(FIXTURE)
    device = _device(document)
    device.update({"CL_DEVICE_TYPE": {"raw": 4, "type": ["CL_DEVICE_TYPE_GPU"]}}, **changes)
    return json.dumps(document)


def test_gpu_type_and_version_rules() -> None:
    [discrete] = opencl_devices(_gpu(CL_DEVICE_HOST_UNIFIED_MEMORY=False))
    assert discrete["device_type"] == "discrete"
    [integrated] = opencl_devices(_gpu(CL_DEVICE_HOST_UNIFIED_MEMORY=True))
    assert integrated["device_type"] == "integrated"
    [old] = opencl_devices(_gpu(CL_DEVICE_OPENCL_C_VERSION="OpenCL C 2.1 ", CL_DEVICE_OPENCL_C_ALL_VERSIONS=None))
    assert old["opencl_c_version"] == "2.0"  # the newest tcfg compiles as, not newer than the device
    [gone] = opencl_devices(_gpu(CL_DEVICE_AVAILABLE=False)) or [None]
    assert gone is None


def test_discrete_before_cpu_device() -> None:
    text = _gpu(CL_DEVICE_HOST_UNIFIED_MEMORY=False)
    document = json.loads(text)
    document["platforms"].append(fixture_json(FIXTURE)["platforms"][0])
    document["devices"].insert(0, fixture_json(FIXTURE)["devices"][0])  # the CPU device first
    found = tcfg.detect(sources={"clinfo": json.dumps(document)})
    assert [t.attrs["device_type"] for t in found if t.kind.name == "opencl"] == ["discrete", "cpu"]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("clinfo output\n", r"recorded clinfo: line 1: not JSON.*clinfo --json"),
        ("{}", r"top level: no 'platforms' list"),
        ('{"platforms": [{}], "devices": []}', r"'devices': expected one entry per platform"),
        (
            '{"platforms": [{}], "devices": [{"online": 3}]}',
            r"devices\[0\]: .* has no 'online' device list",
        ),
        (_gpu(CL_DEVICE_MAX_WORK_GROUP_SIZE="many"), r"online\[0\] CL_DEVICE_MAX_WORK_GROUP_SIZE: 'many' is not"),
        (_gpu(CL_DEVICE_TYPE={"raw": 4}), r"CL_DEVICE_TYPE: .* has no 'type' list"),
        (
            _gpu(CL_DEVICE_OPENCL_C_VERSION="OpenCL 1.1", CL_DEVICE_OPENCL_C_ALL_VERSIONS=None),
            r"CL_DEVICE_OPENCL_C_VERSION: 'OpenCL 1.1' does not start 'OpenCL C X.Y'",
        ),
        (_gpu(CL_DEVICE_NAME=""), r"CL_DEVICE_NAME: '' is not a device name"),
    ],
)
def test_bad_recording_is_a_target_error(text: str, match: str) -> None:
    with pytest.raises(tcfg.TargetError, match=match):
        tcfg.detect(sources={"clinfo": text})


def test_no_clinfo_is_no_device() -> None:
    assert detect_opencl("no-such-clinfo-here") == []


def test_real_clinfo(reg: tcfg.Registry) -> None:
    path = tool("clinfo", "Debian clinfo, with pocl-opencl-icd for an OpenCL device on the CPU")
    raw = subprocess.run([path, "--json"], capture_output=True, text=True, timeout=60, check=False).stdout
    names = [
        dev["CL_DEVICE_NAME"]
        for group in json.loads(raw or '{"devices": []}')["devices"]
        for dev in group.get("online", [])
        if dev.get("CL_DEVICE_AVAILABLE") is not False
    ]
    if not names:
        pytest.skip("clinfo finds no OpenCL device here (no ICD such as pocl-opencl-icd)")
    found = detect_opencl()
    assert [spec["device_name"] for spec in found] == [n.strip() for n in names]
    for spec in found:
        t = tcfg.Target(spec, registry=reg)
        assert tcfg.Target(t.export(), registry=reg) == t
    detected = [t for t in reg.detect() if t.kind.name == "opencl"]
    assert [t.attrs["device_name"] for t in detected] == [spec["device_name"] for spec in found]
