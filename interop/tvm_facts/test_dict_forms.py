"""TVM v0.26/v0.27's target tests in their dict/JSON form (``tests/python/target/`` at v0.26.0, which
v0.27's head keeps unchanged), checked through :mod:`tcfg.compat.tvm`.

The facts are ``data/tvm_dict_facts.json``, read from TVM's test files by
``interop/scripts/tvm_target_facts.py`` (source and date in the file): the rows of the x86, LLVM
features and RISC-V tables, and every assertion on a target of ``test_target_target.py`` and
``test_target_parser_mprofile.py``. ``interop/test_tvm_dict_facts.py`` checks the same table against
TVM itself. What the table leaves out (``skipped``) is TVM-only: ``tvm.device_from_target`` and
TVM's ``Device``/``String`` objects, compiling a module, and ``from_device`` on GPUs (TVM marks those
tests ``gpu``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import tcfg
from tcfg.compat.tvm import Target, codegen
from tcfg.compat.tvm.codegen import llvm_get_vector_width, target_has_features

from .facts import DICT_FACTS, check, check_llvm_features, fact, fact_id

TABLES = DICT_FACTS["tables"]

#: Why a body fact differs, by TVM test (every fact of it) or (TVM test, line): each a difference
#: tcfg keeps on purpose, with its reason in facts.REASONS and docs/from-tvm.md.
BODY_DIFFERS: dict[str | tuple[str, int], str] = {
    "test_target_llvm_vector_width": "wider-than-cpu",
    "test_target_config": "neon-on-x86",
    ("test_target_tag_override", 192): "tag-alias",
    "test_target_host_tags": "cpu-host",
    "test_target_host_single_string_with_tag": "cpu-host",
    "test_target_host_merge_0": "cpu-host",
    **{("test_target_with_host", line): "cpu-host" for line in range(309, 316)},
    "test_str_is_json": "classic-str",
    "test_cli_string_rejected": "classic-string",
    "test_target_parser_mprofile_mattr": "unknown-feature",
}


#: How each difference shows: the exception, and for a refusal the words it must say (so a fact
#: that fails for another reason is a failure, not an expected one).
SHOWS: dict[str, tuple[type[BaseException], str | None]] = {
    "wider-than-cpu": (tcfg.TargetError, r"-vector-width=(256 is wider than|1024: x86 vector widths)"),
    "neon-on-x86": (tcfg.TargetError, r"'neon' is not an x86 feature"),
    "cpu-host": (tcfg.TargetError, r"the host of a cuda target runs its host-side code, so it must be a CPU"),
    "unknown-feature": (tcfg.TargetError, r"feature 'nomve' is not known to LLVM 22"),
    "tag-alias": (AssertionError, None),
    "classic-str": (json.JSONDecodeError, None),
    "classic-string": (pytest.fail.Exception, None),
}


def _body_params() -> list[Any]:
    out = []
    for index, item in enumerate(DICT_FACTS["facts"]):
        test = item["test"].split("::")[1]
        reason = BODY_DIFFERS.get(test) or BODY_DIFFERS.get((test, item["line"]))
        raises = SHOWS[reason][0] if reason else None
        out.append(fact(item, reason, differs=reason, id=fact_id(item, index), raises=raises))
    return out


@pytest.mark.parametrize(("item", "reason"), _body_params())
def test_target_facts(item: dict[str, Any], reason: str | None) -> None:
    """One assertion of ``test_target_target.py`` / ``test_target_parser_mprofile.py`` at v0.26."""
    words = SHOWS[reason][1] if reason else None
    try:
        check(item, Target)
    except tcfg.TargetError as refusal:
        assert words is not None and re.search(words, str(refusal)), f"refused for another reason: {refusal}"
        raise


def _rows(name: str, differs: Any) -> list[Any]:
    rows = TABLES[name]
    return [fact(row, differs=differs(row), id=f"{name.split('::')[1]}#{i}") for i, row in enumerate(rows)]


def _x86_differs(row: dict[str, Any]) -> str | None:
    return "llvm-removed" if row["x86_feature"] in ("avx512er", "avx512pf") else None


@pytest.mark.parametrize("row", _rows("test_x86_features.py::test_x86_target_features", _x86_differs))
def test_x86_target_features(row: dict[str, Any]) -> None:
    spec, feature, supported = row["tvm_target"], row["x86_feature"], row["is_supported"]
    assert target_has_features(feature, Target(spec)) == supported
    with Target(spec):
        assert Target.current(False).attrs["mcpu"] == spec["mcpu"]  # type: ignore[union-attr]
        assert target_has_features(feature) == supported
        assert target_has_features(feature, Target(spec)) == supported
        if not Target(spec).attrs.get("mattr") and isinstance(feature, str):
            assert (feature in codegen.llvm_get_cpu_features()) == supported


def _features_differs(row: dict[str, Any]) -> str | None:
    arm_neon = row["llvm_target"] == "arm" and "neon" in row["cpu_features"]
    return "soft-float" if arm_neon and row["is_supported"] else None


@pytest.mark.parametrize("row", _rows("test_llvm_features_info.py::test_target_features", _features_differs))
def test_llvm_target_features(row: dict[str, Any]) -> None:
    llvm_target, cpu = row["llvm_target"], row["cpu_arch"]
    target = Target({"kind": "llvm", "mtriple": f"{llvm_target}--", "mcpu": cpu})
    check_llvm_features(llvm_target, cpu, row["cpu_features"], row["is_supported"], target)


def _riscv_differs(row: dict[str, Any]) -> str | None:
    spec = row["tvm_target"]
    return "rv32-64bit" if spec["mtriple"].startswith("riscv32") and "+64bit" in spec.get("mattr", []) else None


@pytest.mark.parametrize("row", _rows("test_riscv_features.py::test_riscv_rvv_features", _riscv_differs))
def test_riscv_rvv_features(row: dict[str, Any]) -> None:
    with Target(row["tvm_target"]):
        assert llvm_get_vector_width() == row["vec_width"]


def test_llvm_targets() -> None:
    """``test_llvm_features_info.py::test_llvm_targets``: the system queries answer, the vendor too."""
    assert codegen.llvm_get_targets()
    assert codegen.llvm_get_system_cpu()
    assert codegen.llvm_get_system_triple()
    assert codegen.llvm_get_system_x86_vendor()


@pytest.mark.parametrize("cpu", [fact("dummy", differs="unknown-cpu")])
def test_an_unknown_cpu_falls_back_to_generic(cpu: str) -> None:
    """``test_llvm_targets``: TVM warns and uses ``-mcpu=generic`` for ``"mcpu": "dummy"``; tcfg refuses it."""
    assert (
        codegen.llvm_get_cpu_features(Target({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": cpu})) is not None
    )
