"""The arch table agrees with the installed ptxas: every feature probe, every minimum PTX ISA, the arch list."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
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


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return _script()


def test_committed_table_is_what_the_script_generates(
    script: ModuleType, found_ptxas: Ptxas | None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``gen_arch_table.py --check``, run in this process so that its ptxas answers serve the tests below."""
    monkeypatch.setattr(script, "find_ptxas", lambda: found_ptxas)
    monkeypatch.setattr(sys, "argv", [str(SCRIPT), "--check"])
    status = script.main()
    assert status == 0, capsys.readouterr().err


def test_script_runs_as_a_command() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "--check" in run.stdout, run.stderr


def test_script_finds_a_wrong_fact(script: ModuleType, ptxas: Ptxas) -> None:
    """The check is not vacuous: a table that moves tma down to sm_89 is caught by the probe."""
    table = script.build()
    table["arches"]["sm_89"]["features"]["tma"] = True
    table["arches"]["sm_90a"]["min_ptx_isa"] = "7.8"
    problems = script.check(table, ptxas)
    assert any(p.startswith("sm_89: tma") for p in problems), problems
    assert any(p.startswith("sm_90a: min_ptx_isa") for p in problems), problems


@pytest.fixture(scope="module")
def probed(ptxas: Ptxas) -> dict[tuple[str, str], bool]:
    """Whether each feature's probe assembles for each portable arch, with PTX 9.0: every answer, asked once."""
    jobs = []
    for name in arch_names():
        if arch_info(name).renamed_to is not None and name not in ptxas.arches and ptxas.release >= "13":
            continue  # sm_101 is sm_110 to CUDA 13
        jobs += [(feature, name) for feature in PROBES]
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        answers = pool.map(lambda job: ptxas.accepts(job[1], "9.0", PROBES[job[0]]), jobs)
        return dict(zip(jobs, answers, strict=True))


@pytest.mark.parametrize("feature", sorted(PROBES))
def test_feature_minimum_is_where_ptxas_starts_accepting(probed: dict[tuple[str, str], bool], feature: str) -> None:
    """For each portable arch: the probe assembles exactly on the arches that have the feature."""
    wrong = []
    for (probe, name), accepted in probed.items():
        has = bool(arch_info(name).features[feature])
        if probe == feature and has != accepted:
            wrong.append((name, has, accepted))
    assert not wrong, f"{feature}: (arch, table, ptxas) {wrong}"
    assert sum(probe == feature for probe, _ in probed) >= 30


def test_min_ptx_isa_matches_ptxas(script: ModuleType, ptxas: Ptxas) -> None:
    versions = script.PTX_VERSIONS
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
