"""Regenerate ``data/host_cpus.json``: LLVM's x86 host CPU name by vendor, family, model and CPUID features.

LLVM names an x86 host in ``getIntelProcessorTypeAndSubtype`` and
``getAMDProcessorTypeAndSubtype`` (``llvm/lib/TargetParser/Host.cpp``): ``switch``
statements on the family and model, with ``if (Model >= a && Model <= b)`` ranges and
``testFeature(X86::FEATURE_...)`` tests. This script parses those two functions (the
small C subset they are written in) and runs them symbolically for every family 0-31
and model 0-255, the features left open: each (family, model) gets the list of
``[features required, features absent, CPU]`` outcomes. Consecutive models with the
same outcomes are stored as one range.

A CPU the installed LLVM does not know (``data/llvm_x86.json``, generated from LLVM 22)
is not assigned: the CPU assigned before it stays (``znver6`` leaves the family's
``znver5``), as the older LLVM's code had no such branch.

usage: python gen_host_cpu.py PATH/TO/llvm/lib/TargetParser/Host.cpp LLVM-REVISION [--check]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "tcfg_x86" / "data"
OUT = DATA / "host_cpus.json"
FUNCTIONS = {"GenuineIntel": "getIntelProcessorTypeAndSubtype", "AuthenticAMD": "getAMDProcessorTypeAndSubtype"}
_TOKEN = re.compile(
    r'\s*(?:(//[^\n]*)|("[^"]*")|(0x[0-9a-fA-F]+|\d+)'  # a comment, a string, a number
    r"|([A-Za-z_]\w*(?:::\w+)*)|(&&|\|\||[<>=!]=|[-(){};:=<>*!]))"  # a name (X86::FEATURE_MMX), an operator
)
_SPECIAL = {"SSE4_1": "sse4.1", "SSE4_2": "sse4.2", "SSE4_A": "sse4a"}

Outcome = tuple[frozenset[str], frozenset[str], "str | None"]


def feature_name(token: str) -> str:
    """``X86::FEATURE_SSE4_2`` -> ``sse4.2`` (LLVM's feature name)."""
    name = token.removeprefix("X86::FEATURE_")
    return _SPECIAL.get(name, name.lower())


def tokens(body: str) -> list[str]:
    out, pos = [], 0
    while pos < len(body):
        match = _TOKEN.match(body, pos)
        if match is None:
            if body[pos:].strip():
                raise SystemExit(f"cannot read Host.cpp near {body[pos : pos + 40]!r}")
            break
        pos = match.end()
        if not match.group(1):
            out.append(next(g for g in match.groups()[1:] if g is not None))
    return out


class Parser:
    """Statements of the C subset: switch/case/default, if/else, blocks, ``CPU = "x";``, break, return."""

    def __init__(self, toks: list[str]) -> None:
        self.toks, self.pos = toks, 0

    def peek(self) -> str:
        return self.toks[self.pos]

    def take(self, expected: str | None = None) -> str:
        tok = self.toks[self.pos]
        if expected is not None and tok != expected:
            raise SystemExit(f"Host.cpp: expected {expected!r}, found {tok!r} at token {self.pos}")
        self.pos += 1
        return tok

    def statement(self) -> Any:
        tok = self.peek()
        if tok == "{":
            self.take()
            body = []
            while self.peek() != "}":
                body.append(self.statement())
            self.take("}")
            return ("block", body)
        if tok == "switch":
            self.take(), self.take("(")
            subject = self.take()
            self.take(")"), self.take("{")
            items: list[Any] = []
            while self.peek() != "}":
                if self.peek() == "case":
                    self.take()
                    items.append(("label", int(self.take(), 0)))
                    self.take(":")
                elif self.peek() == "default":
                    self.take(), self.take(":")
                    items.append(("label", "default"))
                else:
                    items.append(self.statement())
            self.take("}")
            return ("switch", subject, items)
        if tok == "if":
            self.take(), self.take("(")
            cond = self.expr()
            self.take(")")
            then = self.statement()
            other = None
            if self.peek() == "else":
                self.take()
                other = self.statement()
            return ("if", cond, then, other)
        if tok == "break":
            self.take(), self.take(";")
            return ("break",)
        if tok == "return":
            while self.take() != ";":
                pass
            return ("return",)
        if tok == "CPU":
            self.take(), self.take("=")
            value = self.take()
            self.take(";")
            return ("cpu", None if value == "nullptr" else value.strip('"'))
        # Anything else (``*Type = X86::...;``, declarations) does not decide the CPU.
        while self.take() != ";":
            pass
        return ("block", [])

    def expr(self) -> Any:
        left = self.conj()
        while self.peek() == "||":
            self.take()
            left = ("or", left, self.conj())
        return left

    def conj(self) -> Any:
        left = self.atom()
        while self.peek() == "&&":
            self.take()
            left = ("and", left, self.atom())
        return left

    def atom(self) -> Any:
        if self.peek() == "(":
            self.take()
            inner = self.expr()
            self.take(")")
            return inner
        if self.peek() == "testFeature":
            self.take(), self.take("(")
            feature = feature_name(self.take())
            self.take(")")
            return ("feature", feature)
        subject, op, value = self.take(), self.take(), int(self.take(), 0)
        return ("cmp", subject, op, value)


_OPS = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
}
State = tuple[dict[str, bool], "str | None", "str | None"]  # constraints, CPU, control (break/return)


