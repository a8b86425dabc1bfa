"""The table of TVM's dict/JSON target facts (``interop/tvm_facts/data/tvm_dict_facts.json``) checked
against Apache TVM itself, where it is installed (the tox ``interop`` env): every fact the script read
holds for TVM, so the table says what TVM says. ``interop/tvm_facts/test_dict_forms.py`` checks the same
facts through ``tcfg.compat.tvm``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .tvm_facts.facts import DICT_FACTS, check, fact_id


def test_the_table_is_what_the_script_reads_from_tvms_files() -> None:
    """With ``TVM_GIT`` pointing at a clone of apache/tvm, the script's ``--check`` passes."""
    clone = os.environ.get("TVM_GIT")
    if not clone:
        pytest.skip("set TVM_GIT to a clone of apache/tvm to regenerate the table and compare")
    script = Path(__file__).parent / "scripts" / "tvm_target_facts.py"
    done = subprocess.run([sys.executable, str(script), "--git", clone, "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


tvm = pytest.importorskip("tvm")
codegen = tvm.target.codegen
TABLES = DICT_FACTS["tables"]


def test_the_table_names_its_source() -> None:
    assert DICT_FACTS["source"].startswith("Apache TVM v0.26.0 (") and DICT_FACTS["date"]


@pytest.mark.parametrize("item", [pytest.param(f, id=fact_id(f, i)) for i, f in enumerate(DICT_FACTS["facts"])])
def test_tvm_states_the_fact(item: dict[str, Any]) -> None:
    check(item, tvm.target.Target)


def _removed_from_llvm(feature: Any) -> bool:
    """TVM's test skips AVX-512ER/PF, which LLVM 19 removed, on its LLVM 22."""
    return feature in ("avx512er", "avx512pf") and codegen.llvm_version_major() > 18


@pytest.mark.parametrize("row", TABLES["test_x86_features.py::test_x86_target_features"])
def test_tvm_x86_rows(row: dict[str, Any]) -> None:
    if _removed_from_llvm(row["x86_feature"]):
        pytest.skip("TVM's own test skips it: LLVM 19 removed the feature")
    target = tvm.target.Target(row["tvm_target"])
    assert codegen.target_has_features(row["x86_feature"], target) == row["is_supported"]


@pytest.mark.parametrize("row", TABLES["test_llvm_features_info.py::test_target_features"])
def test_tvm_llvm_feature_rows(row: dict[str, Any]) -> None:
    target = tvm.target.Target({"kind": "llvm", "mtriple": f"{row['llvm_target']}--", "mcpu": row["cpu_arch"]})
    assert row["cpu_arch"] in codegen.llvm_get_cpu_archlist(target)
    assert codegen.llvm_cpu_has_features(row["cpu_features"], target) == row["is_supported"]


@pytest.mark.parametrize("row", TABLES["test_riscv_features.py::test_riscv_rvv_features"])
def test_tvm_riscv_rows(row: dict[str, Any]) -> None:
    with tvm.target.Target(row["tvm_target"]):
        assert codegen.llvm_get_vector_width() == row["vec_width"]
