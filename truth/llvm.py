"""The real tools the truth sweep asks: where they are, and what they say about a target.

Every function runs the tool it names and parses its output; nothing here knows a
fact of its own. A tool that is not installed is ``None`` from :func:`find`, and the
sweep's tests skip with the reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence

__all__ = ["clang_features", "find", "parse_features", "run"]

#: Where Debian's llvm-22 and NVIDIA's CUDA put tools that are not on PATH.
_EXTRA_DIRS = ("/usr/lib/llvm-22/bin", "/usr/local/cuda/bin")
_ATTR = re.compile(r'"target-(cpu|features)"="([^"]*)"')


def find(name: str) -> str | None:
    """The path of tool ``name`` (``clang-22``, ``llc-22``, ``ptxas``), or None.

    ``$TCFG_TRUTH_<NAME>`` (``-`` as ``_``, upper case) overrides the search.
    """
    override = os.environ.get("TCFG_TRUTH_" + name.replace("-", "_").upper())
    if override:
        return override
    found = shutil.which(name)
    if found:
        return found
    plain = name.split("-")[0]  # llc-22 -> llc inside /usr/lib/llvm-22/bin
    for directory in _EXTRA_DIRS:
        for candidate in (name, plain):
            path = os.path.join(directory, candidate)
            if os.access(path, os.X_OK) and (candidate == name or "llvm-22" in directory):
                return path
    return None


def run(argv: Sequence[str], stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with ``stdin``; stdout and stderr as text, never raising on a non-zero exit."""
    return subprocess.run(list(argv), input=stdin, capture_output=True, text=True, timeout=timeout, check=False)


def parse_features(text: str) -> dict[str, bool]:
    """``"+a,-b"`` as ``{"a": True, "b": False}`` (the last mention of a feature wins, as in LLVM)."""
    out: dict[str, bool] = {}
    for item in filter(None, text.split(",")):
        out[item[1:]] = item[0] == "+"
    return out


def clang_features(clang: str, triple: str, args: Sequence[str]) -> tuple[str | None, dict[str, bool]]:
    """The ``target-cpu`` and ``target-features`` clang gives a function for ``triple`` and ``args``.

    Compiles an empty function to LLVM IR (``-S -emit-llvm``) and reads its attributes,
    which are what the backend receives. Raises ``RuntimeError`` with clang's message
    when clang refuses the arguments.
    """
    argv = [clang, f"--target={triple}", *args, "-S", "-emit-llvm", "-o", "-", "-x", "c", "-"]
    done = run(argv, "void f(void) {}\n")
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {done.stderr.strip()}")
    found = dict(_ATTR.findall(done.stdout))
    return found.get("cpu"), parse_features(found.get("features", ""))