class Runner:
    """Runs the parsed function for one (family, model), forking on each feature test."""

    def __init__(self, family: int, model: int, known: set[str]) -> None:
        self.values = {"Family": family, "Model": model}
        self.known = known

    def truth(self, cond: Any, have: dict[str, bool]) -> list[tuple[dict[str, bool], bool]]:
        kind = cond[0]
        if kind == "cmp":
            return [(have, _OPS[cond[2]](self.values[cond[1]], cond[3]))]
        if kind == "feature":
            feature = cond[1]
            if feature in have:
                return [(have, have[feature])]
            return [({**have, feature: True}, True), ({**have, feature: False}, False)]
        out = []
        for first, value in self.truth(cond[1], have):
            if (kind == "and" and not value) or (kind == "or" and value):
                out.append((first, value))
            else:
                out += self.truth(cond[2], first)
        return out

    def run(self, stmt: Any, state: State) -> list[State]:
        have, cpu, control = state
        if control is not None:
            return [state]
        kind = stmt[0]
        if kind == "block":
            states = [state]
            for inner in stmt[1]:
                states = [s for st in states for s in self.run(inner, st)]
            return states
        if kind == "cpu":
            value = stmt[1]
            return [(have, value if value is None or value in self.known else cpu, None)]
        if kind in ("break", "return"):
            return [(have, cpu, kind)]
        if kind == "if":
            out: list[State] = []
            for branch_have, value in self.truth(stmt[1], have):
                chosen = stmt[2] if value else stmt[3]
                out += [(branch_have, cpu, None)] if chosen is None else self.run(chosen, (branch_have, cpu, None))
            return out
        # switch: run from the matching label (else default) to the end or a break.
        items = stmt[2]
        value = self.values[stmt[1]]
        labels = [i for i, item in enumerate(items) if item[0] == "label"]
        start = next((i for i in labels if items[i][1] == value), None)
        if start is None:
            start = next((i for i in labels if items[i][1] == "default"), None)
        if start is None:
            return [state]
        body = ("block", [item for item in items[start:] if item[0] != "label"])
        return [(h, c, None if ctl == "break" else ctl) for h, c, ctl in self.run(body, state)]


def outcomes(function: Any, family: int, model: int, known: set[str]) -> list[list[Any]]:
    runner = Runner(family, model, known)
    found = runner.run(function, ({}, None, None))
    rows = []
    for have, cpu, _ in found:
        rows.append([sorted(f for f, v in have.items() if v), sorted(f for f, v in have.items() if not v), cpu])
    return rows


def function_body(host_cpp: str, name: str) -> Any:
    start = host_cpp.find(f"{name}(unsigned Family")
    if start < 0:
        raise SystemExit(f"Host.cpp has no {name}")
    body_start = host_cpp.index("{", start)
    depth, pos = 0, body_start
    while True:
        depth += {"{": 1, "}": -1}.get(host_cpp[pos], 0)
        if depth == 0:
            break
        pos += 1
    parser = Parser(tokens(host_cpp[body_start : pos + 1]))
    return parser.statement()


def table(host_cpp: str, known: set[str]) -> tuple[dict[str, Any], list[Any]]:
    """vendor -> family -> ``[first model, last model, outcome index]`` rows (families with a named
    CPU), and the distinct outcome lists the rows index."""
    vendors: dict[str, Any] = {}
    distinct: list[Any] = []
    for vendor, name in FUNCTIONS.items():
        function = function_body(host_cpp, name)
        families: dict[str, list[list[Any]]] = {}
        for family in range(32):
            rows: list[list[Any]] = []
            for model in range(256):
                found = outcomes(function, family, model, known)
                if rows and rows[-1][2] == found:
                    rows[-1][1] = model
                else:
                    rows.append([model, model, found])
            if any(cpu for row in rows for *_, cpu in row[2]):
                for row in rows:
                    if row[2] not in distinct:
                        distinct.append(row[2])
                    row[2] = distinct.index(row[2])
                families[str(family)] = rows
        vendors[vendor] = families
    return vendors, distinct


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--check"]
    if len(args) != 2:
        raise SystemExit(__doc__)
    known = set(json.loads((DATA / "llvm_x86.json").read_text(encoding="utf-8"))["cpus"])
    data: dict[str, object] = {
        "source": (
            f"LLVM llvm/lib/TargetParser/Host.cpp at {args[1]}: getIntelProcessorTypeAndSubtype and "
            "getAMDProcessorTypeAndSubtype run for every family and model, CPUs LLVM 22 lacks left out, "
            "by plugins/x86/scripts/gen_host_cpu.py"
        ),
        "doc": (
            "vendors: vendor_id -> cpu family -> [first model, last model, index in outcomes]; outcomes: "
            "lists of [features present, features absent, CPU or null], one of which holds for any features"
        ),
    }
    data["vendors"], data["outcomes"] = table(Path(args[0]).read_text(encoding="utf-8"), known)
    text = json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"
    if "--check" in sys.argv:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            raise SystemExit(f"{OUT} differs from what {args[0]} gives; run without --check")
        return
    OUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
