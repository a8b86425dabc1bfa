"""``bench/first_target_shape.py``: the first target's shape is found, and the package written
from it has that shape (as many modules, the same record types)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRST_TARGET = "import tcfg\ntcfg.Target({'kind': 'c'}).features\n"


def _shape_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("first_target_shape", ROOT / "bench" / "first_target_shape.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def shape() -> dict[str, Any]:
    found: dict[str, Any] = _shape_module().probe("pass", FIRST_TARGET)
    return found


def _sorted(records: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True) for r in records)


def test_probe_finds_the_modules_and_record_types_of_the_first_target(shape: dict[str, Any]) -> None:
    assert {"tcfg", "tcfg._model.kind", "tcfg._registry.discovery"} <= set(shape["modules"])
    assert "dataclasses" in shape["added"]
    assert not [m for m in shape["added"] if m.startswith("tcfg")]
    kinds = [r for r in shape["records"] if "dataclass" in r]
    # TargetKind: frozen, its name first, its derived tables out of __init__
    target_kind = [r for r in kinds if r["fields"][0][0] == "name" and r["fields"][1][0] == "device_type"]
    assert target_kind and target_kind[0]["dataclass"]["frozen"] is True
    assert ["_table", False, False, False, False] in target_kind[0]["fields"]
    # Derived and DeriveRequest are NamedTuples
    named = [r["fields"] for r in shape["records"] if "namedtuple" in r]
    assert ["kind", "attrs", "registry"] in [f[:3] for f in named]


def test_the_written_package_has_the_same_shape(shape: dict[str, Any], tmp_path: Path) -> None:
    module = _shape_module()
    code = module.write_package(shape, tmp_path)
    assert code.startswith("import ") and module.PACKAGE in code and "dataclasses" in code
    again = module.probe(f"import sys\nsys.path.insert(0, {str(tmp_path)!r})", code)
    assert len(again["modules"]) == len(shape["modules"])
    assert all(m == module.PACKAGE or m.startswith(f"{module.PACKAGE}.") for m in again["modules"])
    assert _sorted(again["records"]) == _sorted(shape["records"])
    assert module.top(shape) == sorted(set(module.top(shape)))  # each once, no submodule


def test_probe_raises_when_the_child_fails() -> None:
    with pytest.raises(Exception, match="returned non-zero exit status"):
        _shape_module().probe("pass", "raise SystemExit(3)")
