"""Find this machine's Vulkan devices with ``vulkaninfo`` (Vulkan-Tools).

``vulkaninfo --summary`` lists the devices (``GPU0:``, ``GPU1:``, ...); ``vulkaninfo
--json=N -o FILE`` writes device N as Vulkan Profiles JSON (vulkaninfo 1.3.2xx writes
the file in the working directory even without ``-o``, so it runs in a temporary one),
which :func:`tcfg_gpuapi.vkprofile.device_attrs` reads. No vulkaninfo, or no device, is
an empty list; a device whose report cannot be read is a :class:`TargetError`.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tcfg.plugin import TargetError
from tcfg_gpuapi.vkprofile import device_attrs

__all__ = ["detect_vulkan", "device_count"]

_TIMEOUT = 60


def device_count(summary: str) -> int:
    """How many devices ``vulkaninfo --summary`` lists."""
    return len(set(re.findall(r"^GPU(\d+):", summary, re.MULTILINE)))


def _run(args: list[str], cwd: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(args, capture_output=True, text=True, cwd=cwd, timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise TargetError(f"{' '.join(args)} failed: {exc}") from exc


def detect_vulkan(vulkaninfo: str = "vulkaninfo") -> list[dict[str, Any]]:
    """A vulkan target dict per device ``vulkaninfo`` reports (empty without vulkaninfo or devices)."""
    tool = shutil.which(vulkaninfo)
    if tool is None:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        summary = _run([tool, "--summary"], tmp)
        if summary.returncode != 0:
            return []  # no loader, no ICD: no Vulkan device here
        found = []
        for index in range(device_count(summary.stdout)):
            out = Path(tmp) / f"gpu{index}.json"
            done = _run([tool, f"--json={index}", "-o", str(out)], tmp)
            if done.returncode != 0 or not out.exists():
                raise TargetError(f"vulkaninfo --json={index} failed: {done.stderr.strip()[-500:]}")
            try:
                profile = json.loads(out.read_text())
            except ValueError as exc:
                raise TargetError(f"vulkaninfo --json={index} wrote no JSON: {exc}") from exc
            found.append(device_attrs(profile))
    return found
