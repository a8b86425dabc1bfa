"""Regenerate ``tcfg_rocm/data/processors.json`` and ``features.json`` from clang-22 and llc-22.

Run from anywhere: ``python plugins/rocm/scripts/generate_data.py``. For every processor
``clang-22 --target=amdgcn-amd-amdhsa -print-supported-cpus`` lists, it records:

* ``features``: the LLVM features clang enables for ``-mcpu=P`` (the ``target-features``
  of a function compiled to IR: clang's whole feature map for the processor);
* ``modifiers``: the target-ID features (``xnack``, ``sramecc``) clang accepts after the
  processor (``gfx90a:xnack+``);
* ``wavefront_sizes``: the wavefront sizes clang accepts (``+wavefrontsize32``/``64``);
* ``lds_size``: the most LDS one workgroup may use, from llc's limit check;
* ``family``: the ``__GFXn__`` macro clang defines;
* ``generic``: whether it is a generic target (``gfx9-generic``).

Legacy names (``tahiti``) are recorded under ``aliases`` with the processor clang
resolves them to (``__amdgcn_target_id__``); names clang refuses as a target ID for
amdhsa (``generic``, ``generic-hsa``) are left out. ``features.json`` is every feature
``llc-22 -mattr=help`` lists, with LLVM's description.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tcfg_rocm.llvm_tools import TRIPLE, LLVMTools, find_tools  # noqa: E402

DATA = HERE.parent / "tcfg_rocm" / "data"
MODIFIERS = ("sramecc", "xnack")


def _wavefront_sizes(tools: LLVMTools, name: str, base: tuple[str, ...]) -> list[int]:
    sizes = []
    for size in (32, 64):
        flag = f"+wavefrontsize{size}"
        if flag in base or not isinstance(
            tools.target_features([f"-mcpu={name}", "-Xclang", "-target-feature", "-Xclang", flag]), str
        ):
            sizes.append(size)
    return sizes


def processor_row(tools: LLVMTools, name: str) -> dict[str, Any]:
    """What clang and llc say about one processor."""
    base = tools.target_features([f"-mcpu={name}"])
    if isinstance(base, str):
        raise RuntimeError(f"clang refuses -mcpu={name}: {base}")
    macros = tools.macros([f"-mcpu={name}"]) or {}
    family = sorted(m.strip("_") for m in macros if m.startswith("__GFX") and m.endswith("__"))
    return {
        "family": family[0] if family else None,
        "generic": name.endswith("-generic"),
        "features": sorted(f[1:] for f in base if f.startswith("+")),
        "modifiers": [m for m in MODIFIERS if tools.macros([f"-mcpu={name}:{m}+"]) is not None],
        "wavefront_sizes": _wavefront_sizes(tools, name, base),
        "lds_size": tools.lds_limit(name),
    }


def main() -> None:
    tools = find_tools()
    if tools is None:
        sys.exit("clang-22 and llc-22 must be on PATH")
    today = datetime.date.today().isoformat()
    source = f"{tools.version()}, llc-22; --target={TRIPLE}"
    processors: dict[str, Any] = {}
    aliases: dict[str, str] = {}
    for name in tools.processors():
        macros = tools.macros([f"-mcpu={name}"])
        if macros is None:
            continue  # not a valid target ID for amdhsa (generic, generic-hsa)
        target_id = macros["__amdgcn_target_id__"].strip('"')
        if target_id != name:
            aliases[name] = target_id
            continue
        processors[name] = processor_row(tools, name)
    table = {
        "source": source,
        "date": today,
        "triple": TRIPLE,
        "processors": processors,
        "aliases": dict(sorted(aliases.items())),
    }
    features = {"source": f"llc-22 -mtriple={TRIPLE} -mattr=help ({tools.version()})", "date": today}
    features["features"] = dict(sorted(tools.llvm_features().items()))  # type: ignore[assignment]
    for path, data in (("processors.json", table), ("features.json", features)):
        (DATA / path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{len(processors)} processors, {len(aliases)} aliases, {len(features['features'])} features")


if __name__ == "__main__":
    main()
