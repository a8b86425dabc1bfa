"""Find the NVIDIA GPUs of this machine: CUDA driver API, then NVML, then ``nvidia-smi``.

Each source answers with a list of :class:`GpuInfo` (possibly empty: the source works
and there is no GPU), or ``None`` when the source itself is unavailable (no driver
library, ``nvidia-ml-py`` not installed, no ``nvidia-smi``); the first source that
answers wins. The CUDA driver (``libcuda``, through ctypes) reports everything; NVML and
``nvidia-smi`` do not report the L2 size (NVML may not report the SM count), which are
then taken from the known GPU whose driver name matches, or left unset. Nothing is
guessed: with no GPU, ``-arch=native`` raises a :class:`TargetError` that says what
was tried.
"""

from __future__ import annotations

import csv
import ctypes
import functools
import io
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tcfg.plugin import TargetError
from tcfg_cuda.facts import arch_names

__all__ = [
    "DRIVER_ATTRIBUTES",
    "GpuInfo",
    "detect_gpus",
    "gpu_from_driver",
    "native_gpu",
    "parse_nvidia_smi",
]

#: CUdevice_attribute values (cuda.h) that detection reads, by the target attribute they fill.
DRIVER_ATTRIBUTES = {
    "max_threads_per_block": 1,
    "max_shared_memory_per_block": 8,
    "thread_warp_size": 10,
    "registers_per_block": 12,
    "multi_processor_count": 16,
    "l2_cache_size_bytes": 38,
    "compute_capability_major": 75,
    "compute_capability_minor": 76,
    "max_shared_memory_per_block_optin": 97,
}
_CUDA_ERROR_NO_DEVICE = 100
NVIDIA_SMI_FIELDS = "index,name,compute_cap,memory.total"


