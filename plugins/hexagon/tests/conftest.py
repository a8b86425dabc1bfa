"""Shared fixtures: an isolated registry with only this plugin, and clang-22/llc-22 when installed."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass

import pytest

import tcfg
import tcfg_hexagon.plugin
from tcfg.testing import registry_with

SOURCE = "int f(int x) { return x * 3 + 1; }\n"
IR = "define i32 @f(i32 %x) {\n  %y = mul i32 %x, 3\n  %z = add i32 %y, 1\n  ret i32 %z\n}\n"


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_hexagon.plugin)


@dataclass(frozen=True)
class Llvm:
    """clang-22 and llc-22, asked the questions the tests compare tcfg's answers with."""

    clang: str
    llc: str

    def _clang(self, flags: list[str], *out: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.clang, *flags, *out, "-x", "c", "-", "-o", "-"],
            input=SOURCE,
            capture_output=True,
            text=True,
            check=False,
        )

    def ir_features(self, flags: list[str]) -> list[str] | None:
        """The ``target-features`` clang gives ``f`` with ``flags`` (which include the target); None if refused."""
        proc = self._clang(flags, "-S", "-emit-llvm")
        if proc.returncode != 0:
            return None
        found = re.search(r'"target-features"="([^"]*)"', proc.stdout)
        assert found, proc.stdout
        return found.group(1).split(",")

    def macros(self, flags: list[str]) -> dict[str, str]:
        """The predefined macros with ``flags``."""
        proc = self._clang(flags, "-dM", "-E")
        assert proc.returncode == 0, proc.stderr
        return {m.group(1): m.group(2) for m in re.finditer(r"#define (\S+) (.*)", proc.stdout)}

    def listing(self, *args: str) -> str:
        proc = subprocess.run(list(args), capture_output=True, text=True, check=False)
        return proc.stdout + proc.stderr

    def cpus(self) -> list[str]:
        """``clang-22 --target=hexagon -print-supported-cpus``."""
        tail = self.listing(self.clang, "--target=hexagon", "-print-supported-cpus").split("for this target:", 1)[1]
        return [line.strip() for line in tail.splitlines() if line.startswith("\t") and line.strip()]

    def llc_features(self) -> set[str]:
        """The feature names ``llc-22 -mtriple=hexagon -mattr=help`` lists."""
        text = self.listing(self.llc, "-mtriple=hexagon", "-mattr=help")
        tail = text.split("Available features for this target:", 1)[1].split("Use +feature", 1)[0]
        return {line.split()[0] for line in tail.splitlines() if line.strip()}

    def compile_ir(self, flags: list[str]) -> subprocess.CompletedProcess[str]:
        """llc-22 compiling a small function with ``flags``."""
        return subprocess.run([self.llc, *flags, "-o", "-"], input=IR, capture_output=True, text=True, check=False)


@pytest.fixture(scope="session")
def llvm() -> Llvm:
    clang, llc = shutil.which("clang-22"), shutil.which("llc-22")
    if clang is None or llc is None:
        pytest.skip("clang-22 and llc-22 (LLVM 22, apt package clang-22 / llvm-22) are not installed")
    return Llvm(clang, llc)
