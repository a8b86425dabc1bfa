"""The generated tables against the tools they came from: clang-22 and llvmlite's LLVM 22."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tcfg_aarch64.tables import aarch64, arm, load

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("generate_data", SCRIPTS / "generate_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_source_is_recorded() -> None:
    for name in ("aarch64.json", "arm.json"):
        source = load(name)["source"]
        assert source["llvm_major"] == 22 and "clang version 22" in source["tool_version"]


@pytest.mark.slow
def test_regenerating_gives_the_same_tables() -> None:
    tool = load("aarch64.json")["source"]["tool"]
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (apt-get install {tool}); the tables were generated with it")
    gen = _generator()
    fresh = gen.generate(tool)
    for name, data in fresh.items():
        shipped = (Path(__file__).resolve().parents[1] / "tcfg_aarch64" / "data" / name).read_text()
        assert gen.dump(data) == shipped, f"{name} differs from a fresh run of {tool}"


def _llvmlite_help(triple: str) -> str:
    """What llvmlite's LLVM prints for -mcpu=help (in a child: LLVM writes to the C stdout)."""
    code = (
        "import llvmlite.binding as l; l.initialize_all_targets(); "
        f"l.Target.from_triple({triple!r}).create_target_machine(cpu='help')"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return proc.stdout + proc.stderr


def _help_names(text: str, heading: str) -> set[str]:
    section = text.split(heading, 1)[1].split("Available", 1)[0]
    return {line.split()[0] for line in section.splitlines() if line.startswith("  ") and line.split()}


def test_cpu_and_feature_names_match_llvmlites_llvm() -> None:
    llvmlite = pytest.importorskip("llvmlite.binding", reason="llvmlite (LLVM 22) is not installed")
    if llvmlite.llvm_version_info[0] != 22:
        pytest.skip(f"llvmlite bundles LLVM {llvmlite.llvm_version_info}, the tables are LLVM 22's")
    text = _llvmlite_help("aarch64-linux-gnu")
    assert _help_names(text, "Available CPUs for this target:") - {"generic"} == set(aarch64().cpus)
    assert _help_names(text, "Available features for this target:") == set(aarch64().llvm_features)
    arm_text = _llvmlite_help("armv7-none-eabi")
    assert set(arm().cpus) <= _help_names(arm_text, "Available CPUs for this target:")
    assert _help_names(arm_text, "Available features for this target:") == set(arm().llvm_features)


def test_cpuinfo_table_names_llvm_cpus_and_features() -> None:
    table = load("cpuinfo.json")
    for parts in table["parts"].values():
        for cpu in parts.values():
            assert cpu in aarch64().cpus or cpu in arm().cpus, cpu
    for feats in table["hwcaps"].values():
        assert set(feats) <= set(aarch64().llvm_features)
    assert set(table["checked"]) <= set(aarch64().llvm_features)


def test_data_files_are_canonical_json() -> None:
    gen = _generator()
    for name in ("aarch64.json", "arm.json"):
        path = Path(__file__).resolve().parents[1] / "tcfg_aarch64" / "data" / name
        assert gen.dump(json.loads(path.read_text())) == path.read_text()
