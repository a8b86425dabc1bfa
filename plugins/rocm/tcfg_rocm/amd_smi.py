"""AMD GPUs from a recorded ``amd-smi static --json`` (``amd-smi static --asic --json`` is enough).

amd-smi of ROCm 6.3 writes a list with one object per GPU, ``[{"gpu": 0, "asic": {...},
...}]``; later versions wrap that list as ``{"gpu_data": [...]}``. Both are read. Of each
GPU's ``asic`` block, ``target_graphics_version`` (``gfx942``; added to amd-smi in ROCm
6.3) names the processor and ``num_compute_units`` (a count, or ``"N/A"``) gives
``multi_processor_count``; ``market_name`` names the GPU in errors. A processor LLVM 22
does not know is a :class:`TargetError`, as for ``rocminfo`` and the live machine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from tcfg.plugin import TargetError
from tcfg_rocm.detect import GpuNode, check_known

__all__ = ["parse_amd_smi"]

_EXPECTED = "expected the output of amd-smi static --json (ROCm 6.3 or newer)"


def _gpus(document: Any, source: str) -> list[Any]:
    if isinstance(document, Mapping) and "gpu_data" in document:
        document = document["gpu_data"]
    if not isinstance(document, list):
        raise TargetError(f"{source}: the top level is {type(document).__name__}: {_EXPECTED}, a list of GPUs")
    return document


def parse_amd_smi(text: str, source: str = "recorded amd-smi") -> list[GpuNode]:
    """The GPUs of a recorded ``amd-smi static --json``, in the order amd-smi lists them.

    Raises :class:`TargetError` naming ``source``, the GPU and the field for text that is
    not amd-smi's JSON, a GPU without ``asic.target_graphics_version``, a version that is not a
    gfx processor name, or a processor LLVM 22 does not know.
    """
    try:
        document = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", "?")
        raise TargetError(f"{source}: line {line}: not JSON ({exc}); {_EXPECTED}") from None
    found = []
    for index, gpu in enumerate(_gpus(document, source)):
        asic = gpu.get("asic") if isinstance(gpu, Mapping) else None
        number = gpu.get("gpu", index) if isinstance(gpu, Mapping) else index
        if not isinstance(asic, Mapping):
            raise TargetError(f"{source}: GPU {number} has no 'asic' block: {_EXPECTED} (amd-smi static --asic)")
        version = asic.get("target_graphics_version")
        name = version.strip().lower() if isinstance(version, str) else ""
        if not re.fullmatch(r"gfx[0-9a-f]+", name):
            raise TargetError(
                f"{source}: GPU {number} asic.target_graphics_version is {version!r}, not a gfx processor "
                f"name such as 'gfx942': {_EXPECTED}"
            )
        check_known(name, f"{source}: GPU {number} ({asic.get('market_name', '?')}) is {name}")
        units = asic.get("num_compute_units")
        count = units if isinstance(units, int) and not isinstance(units, bool) and units > 0 else None
        found.append(GpuNode(int(number) if isinstance(number, int) else index, name, count))
    return found
