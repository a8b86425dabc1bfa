"""The processor and feature tables against clang-22 and llc-22 as installed now (every processor)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tcfg.plugin import package_json
from tcfg_rocm.facts import llvm_features, processor, processor_names
from tcfg_rocm.llvm_tools import LLVMTools


def _generator():  # type: ignore[no-untyped-def]
    path = Path(__file__).parents[1] / "scripts" / "generate_data.py"
    spec = importlib.util.spec_from_file_location("generate_data", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tables_cite_tool_and_date() -> None:
    for name in ("processors.json", "features.json", "boards.json"):
        data = package_json("tcfg_rocm", f"data/{name}")
        assert data["source"] and data["date"]
    assert "clang version 22" in package_json("tcfg_rocm", "data/processors.json")["source"]


def test_every_processor_clang_lists_is_in_the_table(tools: LLVMTools) -> None:
    listed = set(tools.processors())
    table = package_json("tcfg_rocm", "data/processors.json")
    assert set(processor_names()) | set(table["aliases"]) == listed - {"generic", "generic-hsa"}
    assert {"gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201", "gfx9-generic", "gfx12-generic"} <= set(
        processor_names()
    )


@pytest.mark.parametrize("name", processor_names())
def test_processor_row_matches_the_tools(tools: LLVMTools, name: str) -> None:
    row = _generator().processor_row(tools, name)
    mine = processor(name)
    assert set(row["features"]) == set(mine.features)
    assert tuple(row["modifiers"]) == mine.modifiers
    assert tuple(row["wavefront_sizes"]) == mine.wavefront_sizes
    assert row["lds_size"] == mine.lds_size


def test_feature_list_matches_llc(tools: LLVMTools) -> None:
    assert tools.llvm_features() == llvm_features()


def test_aliases_match_clang(tools: LLVMTools) -> None:
    for alias, target in package_json("tcfg_rocm", "data/processors.json")["aliases"].items():
        macros = tools.macros([f"-mcpu={alias}"])
        assert macros is not None and macros["__amdgcn_target_id__"] == f'"{target}"'
