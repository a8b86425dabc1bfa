"""The CUDA compilers this machine has: ``nvcc`` (PATH or /usr/local/cuda/bin) and NVRTC (pip wheels).

Both compile CUDA C++ to PTX. NVRTC comes from the ``nvidia-cuda-nvrtc`` (CUDA 13) or
``nvidia-cuda-nvrtc-cu12`` (CUDA 12) wheels, which work without a GPU; it is found and
loaded (through ctypes) only when called.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from tcfg.plugin import TargetError

__all__ = ["Nvcc", "Nvrtc", "find_nvcc", "find_nvrtc", "parse_version"]

Version = tuple[int, int]


def parse_version(text: str) -> Version:
    """``"12.9"`` -> ``(12, 9)``."""
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


@dataclass(frozen=True)
class Nvcc:
    """An installed nvcc and its CUDA release."""

    path: str
    release: Version

    def compile_ptx(self, source: str, options: list[str]) -> str:
        """PTX for ``source`` compiled with ``options`` (``-arch=compute_80``); errors raise TargetError."""
        with tempfile.TemporaryDirectory(prefix="tcfg-cuda-") as tmp:
            src = os.path.join(tmp, "kernel.cu")
            out = os.path.join(tmp, "kernel.ptx")
            with open(src, "w", encoding="utf-8") as handle:
                handle.write(source)
            run = subprocess.run(
                [self.path, "--ptx", *options, src, "-o", out],
                capture_output=True,
                text=True,
                check=False,
            )
            if run.returncode != 0:
                raise TargetError(f"nvcc {_dotted(self.release)} could not compile the source:\n{run.stderr.strip()}")
            with open(out, encoding="utf-8") as handle:
                return handle.read()


@functools.cache
def find_nvcc() -> Nvcc | None:
    """nvcc on PATH, else in /usr/local/cuda/bin; None when neither exists."""
    path = shutil.which("nvcc") or shutil.which("nvcc", path="/usr/local/cuda/bin")
    if path is None:
        return None
    text = subprocess.run([path, "--version"], capture_output=True, text=True, check=False).stdout
    match = re.search(r"release (\d+)\.(\d+)", text)
    if match is None:
        return None
    return Nvcc(path, (int(match.group(1)), int(match.group(2))))


@dataclass(frozen=True)
class Nvrtc:
    """An NVRTC shared library and its CUDA release."""

    path: str
    release: Version

    def compile_ptx(self, source: str, options: list[str]) -> str:
        """PTX for ``source`` compiled with NVRTC ``options``; compile errors raise TargetError."""
        lib = ctypes.CDLL(self.path)
        program = ctypes.c_void_p()
        self._check(lib, lib.nvrtcCreateProgram(ctypes.byref(program), source.encode(), b"kernel.cu", 0, None, None))
        try:
            args = [o.encode() for o in options]
            array = (ctypes.c_char_p * len(args))(*args)
            status = lib.nvrtcCompileProgram(program, len(args), array)
            if status != 0:
                size = ctypes.c_size_t()
                lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
                log = ctypes.create_string_buffer(size.value)
                lib.nvrtcGetProgramLog(program, log)
                raise TargetError(
                    f"NVRTC {_dotted(self.release)} could not compile the source:\n"
                    + log.value.decode(errors="replace").strip()
                )
            size = ctypes.c_size_t()
            self._check(lib, lib.nvrtcGetPTXSize(program, ctypes.byref(size)))
            ptx = ctypes.create_string_buffer(size.value)
            self._check(lib, lib.nvrtcGetPTX(program, ptx))
            return ptx.value.decode()
        finally:
            lib.nvrtcDestroyProgram(ctypes.byref(program))

    @staticmethod
    def _check(lib: ctypes.CDLL, status: int) -> None:
        if status != 0:
            lib.nvrtcGetErrorString.restype = ctypes.c_char_p
            raise TargetError(f"NVRTC failed: {lib.nvrtcGetErrorString(status).decode()}")


def _nvrtc_libraries() -> list[str]:
    try:
        import nvidia
    except ImportError:
        return []
    found: list[str] = []
    for root in nvidia.__path__:
        found += glob.glob(os.path.join(root, "**", "libnvrtc.so.*"), recursive=True)
        found += glob.glob(os.path.join(root, "**", "nvrtc64_*.dll"), recursive=True)
    return sorted(p for p in found if "builtins" not in os.path.basename(p) and ".alt." not in p)


@functools.cache
def find_nvrtc() -> tuple[Nvrtc, ...]:
    """Every NVRTC installed from NVIDIA's wheels, newest release first."""
    libraries = []
    for path in _nvrtc_libraries():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        major, minor = ctypes.c_int(), ctypes.c_int()
        if lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)) == 0:
            libraries.append(Nvrtc(path, (major.value, minor.value)))
    return tuple(sorted(libraries, key=lambda n: n.release, reverse=True))


def _dotted(version: Version) -> str:
    return f"{version[0]}.{version[1]}"
