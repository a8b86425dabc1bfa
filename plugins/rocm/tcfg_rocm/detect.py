"""Find this machine's AMD GPUs in the amdkfd topology (``/sys/class/kfd/kfd/topology/nodes``).

Each node directory has a ``properties`` file of ``key value`` lines. GPU nodes have a
non-zero ``gfx_target_version`` (``90010`` is gfx90a: major 9, minor 0, stepping 10,
the last two written in hex), ``simd_count`` and ``simd_per_cu`` (their quotient is the
compute units); CPU nodes have ``gfx_target_version 0``. Without the directory (no
amdgpu driver, not Linux) there is nothing to report.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tcfg.plugin import TargetError
from tcfg_rocm.facts import processor_names

__all__ = ["KFD_NODES", "GpuNode", "detect_gpus", "gfx_name"]

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
        if name not in processor_names():
            raise TargetError(
                f"the GPU of amdkfd node {node.name} is {name} (gfx_target_version {version}), which this "
                "version of tcfg-plugin-rocm does not know; upgrade it, or give -mcpu explicitly"
            )
        simds, per_cu = props.get("simd_count", 0), props.get("simd_per_cu", 0)
        found.append(GpuNode(int(node.name), name, simds // per_cu if simds and per_cu else None))
    return found
