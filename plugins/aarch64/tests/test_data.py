"""The generated tables: consistent in themselves and with the tools they came from (clang-22, opt-22, LLVM 22)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tcfg_aarch64.facts import aarch64, arm, load

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
DATA = Path(__file__).resolve().parents[1] / "tcfg_aarch64" / "data"


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("generate_data", SCRIPTS / "generate_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_source_is_recorded() -> None:
    for name in ("aarch64.json", "aarch64-arch.json", "arm.json", "index.json", "aarch64-cpus/cortex-a72.json"):
        source = load(name)["source"]
        assert source["llvm_major"] == 22 and "clang version 22" in source["tool_version"]


def test_index_and_cpu_files_agree_with_the_tables() -> None:
    # index.json (what registration reads) and the AArch64 CPU files are laid out from the
    # tables by the generator: laying the shipped tables out again must give the same files
    gen = _generator()
    assert gen.check(DATA) == []
    tables = gen.read_tables(DATA)
    assert set(tables["aarch64"]["cpus"]) - {"generic"} == set(load("index.json")["families"]["aarch64"]["cpus"])


def test_check_reports_an_index_out_of_date(tmp_path) -> None:  # type: ignore[no-untyped-def]
    gen = _generator()
    gen.write(gen.layout(gen.read_tables(DATA)), tmp_path)
    assert gen.check(tmp_path) == []
    stale = json.loads((tmp_path / "index.json").read_text())
    stale["families"]["arm"]["cpus"].remove("cortex-m4")
    (tmp_path / "index.json").write_text(gen.dump(stale))
    (tmp_path / "aarch64-cpus" / "cortex-a72.json").unlink()
    assert gen.check(tmp_path) == ["index.json"]


@pytest.mark.slow
def test_regenerating_gives_the_same_tables() -> None:
    # About six minutes of clang and opt runs on two cores, so only on request; the truth
    # sweep (tox -e truth) checks the tables' facts against the same tools.
    if not os.environ.get("TCFG_REGENERATE"):
        pytest.skip("regenerating takes minutes: run with TCFG_REGENERATE=1 to compare a fresh run")
    source = load("aarch64.json")["source"]
    tool, backend = source["tool"], source["backend_tool"]
    for exe in (tool, backend):
        if shutil.which(exe) is None:
            pytest.skip(f"{exe} is not installed (apt-get install clang-22 llvm-22); the tables were generated with it")
    gen = _generator()
    fresh = gen.generate(tool, backend)
    for name, data in fresh.items():
        assert gen.dump(data) == (DATA / name).read_text(), f"{name} differs from a fresh run of {tool}"
    assert {f"aarch64-cpus/{p.name}" for p in (DATA / "aarch64-cpus").iterdir()} <= fresh.keys()


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
    tables = ("aarch64.json", "aarch64-arch.json", "arm.json", "index.json")
    for path in (*(DATA / name for name in tables), *(DATA / "aarch64-cpus").iterdir()):
        assert gen.dump(json.loads(path.read_text())) == path.read_text(), path


@pytest.mark.parametrize("family", [aarch64, arm])
def test_feature_sets_are_closed_under_llvms_implication(family) -> None:  # type: ignore[no-untyped-def]
    fam = family()
    for f, implied in fam.implies.items():
        assert f in fam.hardware and implied <= fam.hardware, f
    sets = [c.features for c in fam.cpus.values()] + [a.features for a in fam.arches.values()]
    sets += [c.llc_features for c in fam.cpus.values()]
    for feats in sets:
        for f in feats:
            assert fam.implies.get(f, frozenset()) <= feats, f


def test_llcs_cpu_definition_is_within_clangs_on_aarch64() -> None:
    # clang passes -mcpu to the backend too, and on AArch64 never negates what its CPU
    # table lacks, so what llc's CPU has, clang's has. (32-bit Arm clang does negate:
    # its cortex-a510 turns off the backend's fullfp16.)
    for cpu in aarch64().cpus.values():
        assert cpu.llc_features <= cpu.features, cpu.name
    assert "fullfp16" in arm().cpus["cortex-a510"].llc_features - arm().cpus["cortex-a510"].features


def test_backend_cpus_that_lack_features_clang_has() -> None:
    # the examples: llc's CPU definitions have fewer features than clang's table
    a64, a32 = aarch64(), arm()
    assert "neon" not in a32.cpus["cortex-a7"].llc_features and "neon" in a32.cpus["cortex-a7"].features
    assert "fp16fml" not in a64.cpus["ampere1"].llc_features and "fp16fml" in a64.cpus["ampere1"].features
    assert "ccidx" not in a64.cpus["apple-m1"].llc_features and "ccidx" in a64.cpus["apple-m1"].features
