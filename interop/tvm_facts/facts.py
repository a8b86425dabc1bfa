"""What the facts tests share: how a fact tcfg answers differently on purpose is marked."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

#: Why tcfg answers a TVM fact differently, by short name (docs/from-tvm.md lists each).
REASONS = {
    "llvm-removed": "LLVM 19 removed the feature (Xeon Phi's AVX-512ER/PF); LLVM 22, whose facts tcfg keeps, "
    "does not know it",
    "soft-float": "an arm triple without hf is a soft-float ABI; clang-22 turns the FPU and NEON off for it, "
    "and tcfg follows clang (TVM asks LLVM's CPU table alone)",
    "rv32-64bit": "+64bit on a riscv32 triple: llc-22 refuses it, so tcfg does too",
    "unknown-feature": "-mattr=+woof: not a feature LLVM 22 knows; tcfg refuses it with the valid choices",
    "x86-width": "LLVM 22's preferred vector width for the CPU (tcfg's codegen fact), not TVM's fixed 512 "
    "for every x86_64",
    "wider-than-cpu": "-vector-width must be a width the CPU's vectors have: 128 bits on the generic x86-64 CPU "
    "(the host here), and no x86 vector is 1024 bits",
    "cpu-host": "a cuda target's host runs its host code: it must be a CPU target, not another GPU",
    "neon-on-x86": "llvm without -mtriple is this machine (x86_64 here); +neon is not an x86 feature",
    "unknown-cpu": "-mcpu=dummy is not a CPU LLVM 22 knows: tcfg refuses it with the closest names, where TVM "
    "warns and compiles for the generic CPU",
    "tag-alias": "TVM's tag name is an alias of a tcfg tag; a target built from an alias reports tcfg's "
    "name as its tag (nvidia/nvidia-a100 is nvidia/a100)",
    "classic-str": "str() of a tcfg.compat.tvm target is the classic string form (TVM <= 0.23's, which "
    "tcfg reads back), not TVM 0.27's JSON",
    "classic-string": "tcfg reads the classic string form ('llvm -mcpu=cortex-a53') that TVM 0.27 refuses, "
    "so TVM 0.23 programs keep working",
    "cblas": "cblas is not a library any plugin registers for llvm (openblas, mkl, acl, dnnl are)",
}


def fact(*values: Any, differs: str | None = None, id: str | None = None, raises: Any = None) -> Any:
    """One fact's parameters; ``differs`` names the reason tcfg answers it differently on purpose, and
    ``raises`` (optional) the exception that difference must show as (any other fails the test)."""
    if differs is None:
        return pytest.param(*values, id=id)
    mark = pytest.mark.xfail(strict=True, reason=REASONS[differs], raises=raises)
    return pytest.param(*values, id=id, marks=mark)


# -- the dict/JSON facts of TVM v0.26/0.27 (data/tvm_dict_facts.json) ---------------------------

#: The table ``interop/scripts/tvm_target_facts.py`` writes from TVM's test files.
DICT_FACTS: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "tvm_dict_facts.json").read_text("utf-8"))
_EXPR_KEYS = ({"new", "kw"}, {"with_host"}, {"host_of"}, {"str_of"}, {"json_of"}, {"of", "path"}, {"static"})


def is_expr(value: Any) -> bool:
    """Whether a table value is a target expression (not a literal target dict)."""
    return isinstance(value, dict) and set(value) in _EXPR_KEYS


def plain(value: Any) -> Any:
    """A value (tcfg's or TVM's: ``String``, ``Array``, ``Map``) as plain Python data, for comparing."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    if isinstance(value, Mapping) or hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "Array":
        return [plain(v) for v in value]
    return value


def build(expr: Any, target_class: Any) -> Any:
    """The value a target expression of the table makes with ``target_class`` (tcfg's or TVM's ``Target``)."""
    if not is_expr(expr):
        return expr
    if "new" in expr:
        args = [build(a, target_class) for a in expr["new"]]
        return target_class(*args, **{k: build(v, target_class) for k, v in expr["kw"].items()})
    if "with_host" in expr:
        base, host = expr["with_host"]
        return build(base, target_class).with_host(build(host, target_class))
    if "host_of" in expr:
        return build(expr["host_of"], target_class).host
    if "str_of" in expr:
        return str(build(expr["str_of"], target_class))
    if "json_of" in expr:
        return json.loads(build(expr["json_of"], target_class))
    if "static" in expr:
        return getattr(target_class, expr["static"])()
    return walk(build(expr["of"], target_class), expr["path"])


def walk(value: Any, path: list[dict[str, Any]]) -> Any:
    """Follow an access path (``attr``, ``item``, ``get``, ``call`` steps) from ``value``."""
    for step in path:
        ((how, what),) = step.items()
        if how == "attr":
            value = getattr(value, what)
        elif how == "item":
            value = value[what]
        elif how == "get":
            value = value.get(*what)
        else:
            value = getattr(value, what)()
    return value


_WRAPS: dict[str, Any] = {"int": int, "str": str, "list": list, "set": sorted, "sorted": sorted, "len": len,
                          "bool": bool}  # fmt: skip


def check(fact: dict[str, Any], target_class: Any) -> None:
    """Assert one body fact of the table with ``target_class``."""
    if fact["op"] == "raises":
        with pytest.raises(ValueError):
            build(fact["target"], target_class)
        return
    value = walk(build(fact["target"], target_class), fact.get("path", []))
    for wrap in fact["wraps"]:
        value = _WRAPS[wrap](plain(value) if wrap in ("set", "sorted") else value)
    value, expected = plain(value), fact["expected"]
    if fact["op"] == "==":
        assert value == expected
    elif fact["op"] == "!=":
        assert value != expected
    elif fact["op"] == "contains":
        assert expected in value
    else:
        assert all(item in value for item in expected)


def fact_id(fact: dict[str, Any], index: int) -> str:
    """A short, stable test id: the TVM test, its line, and the fact's place in the table."""
    return f"{fact['test'].split('::')[1]}:{fact['line']}#{index}"


def check_llvm_features(llvm_target: str, cpu: str, features: str | list[str], supported: bool, target: Any) -> None:
    """TVM's ``test_llvm_features_info.py::test_target_features`` body: ``target`` is an ``llvm``
    target of triple ``{llvm_target}--`` and CPU ``cpu``; asked with and without its scope."""
    from tcfg.compat.tvm import codegen

    assert llvm_target in codegen.llvm_get_targets()
    with target:
        assert cpu in codegen.llvm_get_cpu_archlist()
        assert codegen.llvm_cpu_has_features(features) == supported
    assert cpu in codegen.llvm_get_cpu_archlist(target)
    assert codegen.llvm_cpu_has_features(features, target) == supported
