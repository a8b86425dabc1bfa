"""The arch table agrees with the installed ptxas: every feature probe, every minimum PTX ISA, the arch list."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tcfg_cuda.facts import arch_info, arch_names
from tcfg_cuda.probes import PROBES, Ptxas

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "gen_arch_table.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_arch_table", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_table_is_what_the_script_generates() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_script_finds_a_wrong_fact(ptxas: Ptxas) -> None:
    """The check is not vacuous: a table that moves tma down to sm_89 is caught by the probe."""
    script = _script()
    table = script.build()
    table["arches"]["sm_89"]["features"]["tma"] = True
    table["arches"]["sm_90a"]["min_ptx_isa"] = "7.8"
    problems = script.check(table, ptxas)
    assert any(p.startswith("sm_89: tma") for p in problems), problems
    assert any(p.startswith("sm_90a: min_ptx_isa") for p in problems), problems


@pytest.mark.parametrize("feature", sorted(PROBES))
def test_feature_minimum_is_where_ptxas_starts_accepting(ptxas: Ptxas, feature: str) -> None:
    """For each portable arch: the probe assembles exactly on the arches that have the feature."""
    wrong = []
    for name in arch_names():
        info = arch_info(name)
        if info.renamed_to is not None and name not in ptxas.arches and ptxas.release >= "13":
            continue  # sm_101 is sm_110 to CUDA 13
        has = bool(info.features[feature])
        accepted = ptxas.accepts(name, "9.0", PROBES[feature])
        if has != accepted:
            wrong.append((name, has, accepted))
    assert not wrong, f"{feature}: (arch, table, ptxas) {wrong}"


def test_min_ptx_isa_matches_ptxas(ptxas: Ptxas) -> None:
    versions = _script().PTX_VERSIONS
    for name in arch_names():
        info = arch_info(name)
        if info.renamed_to is not None:
            continue
        if versions.index(info.min_ptx_isa) < versions.index("2.3"):
            # ptxas probes carry .address_size (PTX 2.3+): sm_2x below it was measured without.
            assert (name, info.min_ptx_isa) in {("sm_20", "2.0"), ("sm_21", "2.0")}
            assert ptxas.accepts(name, "2.3"), name
            continue
        assert ptxas.accepts(name, info.min_ptx_isa), name
        earlier = versions[versions.index(info.min_ptx_isa) - 1]
        assert not ptxas.accepts(name, earlier), (name, earlier)
