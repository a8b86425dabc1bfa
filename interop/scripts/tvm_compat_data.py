"""Generate ``core/tcfg/data/tvm_compat.json``: the facts ``tcfg.compat.tvm`` answers from.

What comes from where:

* ``llvm_targets``: TVM's ``llvm_get_targets``: each LLVM triple architecture name
  (``Triple::getArchTypeName`` in llvm/lib/TargetParser/Triple.cpp, listed in :data:`ARCH_TYPES`)
  for which llc-22 builds a target from the triple ``NAME--``.
* ``llvm_cpus`` / ``llvm_features``: for each CPU family tcfg's plugins cover, the CPUs and the
  features ``llc-22 -mtriple=TRIPLE -mattr=help`` lists (TVM's ``llvm_get_cpu_archlist``; the
  LLVM spellings of feature names, ``sse4.1``, which tcfg's features write ``sse4_1``).
* ``helpers``: the presets of TVM's string helpers (``arm_cpu``'s and ``riscv_cpu``'s model
  tables, ``stm32``'s series, ``hexagon``'s versions and VTCM sizes), read from
  ``python/tvm/target/target.py`` of Apache TVM v0.23.0 (pass its path).

Run: ``python interop/scripts/tvm_compat_data.py PATH/TO/tvm/python/tvm/target/target.py``
(needs llc-22 on PATH).
"""

from __future__ import annotations

import ast
import datetime
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

LLC = "llc-22"
OUT = Path(__file__).resolve().parents[2] / "core" / "tcfg" / "data" / "tvm_compat.json"
#: The LLVM triple architecture read for each family (the family is what a target's triple maps to).
FAMILIES = {
    "aarch64": "aarch64",
    "arm": "arm",
    "x86_64": "x86_64",
    "x86": "i686",
    "riscv32": "riscv32",
    "riscv64": "riscv64",
    "hexagon": "hexagon",
    "nvptx64": "nvptx64",
    "amdgcn": "amdgcn",
}


def _llc(*args: str) -> str:
    proc = subprocess.run([LLC, *args], capture_output=True, text=True, check=False, input="")
    return proc.stdout + proc.stderr


#: LLVM's triple architecture names (``Triple::getArchTypeName``, llvm/lib/TargetParser/Triple.cpp).
ARCH_TYPES = [
    "aarch64",
    "aarch64_32",
    "aarch64_be",
    "amdgcn",
    "amdil64",
    "amdil",
    "arc",
    "arm",
    "armeb",
    "avr",
    "bpfeb",
    "bpfel",
    "csky",
    "dxil",
    "hexagon",
    "hsail64",
    "hsail",
    "kalimba",
    "lanai",
    "le32",
    "le64",
    "loongarch32",
    "loongarch64",
    "m68k",
    "mips64",
    "mips64el",
    "mips",
    "mipsel",
    "msp430",
    "nvptx64",
    "nvptx",
    "powerpc64",
    "powerpc64le",
    "powerpc",
    "powerpcle",
    "r600",
    "renderscript32",
    "renderscript64",
    "riscv32",
    "riscv64",
    "shave",
    "sparc",
    "sparcel",
    "sparcv9",
    "spir64",
    "spir",
    "spirv",
    "spirv32",
    "spirv64",
    "s390x",
    "tce",
    "tcele",
    "thumb",
    "thumbeb",
    "ve",
    "wasm32",
    "wasm64",
    "i386",
    "x86_64",
    "xcore",
    "xtensa",
]


def llvm_targets() -> list[str]:
    """The architecture names llc-22 has a target for (it compiles an empty module for ``NAME--``)."""
    found = []
    for name in ARCH_TYPES:
        proc = subprocess.run(
            [LLC, f"-mtriple={name}--", "-o", "/dev/null"], input="", capture_output=True, check=False
        )
        if proc.returncode == 0:
            found.append(name)
    return sorted(found)


def cpus_and_features(triple: str) -> tuple[list[str], list[str]]:
    text = _llc(f"-mtriple={triple}", "-mattr=help")
    cpu_part, _, feature_part = text.partition("Available features for this target:")
    cpu_part = cpu_part.split("Available CPUs for this target:", 1)[1]
    row = re.compile(r"^\s+(\S+)\s+- ", re.M)
    return sorted({m.group(1) for m in row.finditer(cpu_part)}), sorted(
        {m.group(1) for m in row.finditer(feature_part.split("Use +feature", 1)[0])}
    )


def _function(tree: ast.Module, name: str) -> ast.FunctionDef:
    return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)


def _assigned(node: ast.AST, name: str) -> ast.expr:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in sub.targets):
            return sub.value
    raise SystemExit(f"{name} not found in TVM's target.py")


def _value(expr: ast.expr, names: dict[str, Any]) -> Any:
    """A literal, or an arithmetic expression over ``names`` (TVM writes ``one_mb // 4``)."""
    code = compile(ast.Expression(expr), "<tvm>", "eval")
    return eval(code, {"__builtins__": {}}, names)


def helpers(source: Path) -> dict[str, Any]:
    tree = ast.parse(source.read_text())
    hexagon = _function(tree, "hexagon")
    return {
        "arm_cpu": _value(_assigned(_function(tree, "arm_cpu"), "trans_table"), {}),
        "riscv_cpu": _value(_assigned(_function(tree, "riscv_cpu"), "trans_table"), {}),
        "stm32": _value(_assigned(tree, "STM32_SUPPORTED_SERIES"), {}),
        "hexagon_versions": _value(_assigned(hexagon, "valid_hex"), {}),
        "hexagon_vtcm": _value(_assigned(hexagon, "default_vtcm_sizes"), {"one_mb": 2**20}),
    }


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    version = _llc("--version").splitlines()[1].strip()
    tables = {family: cpus_and_features(triple) for family, triple in FAMILIES.items()}
    out = {
        "source": f"{LLC} ({version}): --version and -mattr=help per triple; Apache TVM v0.23.0 "
        "python/tvm/target/target.py for the helpers' presets",
        "date": datetime.date.today().isoformat(),
        "families": FAMILIES,
        "llvm_targets": llvm_targets(),
        "llvm_cpus": {family: cpus for family, (cpus, _) in tables.items()},
        "llvm_features": {family: feats for family, (_, feats) in tables.items()},
        "helpers": helpers(Path(sys.argv[1])),
    }
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(out['llvm_targets'])} LLVM targets, {len(FAMILIES)} families -> {OUT}")


if __name__ == "__main__":
    main()
