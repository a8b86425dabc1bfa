"""Ask clang-22 and llc-22 what they know about AMDGPU processors (``amdgcn-amd-amdhsa``).

Used by ``scripts/generate_data.py`` to build the processor table and by the tests to
check the table and the codegen flags against the tools; the plugin itself never runs them.
Every function returns what the tool said; a refusal is reported, not raised.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

__all__ = ["LLVMTools", "find_tools"]

TRIPLE = "amdgcn-amd-amdhsa"

_LDS_PROBE = """@lds = internal addrspace(3) global [1048576 x i32] poison, align 4
define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %i) {
  %p = getelementptr [1048576 x i32], ptr addrspace(3) @lds, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p
  %v = load i32, ptr addrspace(3) %p
  store i32 %v, ptr addrspace(1) %out
  ret void
}
"""

#: A kernel every processor compiles: what llc must accept with a target's flags.
TINY_KERNEL = """define amdgpu_kernel void @k(ptr addrspace(1) %out, float %x) {
  %y = fmul float %x, %x
  store float %y, ptr addrspace(1) %out
  ret void
}
"""


@dataclass(frozen=True)
class Run:
    """A finished tool run: exit status and output."""

    returncode: int
    stdout: str
    stderr: str


def _run(argv: list[str], stdin: str | None = None) -> Run:
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=False)
    return Run(done.returncode, done.stdout, done.stderr)


@dataclass(frozen=True)
class LLVMTools:
    """clang-22 and llc-22 as found on PATH."""

    clang: str
    llc: str

    def version(self) -> str:
        """clang's first version line (``Debian clang version 22.1.8 ...``)."""
        return _run([self.clang, "--version"]).stdout.splitlines()[0].strip()

    def processors(self) -> list[str]:
        """Every name ``clang --target=amdgcn-amd-amdhsa -print-supported-cpus`` lists."""
        out = _run([self.clang, f"--target={TRIPLE}", "-print-supported-cpus"])
        text = out.stdout + out.stderr
        body = text.split("Available CPUs for this target:", 1)[1].split("Use -mcpu", 1)[0]
        return [line.strip() for line in body.splitlines() if line.strip()]

    def macros(self, flags: list[str]) -> dict[str, str] | None:
        """The predefined macros of ``clang -E -dM`` with ``flags``; None when clang refuses them."""
        out = _run([self.clang, f"--target={TRIPLE}", *flags, "-x", "c", "-E", "-dM", os.devnull])
        if out.returncode != 0:
            return None
        found = {}
        for line in out.stdout.splitlines():
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[0] == "#define":
                found[parts[1]] = parts[2]
        return found

    def target_features(self, flags: list[str], hip: bool = False) -> tuple[str, ...] | str:
        """The ``"target-features"`` clang writes into a function's IR (its whole feature map).

        ``flags`` are clang flags (for HIP, ``hip=True``: device-only compilation of a
        kernel). Returns clang's error text when it refuses the flags.
        """
        source = "__attribute__((global)) void k(float *p) { *p = 1.0f; }\n" if hip else "void f(void) {}\n"
        lang = ["-x", "hip", "--cuda-device-only", "-nogpuinc"] if hip else ["-x", "c", f"--target={TRIPLE}"]
        out = _run([self.clang, *lang, "-nogpulib", *flags, "-S", "-emit-llvm", "-o", "-", "-"], source)
        if out.returncode != 0:
            return out.stderr.strip()
        match = re.search(r'"target-features"="([^"]*)"', out.stdout)
        return tuple(match.group(1).split(",")) if match and match.group(1) else ()

    def llvm_features(self) -> dict[str, str]:
        """Every AMDGPU feature llc knows, with its description (``llc -mattr=help``)."""
        out = _run([self.llc, f"-mtriple={TRIPLE}", "-mattr=help"])
        text = out.stdout + out.stderr
        body = text.split("Available features for this target:", 1)[1].split("Use +feature", 1)[0]
        found = {}
        for line in body.splitlines():
            name, sep, description = line.strip().partition(" - ")
            if sep:
                found[name.strip()] = description.strip()
        return found

    def run_llc(self, flags: list[str], ir: str = TINY_KERNEL) -> Run:
        """llc with ``flags`` on ``ir`` (assembly on stdout)."""
        return _run([self.llc, *flags, "-o", "-"], ir)

    def lds_limit(self, processor: str) -> int:
        """The most LDS a workgroup may use on ``processor``, as llc's limit check reports it."""
        out = self.run_llc([f"-mtriple={TRIPLE}", f"-mcpu={processor}"], _LDS_PROBE)
        match = re.search(r"exceeds limit \((\d+)\)", out.stderr)
        if match is None:
            raise RuntimeError(f"llc did not report an LDS limit for {processor}: {out.stderr.strip()}")
        return int(match.group(1))

    def mlir_opt(self, module: str) -> Run:
        """mlir-opt-22 on ``module`` (the module printed back on stdout)."""
        path = shutil.which("mlir-opt-22")
        if path is None:
            return Run(127, "", "mlir-opt-22 is not installed")
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as handle:
            handle.write(module)
        try:
            return _run([path, handle.name])
        finally:
            os.unlink(handle.name)


@functools.cache
def find_tools() -> LLVMTools | None:
    """clang-22 and llc-22 from PATH, or None when either is missing."""
    clang, llc = shutil.which("clang-22"), shutil.which("llc-22")
    if clang is None or llc is None:
        return None
    return LLVMTools(clang, llc)
