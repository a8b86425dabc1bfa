"""Find this machine's AMD GPUs in the amdkfd topology (``/sys/class/kfd/kfd/topology/nodes``).

Each node directory has a ``properties`` file of ``key value`` lines. GPU nodes have a
non-zero ``gfx_target_version`` (``90010`` is gfx90a: major 9, minor 0, stepping 10,
the last two written in hex), ``simd_count`` and ``simd_per_cu`` (their quotient is the
compute units); CPU nodes have ``gfx_target_version 0``. Without the directory (no
amdgpu driver, not Linux) there is nothing to report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tcfg.plugin import TargetError
from tcfg_rocm.facts import processor_names

__all__ = ["KFD_NODES", "GpuNode", "check_known", "detect_gpus", "gfx_name", "parse_rocminfo"]

KFD_NODES = Path("/sys/class/kfd/kfd/topology/nodes")


@dataclass(frozen=True)
class GpuNode:
    """One GPU node: its processor and compute units."""

    node: int
    processor: str
    compute_units: int | None

    def spec(self) -> dict[str, Any]:
        """The rocm target of this GPU."""
        spec: dict[str, Any] = {"kind": "rocm", "mcpu": self.processor}
        if self.compute_units:
            spec["multi_processor_count"] = self.compute_units
        return spec


def gfx_name(version: int) -> str:
    """``gfx_target_version`` as a processor name: 90010 -> gfx90a, 110000 -> gfx1100."""
    major, minor, stepping = version // 10000, version // 100 % 100, version % 100
    return f"gfx{major}{minor:x}{stepping:x}"


def _properties(path: Path) -> dict[str, int]:
    found = {}
    for line in path.read_text(encoding="ascii", errors="replace").splitlines():
        key, _, value = line.strip().partition(" ")
        if value.strip().lstrip("-").isdigit():
            found[key] = int(value)
    return found


def check_known(name: str, what: str) -> None:
    """Refuse a processor LLVM 22 does not know, saying ``what`` it is (where it was read)."""
    if name not in processor_names():
        raise TargetError(
            f"{what}, which this version of tcfg-plugin-rocm (LLVM 22's AMDGPU processors) does not know; "
            "upgrade it, or give -mcpu explicitly"
        )


_AGENT = re.compile(r"^\*+\s*\n\s*Agent (\d+)\s*\n\*+\s*$", re.MULTILINE)
_FIELD = re.compile(r"^  (Name|Device Type|Compute Unit|Marketing Name):\s*(.*?)\s*$", re.MULTILINE)


def parse_rocminfo(text: str) -> list[GpuNode]:
    """The GPU agents of a recorded ``rocminfo`` output, in agent order (CPU agents left out).

    Each agent's own ``Name`` (``gfx942``), ``Device Type`` and ``Compute Unit`` lines are
    read (the two-space-indented ones; the ISA names further in are not). A GPU whose
    processor LLVM 22 does not know is a :class:`TargetError`, as for the live machine.
    """
    found = []
    starts = list(_AGENT.finditer(text))
    for index, start in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        fields: dict[str, str] = {}
        for key, value in _FIELD.findall(text[start.end() : end]):
            fields.setdefault(key, value)
        if fields.get("Device Type") != "GPU":
            continue
        name = fields.get("Name", "")
        if not re.fullmatch(r"gfx[0-9a-f]+", name):
            raise TargetError(f"rocminfo agent {start.group(1)} is a GPU named {name!r}, not a gfx processor")
        check_known(name, f"rocminfo agent {start.group(1)} ({fields.get('Marketing Name', '?')}) is {name}")
        units = fields.get("Compute Unit", "")
        found.append(GpuNode(int(start.group(1)), name, int(units) if units.isdigit() else None))
    return found


def detect_gpus(root: Path = KFD_NODES) -> list[GpuNode]:
    """The GPU nodes under ``root``, in node order; [] when ``root`` does not exist.

    A GPU whose processor this plugin does not know is a :class:`TargetError` (upgrade it).
    """
    if not root.is_dir():
        return []
    found = []
    nodes = sorted((p for p in root.iterdir() if p.name.isdigit()), key=lambda p: int(p.name))
    for node in nodes:
        try:
            props = _properties(node / "properties")
        except OSError:
            continue
        version = props.get("gfx_target_version", 0)
        if version == 0:
            continue
        name = gfx_name(version)
        check_known(name, f"the GPU of amdkfd node {node.name} is {name} (gfx_target_version {version})")
        simds, per_cu = props.get("simd_count", 0), props.get("simd_per_cu", 0)
        found.append(GpuNode(int(node.name), name, simds // per_cu if simds and per_cu else None))
    return found
