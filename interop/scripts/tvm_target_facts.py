"""Generate ``interop/tvm_facts/data/tvm_dict_facts.json``: the facts Apache TVM's own target tests
assert in their dict/JSON form (TVM v0.26.0; ``tests/python/target/`` is unchanged from v0.26.0 to
v0.27's development head), for ``interop/tvm_facts/test_dict_forms.py`` to check through
:mod:`tcfg.compat.tvm` and, where TVM is installed, against TVM itself.

What is read (Python's ``ast``; nothing of TVM is run or copied, only the literal values):

* the parametrize tables of ``test_x86_features.py``, ``test_llvm_features_info.py`` and
  ``test_riscv_features.py``: each row (a target dict, features, the expected answer);
* every test function of ``test_target_target.py`` and ``test_target_parser_mprofile.py``, run
  symbolically (parametrize rows bound, ``for`` loops over literal lists unrolled): each
  ``X = Target(...)`` (or ``.with_host``, ``.host``) is a target expression, and each ``assert`` on
  one (``==``, ``in``, truth, ``len``/``int``/``str``/``list``/``set``/``sorted`` of it) and each
  ``with pytest.raises(...)`` around a ``Target(...)`` is a fact. What is not of that shape is listed
  under ``skipped`` with its line, so nothing is dropped silently.

Run: ``python interop/scripts/tvm_target_facts.py --git PATH/TO/tvm [--rev v0.26.0] [--check]``.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "tvm_facts" / "data" / "tvm_dict_facts.json"
TABLES = ("test_x86_features.py", "test_llvm_features_info.py", "test_riscv_features.py")
BODIES = ("test_target_target.py", "test_target_parser_mprofile.py")
WRAPS = {"int", "str", "list", "set", "len", "sorted", "bool"}


class Skip(Exception):
    """A statement that is not a fact about a target of the shapes this script reads."""


def _literal(node: ast.AST, env: dict[str, Any]) -> Any:
    """The value of a literal expression, with names bound by ``env`` (parameters, literal assignments)."""
    if isinstance(node, ast.Name) and node.id in env and not isinstance(env[node.id], Expr):
        return env[node.id]
    if isinstance(node, ast.Dict):
        return {_literal(k, env): _literal(v, env) for k, v in zip(node.keys, node.values, strict=True)}  # type: ignore[arg-type]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [_literal(e, env) for e in node.elts]
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "json.dumps" and len(node.args) == 1:
        return json.dumps(_literal(node.args[0], env))
    if isinstance(node, ast.Call) and ast.unparse(node.func) in ("set", "sorted") and len(node.args) == 1:
        return sorted(_literal(node.args[0], env))  # a set as its sorted list (JSON has no sets)
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "list" and len(node.args) == 1:
        return list(_literal(node.args[0], env))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_literal(node.operand, env)
    try:
        return ast.literal_eval(node)
    except ValueError as e:
        raise Skip(f"not a literal: {ast.unparse(node)}") from e


class Expr(dict[str, Any]):
    """A value made from targets: ``{"new": [args], "kw": {...}}`` (``Target(...)``), ``{"with_host": [expr,
    arg]}``, ``{"host_of": expr}``, ``{"str_of": expr}``, ``{"json_of": expr}`` (``json.loads``),
    ``{"of": expr, "path": [...]}`` (a part of one) or ``{"static": "list_kinds"}``."""


def _is_target_ctor(func: ast.AST) -> bool:
    return ast.unparse(func) in ("Target", "tvm.target.Target")


def _value(node: ast.AST, env: dict[str, Any]) -> Any:
    """A target expression, an access chain on one, or a literal."""
    if isinstance(node, ast.Name) and isinstance(env.get(node.id), Expr):
        return env[node.id]
    if isinstance(node, ast.Call) and _is_target_ctor(node.func):
        return Expr(new=[_value(a, env) for a in node.args], kw={k.arg: _value(k.value, env) for k in node.keywords})
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "with_host":
        base = _value(node.func.value, env)
        if isinstance(base, Expr):
            return Expr(with_host=[base, _value(node.args[0], env)])
    if isinstance(node, ast.Attribute) and node.attr == "host":
        base = _value(node.value, env)
        if isinstance(base, Expr):
            return Expr(host_of=base)
    if isinstance(node, ast.Call) and ast.unparse(node.func) in ("str", "json.loads") and len(node.args) == 1:
        base = _value(node.args[0], env)
        if isinstance(base, Expr):
            return Expr(str_of=base) if ast.unparse(node.func) == "str" else Expr(json_of=base)
    if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("Target.list_kinds") and not node.args:
        return Expr(static="list_kinds")
    try:
        return _literal(node, env)
    except Skip:
        base, path, wraps = _access(node, env)
        if wraps:
            raise
        return Expr(of=base, path=path)


def _access(node: ast.AST, env: dict[str, Any]) -> tuple[Expr, list[Any], list[str]]:
    """``(target expression, path, wrappers)`` of an access such as ``int(t.host.attrs.get("x", 0))``."""
    wraps: list[str] = []
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in WRAPS:
        wraps.insert(0, node.func.id)
        node = node.args[0]
    path: list[Any] = []
    while True:
        if isinstance(node, ast.Name) and isinstance(env.get(node.id), Expr):
            return env[node.id], path, wraps
        if isinstance(node, ast.Call) and (_is_target_ctor(node.func) or "with_host" in ast.unparse(node.func)):
            return _value(node, env), path, wraps
        if isinstance(node, ast.Attribute):
            path.insert(0, {"attr": node.attr})
            node = node.value
        elif isinstance(node, ast.Subscript):
            path.insert(0, {"item": _literal(node.slice, env)})
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            path.insert(0, {"get": [_literal(a, env) for a in node.args]})
            node = node.func.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
            path.insert(0, {"call": node.func.attr})
            node = node.func.value
        else:
            raise Skip(f"not an access on a target: {ast.unparse(node)}")


def _fact(node: ast.AST, op: str, expected: Any, env: dict[str, Any], more: tuple[str, ...] = ()) -> dict[str, Any]:
    """The fact that the access ``node`` (on a target) compares by ``op`` with ``expected``."""
    target, path, wraps = _access(node, env)
    return {"target": target, "path": path, "wraps": [*wraps, *more], "op": op, "expected": expected}


def _assert(test: ast.expr, env: dict[str, Any]) -> dict[str, Any]:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _fact(test.operand, "==", False, env, ("bool",))
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, right = test.ops[0], test.comparators[0]
        if isinstance(op, ast.Eq):
            try:
                return _fact(test.left, "==", _literal(right, env), env)
            except Skip:
                return _fact(right, "==", _literal(test.left, env), env)
        if isinstance(op, ast.NotEq):
            return _fact(test.left, "!=", _literal(right, env), env)
        if isinstance(op, ast.In):
            return _fact(right, "contains", _literal(test.left, env), env)
    if isinstance(test, ast.Call) and ast.unparse(test.func) == "all" and isinstance(test.args[0], ast.ListComp):
        comp = test.args[0]
        (gen,) = comp.generators
        if isinstance(comp.elt, ast.Compare) and isinstance(comp.elt.ops[0], ast.In):
            target, path, wraps = _access(comp.elt.comparators[0], env)
            items = _literal(gen.iter, env)
            return {"target": target, "path": path, "wraps": wraps, "op": "contains all", "expected": items}
    return _fact(test, "==", True, env, ("bool",))


#: Feature names only TVM's ``test`` kind (registered for TVM's own tests) has.
TVM_ONLY_FEATURES = {"is_test", "is_missing"}


def _tvm_only(fact: dict[str, Any]) -> str | None:
    """Why a fact is about a TVM-only concept (not re-expressed), or None."""
    if fact["target"] == Expr(new=["test"], kw={}):
        return "TVM-only: the 'test' kind TVM registers for its own tests"
    if any(step.get("attr") in TVM_ONLY_FEATURES for step in fact.get("path", [])):
        return "TVM-only: a feature of TVM's 'test' kind"
    return None


def _run(body: list[ast.stmt], env: dict[str, Any], out: list[dict[str, Any]], skipped: list[str]) -> None:
    for stmt in body:
        try:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                try:
                    env[stmt.targets[0].id] = _value(stmt.value, env)
                except Skip:
                    env.pop(stmt.targets[0].id, None)  # its new value is not read: later facts on it are skipped too
                    raise
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple):
                whole = _value(stmt.value, env)
                if not isinstance(whole, Expr) or "of" not in whole:
                    raise Skip(ast.unparse(stmt))
                for i, name in enumerate(stmt.targets[0].elts):
                    assert isinstance(name, ast.Name)
                    env[name.id] = Expr(of=whole["of"], path=[*whole["path"], {"item": i}])
            elif isinstance(stmt, ast.Assert):
                found = _assert(stmt.test, env)
                why = _tvm_only(found)
                if why:
                    raise Skip(f"{why}: {ast.unparse(stmt.test)}")
                out.append({**found, "line": stmt.lineno})
            elif isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name):
                for item in _literal(stmt.iter, env):
                    _run(stmt.body, {**env, stmt.target.id: item}, out, skipped)
            elif isinstance(stmt, ast.With) and ast.unparse(stmt.items[0].context_expr).startswith("pytest.raises"):
                call = stmt.items[0].context_expr
                assert isinstance(call, ast.Call)
                match = {k.arg: _literal(k.value, env) for k in call.keywords}.get("match")
                (inner,) = stmt.body
                if not isinstance(inner, ast.Expr):
                    raise Skip("raises around a statement")
                target = _value(inner.value, env)
                if not isinstance(target, Expr):
                    raise Skip(f"raises around {ast.unparse(inner.value)}")
                error = ast.unparse(call.args[0])
                out.append({"target": target, "op": "raises", "expected": error, "match": match, "line": stmt.lineno})
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring
            else:
                raise Skip(ast.unparse(stmt).splitlines()[0])
        except Skip as why:
            skipped.append(f"line {stmt.lineno}: {why}")


def _rows(func: ast.FunctionDef) -> tuple[list[str], list[list[Any]]]:
    for deco in func.decorator_list:
        if isinstance(deco, ast.Call) and ast.unparse(deco.func) == "pytest.mark.parametrize":
            names = _literal(deco.args[0], {})
            names = names.split(",") if isinstance(names, str) else names
            return [n.strip() for n in names], _literal(deco.args[1], {})
    return [], [[]]


def _skipped_marker(func: ast.FunctionDef) -> str | None:
    for deco in func.decorator_list:
        text = ast.unparse(deco)
        if text.startswith(("pytest.mark.skip(", "pytest.mark.gpu", "pytest.mark.skipif")):
            return text
    return None


def read(files: dict[str, str]) -> dict[str, Any]:
    """The facts of TVM's test files (``name -> source``)."""
    tables: dict[str, Any] = {}
    bodies: list[dict[str, Any]] = []
    skipped: dict[str, list[str]] = {}
    for name, source in files.items():
        for func in ast.parse(source).body:
            if not isinstance(func, ast.FunctionDef) or not func.name.startswith("test_"):
                continue
            where = f"{name}::{func.name}"
            try:
                names, rows = _rows(func)
            except Skip as why:
                skipped[where] = [f"parameters: {why}"]
                continue
            if name in TABLES:
                if names:
                    tables[where] = [dict(zip(names, row, strict=True)) for row in rows]
                continue
            marker = _skipped_marker(func)
            if marker:
                skipped[where] = [f"TVM marks it {marker}"]
                continue
            for row in rows:
                env = dict(zip(names, row, strict=True))
                facts: list[dict[str, Any]] = []
                missed: list[str] = []
                _run(func.body, env, facts, missed)
                bodies += [{"test": where, "params": dict(zip(names, row, strict=True)), **f} for f in facts]
                if missed:
                    skipped.setdefault(where, []).extend(m for m in missed if m not in skipped.get(where, []))
    return {"tables": tables, "facts": bodies, "skipped": skipped}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git", required=True, help="a clone of apache/tvm")
    parser.add_argument("--rev", default="v0.26.0")
    parser.add_argument("--check", action="store_true", help="compare with the committed table instead of writing")
    args = parser.parse_args()
    show = ["git", "-C", args.git, "show"]
    commit = subprocess.run(
        [*show, "-s", "--format=%H", f"refs/tags/{args.rev}"], capture_output=True, text=True, check=True
    )
    files = {
        name: subprocess.run([*show, f"{commit.stdout.strip()}:tests/python/target/{name}"], capture_output=True,
                             text=True, check=True).stdout
        for name in (*TABLES, *BODIES)
    }  # fmt: skip
    data = read(files)
    table = {
        "source": f"Apache TVM {args.rev} ({commit.stdout.strip()}): tests/python/target/{{{','.join(files)}}}, "
        "read by interop/scripts/tvm_target_facts.py",
        "date": datetime.date.today().isoformat(),
        **data,
    }
    text = json.dumps(table, indent=1, sort_keys=False) + "\n"
    if args.check:
        old = json.loads(OUT.read_text(encoding="utf-8"))
        same = {k: v for k, v in old.items() if k != "date"} == {
            k: v for k, v in json.loads(text).items() if k != "date"
        }
        print("up to date" if same else f"{OUT} differs from what {args.rev} says")
        return 0 if same else 1
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    facts = len(data["facts"]) + sum(len(rows) for rows in data["tables"].values())
    print(f"wrote {OUT}: {facts} facts, {sum(map(len, data['skipped'].values()))} statements skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