@dataclass(frozen=True)
class GpuInfo:
    """One GPU as a source reported it; ``limits`` holds the other target attributes it gave."""

    name: str
    arch: str
    source: str
    multi_processor_count: int | None = None
    global_memory_bytes: int | None = None
    l2_cache_size_bytes: int | None = None
    limits: tuple[tuple[str, int], ...] = ()

    def attrs(self) -> dict[str, Any]:
        """The cuda target attributes this GPU fills (besides ``arch``)."""
        out: dict[str, Any] = {"model": self.name, **dict(self.limits)}
        for key in ("multi_processor_count", "global_memory_bytes", "l2_cache_size_bytes"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    def spec(self) -> dict[str, Any]:
        """The target dict for this GPU."""
        return {"kind": "cuda", "arch": self.arch, **self.attrs()}


def _arch_for(name: str, major: int, minor: int) -> str:
    """The arch for a device: the arch-specific variant when there is one (the code is for this device)."""
    known = set(arch_names())
    for candidate in (f"sm_{major}{minor}a", f"sm_{major}{minor}"):
        if candidate in known:
            return candidate
    raise TargetError(
        f"the GPU {name!r} has compute capability {major}.{minor}, which this version of "
        "tcfg-plugin-cuda does not know; upgrade it, or give -arch explicitly"
    )


def _complete(gpu: GpuInfo) -> GpuInfo:
    """Fill the SM count and L2 size a source did not report from the known GPU of that name."""
    if gpu.multi_processor_count is not None and gpu.l2_cache_size_bytes is not None:
        return gpu
    from tcfg_cuda.tags import gpu_by_device_name

    known = gpu_by_device_name(gpu.name)
    if known is None:
        return gpu
    return GpuInfo(
        gpu.name,
        gpu.arch,
        gpu.source,
        gpu.multi_processor_count if gpu.multi_processor_count is not None else known.get("sm_count"),
        gpu.global_memory_bytes,
        gpu.l2_cache_size_bytes if gpu.l2_cache_size_bytes is not None else known.get("l2_bytes"),
        gpu.limits,
    )


def gpu_from_driver(name: str, attributes: Mapping[int, int], total_memory: int) -> GpuInfo:
    """A GPU from CUDA driver API answers: ``cuDeviceGetAttribute`` values by attribute number."""
    major = attributes[DRIVER_ATTRIBUTES["compute_capability_major"]]
    minor = attributes[DRIVER_ATTRIBUTES["compute_capability_minor"]]
    limits = tuple(
        (key, attributes[number])
        for key, number in DRIVER_ATTRIBUTES.items()
        if key
        in (
            "max_threads_per_block",
            "max_shared_memory_per_block",
            "thread_warp_size",
            "registers_per_block",
            "max_shared_memory_per_block_optin",
        )
    )
    return GpuInfo(
        name,
        _arch_for(name, major, minor),
        "CUDA driver",
        attributes[DRIVER_ATTRIBUTES["multi_processor_count"]],
        total_memory,
        attributes[DRIVER_ATTRIBUTES["l2_cache_size_bytes"]],
        limits,
    )


def _read_driver() -> list[GpuInfo] | None:
    names = {"win32": "nvcuda.dll", "darwin": None}.get(sys.platform, "libcuda.so.1")
    if names is None:
        return None
    try:
        lib = ctypes.CDLL(names)
    except OSError:
        return None
    status = lib.cuInit(0)
    if status == _CUDA_ERROR_NO_DEVICE:
        return []
    if status != 0:
        raise TargetError(f"the CUDA driver is installed but cuInit failed with CUresult {status}")
    count = ctypes.c_int()
    lib.cuDeviceGetCount(ctypes.byref(count))
    found = []
    for index in range(count.value):
        device = ctypes.c_int()
        lib.cuDeviceGet(ctypes.byref(device), index)
        buffer = ctypes.create_string_buffer(256)
        lib.cuDeviceGetName(buffer, 256, device)
        values = {}
        for number in DRIVER_ATTRIBUTES.values():
            value = ctypes.c_int()
            lib.cuDeviceGetAttribute(ctypes.byref(value), number, device)
            values[number] = value.value
        memory = ctypes.c_size_t()
        lib.cuDeviceTotalMem_v2(ctypes.byref(memory), device)
        found.append(gpu_from_driver(buffer.value.decode(errors="replace"), values, memory.value))
    return found


def _read_nvml() -> list[GpuInfo] | None:
    try:
        import pynvml
    except ImportError:
        return None
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        return None
    try:
        found = []
        for index in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(index)
            name = pynvml.nvmlDeviceGetName(handle)
            name = name.decode() if isinstance(name, bytes) else str(name)
            major, minor = pynvml.nvmlDeviceGetCudaComputeCapability(handle)
            memory = int(pynvml.nvmlDeviceGetMemoryInfo(handle).total)
            try:
                sms: int | None = int(pynvml.nvmlDeviceGetAttributes(handle).multiprocessorCount)
            except pynvml.NVMLError:
                sms = None
            found.append(_complete(GpuInfo(name, _arch_for(name, major, minor), "NVML", sms, memory)))
        return found
    except pynvml.NVMLError as exc:
        raise TargetError(f"NVML found NVIDIA GPUs but could not read them: {exc}") from None
    finally:
        pynvml.nvmlShutdown()


def parse_nvidia_smi(text: str) -> list[GpuInfo]:
    """GPUs from ``nvidia-smi --query-gpu=... --format=csv`` output (with its header line).

    Columns are found by name, so any field order works; ``name`` and ``compute_cap``
    are required, ``memory.total`` (MiB) is used when present.
    """
    rows = list(csv.reader(io.StringIO(text.strip()), skipinitialspace=True))
    if not rows:
        return []
    header = [column.split(" [", 1)[0].strip() for column in rows[0]]
    missing = [c for c in ("name", "compute_cap") if c not in header]
    if missing:
        raise TargetError(f"nvidia-smi output lacks the columns {missing}: {text.strip()[:200]!r}")
    found = []
    for row in rows[1:]:
        if not row:
            continue
        cells = dict(zip(header, (cell.strip() for cell in row), strict=False))
        name = cells["name"]
        try:
            major, minor = (int(part) for part in cells["compute_cap"].split("."))
        except ValueError:
            raise TargetError(f"nvidia-smi reports compute_cap {cells['compute_cap']!r} for {name!r}") from None
        memory = cells.get("memory.total", "").removesuffix("MiB").strip()
        megabytes = int(memory) if memory.isdigit() else None
        memory_bytes = None if megabytes is None else megabytes << 20
        gpu = GpuInfo(name, _arch_for(name, major, minor), "nvidia-smi", None, memory_bytes)
        found.append(_complete(gpu))
    return found


def _read_nvidia_smi() -> list[GpuInfo] | None:
    tool = shutil.which("nvidia-smi")
    if tool is None:
        return None
    run = subprocess.run(
        [tool, f"--query-gpu={NVIDIA_SMI_FIELDS}", "--format=csv,nounits"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    output = (run.stdout + run.stderr).strip()
    if "No devices were found" in output:
        return []
    if run.returncode != 0:
        if "is not a valid field" in output:
            raise TargetError(f"this driver's nvidia-smi cannot report compute_cap (driver too old?): {output[:200]}")
        raise TargetError(f"nvidia-smi failed (exit status {run.returncode}): {output[:300]}")
    return parse_nvidia_smi(run.stdout)


_SOURCES = (
    ("the CUDA driver (libcuda)", _read_driver),
    ("NVML (pip install nvidia-ml-py)", _read_nvml),
    ("nvidia-smi", _read_nvidia_smi),
)


def detect_gpus(sources: Sequence[tuple[str, Any]] = _SOURCES) -> tuple[list[GpuInfo], list[str]]:
    """This machine's GPUs from the first source that answers, and the sources that could not."""
    unavailable: list[str] = []
    for label, read in sources:
        found = read()
        if found is not None:
            return found, unavailable
        unavailable.append(label)
    return [], unavailable


@functools.cache
def native_gpu() -> GpuInfo:
    """The first GPU of this machine (as CUDA numbers them), for ``-arch=native``; asked once."""
    found, unavailable = detect_gpus()
    if not found:
        tried = "; ".join(f"{label}: unavailable" for label in unavailable) or "the driver reports no device"
        raise TargetError(
            f"-arch=native: no NVIDIA GPU found on this machine ({tried}); give an arch such as -arch=sm_80"
        )
    return found[0]
