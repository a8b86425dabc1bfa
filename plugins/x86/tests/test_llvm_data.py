"""The data file is what the named tools say: regenerate and compare when they are installed."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from tcfg_x86.data import load_json

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "gen_llvm_data.py"


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_llvm_data", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_data_records_its_tools_and_sources() -> None:
    data = load_json("llvm_x86.json")
    assert data["tools"]["llvm"].startswith("LLVM 22")
    assert data["tools"]["clang"].startswith(("clang version 19", "Debian clang version 19", "Ubuntu clang version 19"))
    assert set(data["provenance"]) >= {"cpus", "features", "features.implies", "cpus.features"}
    assert data["generated_by"] == "plugins/x86/scripts/gen_llvm_data.py"


def test_cpuinfo_table_maps_to_known_llvm_features() -> None:
    isa = set(load_json("llvm_x86.json")["features"])
    flags = load_json("cpuinfo_flags.json")["flags"]
    assert flags["avx512_vnni"] == ["avx512vnni"] and flags["amx_int8"] == ["amx-int8"]
    for flag, features in flags.items():
        assert set(features) <= isa, flag


@pytest.mark.slow
def test_regenerated_data_matches() -> None:
    llvm = pytest.importorskip("llvmlite.binding", reason="regenerating needs llvmlite")
    gen = _generator()
    if shutil.which(gen.CLANG) is None:
        pytest.skip(f"regenerating needs {gen.CLANG}")
    stored = load_json("llvm_x86.json")
    if not stored["tools"]["llvm"].startswith(f"LLVM {'.'.join(map(str, llvm.llvm_version_info))} "):
        installed = llvm.llvm_version_info
        pytest.skip(f"installed llvmlite bundles LLVM {installed}, the data is from {stored['tools']['llvm']}")
    if gen.clang_version() != stored["tools"]["clang"]:
        pytest.skip(f"installed {gen.clang_version()} differs from {stored['tools']['clang']}")
    fresh = gen.generate()
    assert json.dumps(gen.comparable(fresh), sort_keys=True) == json.dumps(gen.comparable(stored), sort_keys=True)
