"""Ask the installed iree-compile which targets it can compile for, and write the tables.

Writes ``core/tcfg/data/iree.json`` (the architectures of IREE's ``llvm-cpu`` backend,
from ``--iree-llvmcpu-list-targets``), ``plugins/cuda/tcfg_cuda/data/iree.json`` (every
arch of the cuda plugin's table for which ``iree-compile`` compiles a small function with
``--iree-cuda-target=ARCH``) and ``plugins/rocm/tcfg_rocm/data/iree.json`` (the same for
every processor of the rocm plugin, ``--iree-rocm-target=gfxNNN``). ``--check`` compares instead of writing (exit 1 on a
difference). Usage: ``python interop/scripts/iree_targets.py [--check]`` where PyPI
``iree-base-compiler`` is installed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from iree.compiler.tools.binaries import find_tool

from tcfg_cuda.facts import arch_names
from tcfg_rocm import processor_names

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core" / "tcfg" / "data" / "iree.json"
CUDA = ROOT / "plugins" / "cuda" / "tcfg_cuda" / "data" / "iree.json"
ROCM = ROOT / "plugins" / "rocm" / "tcfg_rocm" / "data" / "iree.json"
#: A function with one dispatch (an identity function would compile without a GPU target).
SOURCE = """\
func.func @add(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %0 = arith.addf %a, %b : tensor<64xf32>
  return %0 : tensor<64xf32>
}
"""


def version(tool: str) -> str:
    out = subprocess.run([tool, "--version"], capture_output=True, text=True, check=True).stdout
    found = re.search(r"IREE compiler version (\S+)", out)
    return found.group(1) if found else out.strip().splitlines()[0]


def llvmcpu_arches(tool: str) -> list[str]:
    out = subprocess.run([tool, "--iree-llvmcpu-list-targets"], capture_output=True, text=True, check=True).stdout
    return sorted(m.group(1).replace("x86-64", "x86_64") for m in re.finditer(r"^\s+(\S+)\s+- ", out, re.M))


def compiles_for(tool: str, device: str, flag: str, names: list[str]) -> list[str]:
    """The ``names`` for which ``iree-compile --iree-hal-target-device=DEVICE FLAG=NAME`` compiles :data:`SOURCE`."""
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "f.mlir"
        source.write_text(SOURCE, encoding="utf-8")
        for name in names:
            cmd = [tool, str(source), f"--iree-hal-target-device={device}", f"{flag}={name}", "-o", "/dev/null"]
            if subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300).returncode == 0:
                found.append(name)
    return found


def tables() -> dict[Path, dict[str, Any]]:
    tool = find_tool("iree-compile")
    common = {"source": f"iree-compile {version(tool)} (PyPI iree-base-compiler), probed by {Path(__file__).name}"}
    return {
        CORE: {**common, "llvmcpu_arches": llvmcpu_arches(tool)},
        CUDA: {**common, "cuda_targets": compiles_for(tool, "cuda", "--iree-cuda-target", arch_names())},
        ROCM: {**common, "rocm_targets": compiles_for(tool, "hip", "--iree-rocm-target", processor_names())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed tables")
    args = parser.parse_args(argv)
    status = 0
    for path, table in tables().items():
        if args.check:
            committed = json.loads(path.read_text(encoding="utf-8"))
            facts = {k: v for k, v in committed.items() if k not in ("source", "date")}
            if facts != {k: v for k, v in table.items() if k != "source"}:
                print(f"{path}: differs from the installed iree-compile", file=sys.stderr)
                status = 1
            continue
        table["date"] = datetime.date.today().isoformat()
        path.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
