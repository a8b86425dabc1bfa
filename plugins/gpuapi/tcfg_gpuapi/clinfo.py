"""OpenCL devices from ``clinfo --json`` (clinfo 3.0+), live or recorded.

``clinfo --json`` writes ``{"platforms": [...], "devices": [{"online": [...]}, ...],
"icd_loader": {...}}``: ``devices[i]`` holds platform ``i``'s devices, each a mapping of
``CL_DEVICE_*`` query names to values. Each device becomes an ``opencl`` target dict:

- ``max_threads_per_block``: ``CL_DEVICE_MAX_WORK_GROUP_SIZE``;
- ``max_shared_memory_per_block``: ``CL_DEVICE_LOCAL_MEM_SIZE``;
- ``texture_spatial_limit``: the smaller of ``CL_DEVICE_IMAGE2D_MAX_WIDTH``/``HEIGHT``,
  ``texture_depth_limit``: ``CL_DEVICE_IMAGE_MAX_ARRAY_SIZE`` (devices with images only);
- ``max_function_args``: ``CL_DEVICE_MAX_CONSTANT_ARGS`` (the kind's documented source);
- ``image_base_address_alignment``: ``CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT`` when nonzero;
- ``opencl_c_version``: the newest version tcfg compiles as (1.2, 2.0, 3.0) that the device
  lists in ``CL_DEVICE_OPENCL_C_ALL_VERSIONS`` (OpenCL 3.0) or ``CL_DEVICE_OPENCL_C_VERSION``;
- ``device_type``: ``CL_DEVICE_TYPE`` (a GPU sharing host memory,
  ``CL_DEVICE_HOST_UNIFIED_MEMORY``, is ``integrated``, otherwise ``discrete``; CPU devices
  such as PoCL are ``cpu``, accelerators ``other``), and ``device_name``, ``vendor_id``,
  ``driver_version``, ``platform_name`` as reported.

Devices that are not ``CL_DEVICE_AVAILABLE`` are left out. No clinfo, or clinfo
finding no platform, is an empty list; a document that is not clinfo's JSON is a
:class:`TargetError` naming the source, the part and what was expected.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Mapping
from typing import Any

from tcfg.plugin import TargetError
from tcfg_gpuapi.kind import OPENCL_C_VERSIONS

__all__ = ["detect_opencl", "opencl_devices"]

_TIMEOUT = 60
_VERSION = re.compile(r"OpenCL C (\d+)\.(\d+)")


def _fail(source: str, where: str, problem: str) -> TargetError:
    return TargetError(f"{source}: {where}: {problem} (expected clinfo --json output: clinfo 3.0 or newer)")


def _int(device: Mapping[str, Any], field: str, source: str, where: str) -> int:
    value = device.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _fail(source, f"{where} {field}", f"{value!r} is not a count (a non-negative integer)")
    return value


def _c_version(device: Mapping[str, Any], source: str, where: str) -> str:
    """The newest of :data:`OPENCL_C_VERSIONS` the device compiles."""
    listed: list[tuple[int, int]] = []
    every = device.get("CL_DEVICE_OPENCL_C_ALL_VERSIONS")
    if isinstance(every, Mapping):
        for entry in every.values():
            text = entry.get("version") if isinstance(entry, Mapping) else None
            if isinstance(text, str) and re.fullmatch(r"\d+\.\d+(\.\d+)?", text):
                major, minor = text.split(".")[:2]
                listed.append((int(major), int(minor)))
    text = device.get("CL_DEVICE_OPENCL_C_VERSION")
    match = _VERSION.match(text) if isinstance(text, str) else None
    if match is None and not listed:
        raise _fail(source, f"{where} CL_DEVICE_OPENCL_C_VERSION", f"{text!r} does not start 'OpenCL C X.Y'")
    if match is not None:
        listed.append((int(match[1]), int(match[2])))
    usable = [v for v in OPENCL_C_VERSIONS if tuple(int(p) for p in v.split(".")) in listed]
    if not usable:
        best = max(listed)
        older = [v for v in OPENCL_C_VERSIONS if tuple(int(p) for p in v.split(".")) <= best]
        if not older:
            raise _fail(source, f"{where} OpenCL C version", f"{best[0]}.{best[1]} is older than OpenCL C 1.2")
        return older[-1]
    return usable[-1]


def _device_type(device: Mapping[str, Any], source: str, where: str) -> str:
    kind = device.get("CL_DEVICE_TYPE")
    names = kind.get("type") if isinstance(kind, Mapping) else None
    if not isinstance(names, list) or not names:
        raise _fail(source, f"{where} CL_DEVICE_TYPE", f"{kind!r} has no 'type' list (CL_DEVICE_TYPE_GPU, ...)")
    if "CL_DEVICE_TYPE_GPU" in names:
        return "integrated" if device.get("CL_DEVICE_HOST_UNIFIED_MEMORY") is True else "discrete"
    if "CL_DEVICE_TYPE_CPU" in names:
        return "cpu"
    return "other"


def _device_attrs(device: Mapping[str, Any], platform: str, source: str, where: str) -> dict[str, Any]:
    attrs: dict[str, Any] = {"kind": "opencl"}
    attrs["max_threads_per_block"] = _int(device, "CL_DEVICE_MAX_WORK_GROUP_SIZE", source, where)
    attrs["max_shared_memory_per_block"] = _int(device, "CL_DEVICE_LOCAL_MEM_SIZE", source, where)
    if device.get("CL_DEVICE_IMAGE_SUPPORT") is True:
        attrs["texture_spatial_limit"] = min(
            _int(device, "CL_DEVICE_IMAGE2D_MAX_WIDTH", source, where),
            _int(device, "CL_DEVICE_IMAGE2D_MAX_HEIGHT", source, where),
        )
        attrs["texture_depth_limit"] = _int(device, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE", source, where)
        if device.get("CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT"):
            attrs["image_base_address_alignment"] = _int(
                device, "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT", source, where
            )
    attrs["max_function_args"] = _int(device, "CL_DEVICE_MAX_CONSTANT_ARGS", source, where)
    attrs["opencl_c_version"] = _c_version(device, source, where)
    attrs["device_type"] = _device_type(device, source, where)
    name = device.get("CL_DEVICE_NAME")
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, f"{where} CL_DEVICE_NAME", f"{name!r} is not a device name")
    attrs["device_name"] = name.strip()
    if isinstance(device.get("CL_DEVICE_VENDOR_ID"), int):
        attrs["vendor_id"] = device["CL_DEVICE_VENDOR_ID"]
    if isinstance(device.get("CL_DRIVER_VERSION"), str) and device["CL_DRIVER_VERSION"].strip():
        attrs["driver_version"] = device["CL_DRIVER_VERSION"].strip()
    if platform:
        attrs["platform_name"] = platform
    return attrs


def opencl_devices(text: str, source: str = "clinfo --json") -> list[dict[str, Any]]:
    """An ``opencl`` target dict per available device in ``text``, the output of ``clinfo --json``.

    Raises :class:`TargetError` naming ``source``, the part that is wrong (``devices[0]
    online[1] CL_DEVICE_MAX_WORK_GROUP_SIZE``) and what clinfo writes there.
    """
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise _fail(source, f"line {exc.lineno}" if hasattr(exc, "lineno") else "text", f"not JSON ({exc})") from None
    if not isinstance(document, Mapping) or not isinstance(document.get("platforms"), list):
        raise _fail(source, "top level", "no 'platforms' list")
    groups = document.get("devices", [])
    if not isinstance(groups, list) or len(groups) != len(document["platforms"]):
        raise _fail(source, "'devices'", "expected one entry per platform, each {'online': [device, ...]}")
    found = []
    for index, (platform, group) in enumerate(zip(document["platforms"], groups, strict=True)):
        online = group.get("online", []) if isinstance(group, Mapping) else None
        if not isinstance(online, list):
            raise _fail(source, f"devices[{index}]", f"{group!r:.80} has no 'online' device list")
        name = platform.get("CL_PLATFORM_NAME", "") if isinstance(platform, Mapping) else ""
        for number, device in enumerate(online):
            where = f"devices[{index}] online[{number}]"
            if not isinstance(device, Mapping):
                raise _fail(source, where, f"{device!r:.80} is not a device (a mapping of CL_DEVICE_* queries)")
            if device.get("CL_DEVICE_AVAILABLE") is False:
                continue
            found.append(_device_attrs(device, name if isinstance(name, str) else "", source, where))
    return found


def detect_opencl(clinfo: str = "clinfo") -> list[dict[str, Any]]:
    """An ``opencl`` target dict per device ``clinfo --json`` finds here (empty without clinfo or platforms)."""
    tool = shutil.which(clinfo)
    if tool is None:
        return []
    try:
        done = subprocess.run([tool, "--json"], capture_output=True, text=True, timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise TargetError(f"clinfo --json failed: {exc}") from exc
    if done.returncode != 0 or not done.stdout.strip():
        return []  # no ICD loader or no platform: no OpenCL device here
    return opencl_devices(done.stdout, "clinfo --json (this machine)")
