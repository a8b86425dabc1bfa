"""The data file is what the named tools say: regenerate and compare when they are installed."""

from __future__ import annotations

import importlib.util
import json
import re
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


def _major(version: str, pattern: str) -> int:
    found = re.search(pattern, version)
    assert found is not None, version
    return int(found.group(1))


def test_data_records_its_tools_and_sources() -> None:
    data = load_json("llvm_x86.json")
    llvm = _major(data["tools"]["llvm"], r"^LLVM (\d+)\.\d+\.\d+ via llvmlite ")
    assert llvm == 22
    # clang answers for the features LLVM's inline check ignores: it must be the same LLVM
    # major, or it refuses the CPUs newer than it (their features become undetermined).
    assert _major(data["tools"]["clang"], r"\bclang version (\d+)\.") == llvm
    assert set(data["provenance"]) >= {"cpus", "features", "features.implies", "cpus.features", "cpus.clang_march"}
    assert data["generated_by"] == "plugins/x86/scripts/gen_llvm_data.py"
    assert set(data) >= {"clang_differences", "undetermined"}
    for differences in data["clang_differences"].values():
        assert set(differences) == {"clang_only", "llvm_only"}


def test_undetermined_only_where_clang_refuses_a_cpu_dispatch_spelling_or_generic() -> None:
    data = load_json("llvm_x86.json")
    refused = {cpu for cpu, entry in data["cpus"].items() if not entry["clang_march"]}
    assert set(data["undetermined"]) == refused
    assert all(cpu == "generic" or "_" in cpu for cpu in refused), sorted(refused)
    assert set(data["inline_ignored_features"]) == {"sahf", "cx8", "cx16"}
    assert all(feats == data["inline_ignored_features"] for feats in data["undetermined"].values())


def test_inline_ignored_features_follow_the_isa_levels() -> None:
    """CMPXCHG8B is in every CPU since the Pentium; x86-64-v2 requires CMPXCHG16B and LAHF/SAHF."""
    data = load_json("llvm_x86.json")
    for cpu, entry in data["cpus"].items():
        if cpu in data["undetermined"]:
            continue
        features = set(entry["features"])
        assert ("cx8" in features) == (cpu not in {"i386", "i486"}), cpu
        if {"sse4.2", "popcnt", "64bit"} <= features:
            assert {"cx16", "sahf"} <= features, cpu


NEWEST = ["diamondrapids", "novalake", "wildcatlake", "pantherlake", "clearwaterforest", "arrowlake-s"]


@pytest.mark.parametrize("cpu", NEWEST)
def test_newest_cpus_have_sahf_cx8_cx16(make, cpu: str) -> None:  # type: ignore[no-untyped-def]
    assert cpu not in load_json("llvm_x86.json")["undetermined"]
    t = make(f"llvm -mtriple=x86_64-linux-gnu -mcpu={cpu}")
    assert (t.features["sahf"], t.features["cx8"], t.features["cx16"]) == (True, True, True)


def test_inline_ignored_features_are_what_clang_says() -> None:
    gen = _generator()
    stored = load_json("llvm_x86.json")
    if gen.clang_version() != stored["tools"]["clang"]:
        pytest.skip(f"{gen.CLANG} is {gen.clang_version() or 'absent'}, the data is from {stored['tools']['clang']}")
    ignored = set(stored["inline_ignored_features"])
    for cpu in [*NEWEST, "i486", "pentium", "x86-64"]:
        entry = stored["cpus"][cpu]
        expanded = gen.clang_features(gen.TRIPLE64 if entry["64bit"] else gen.TRIPLE32, [f"-march={cpu}"])
        assert expanded is not None, cpu
        assert set(expanded) & ignored == set(entry["features"]) & ignored, cpu


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
        pytest.skip(f"{gen.CLANG} is {gen.clang_version() or 'absent'}, the data is from {stored['tools']['clang']}")
    fresh = gen.generate()
    assert json.dumps(gen.comparable(fresh), sort_keys=True) == json.dumps(gen.comparable(stored), sort_keys=True)
