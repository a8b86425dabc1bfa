"""Which RISC-V ISA-string extensions each clang's ``-march`` accepts (``clang.riscv64.extensions``).

``generate_compilers.py`` asks every installed clang, and ``--riscv-extensions`` recomputes
only this part. The candidates are the extensions of the riscv plugin's table (LLVM 22's,
``tcfg_riscv.facts``), not experimental ones (those need a version and
``-menable-experimental-extensions``); a clang knows one when ``-march=rv64i...`` with it
compiles under riscv64-linux-gnu (or ``rv32i...`` under riscv32-linux-gnu: Zcf is RV32-only),
on the smallest of a few bases that the extension may need (``rv64i``, ``rv64imafdc``,
``rv64imafdcv``; a single letter in its canonical place).
tcfg spells a CPU a clang version does not know as such an ISA string.
"""

from __future__ import annotations

import datetime
import json
import shutil
from collections.abc import Callable
from typing import Any

import compiler_probes as ask

#: LLVM's canonical order of the single-letter extensions after the base.
CANONICAL = "mafdqlcbkjtpvnh"
_BASES = ("", "mafdc", "mafdcv")
#: What a partial mode measures with one clang: ``(table, clang, major)``, adding to ``table``.
Measure = Callable[[dict[str, dict[str, list[int]]], str, int], None]


def candidates() -> list[str]:
    """The non-experimental extensions of LLVM 22 (the riscv plugin's table) other than the bases."""
    from tcfg_riscv.facts import tables

    t = tables()
    return sorted(n for n, e in t.extensions.items() if not e["experimental"] and n not in ("i", "e"))


def _argvs(ext: str, xlen: int) -> list[list[str]]:
    if len(ext) == 1:
        order = CANONICAL.index(ext) if ext in CANONICAL else len(CANONICAL)
        return [[f"-march=rv{xlen}i{''.join(c for c in base if CANONICAL.index(c) < order)}{ext}"] for base in _BASES]
    return [[f"-march=rv{xlen}i{base}_{ext}"] for base in _BASES]


def march_extensions(tool: str) -> list[str]:
    """The candidates clang ``tool`` accepts in ``-march`` under riscv64 or, RV32-only ones (Zcf), riscv32."""
    found = []
    for ext in candidates():
        for xlen in (64, 32):
            compiler = [tool, f"--target=riscv{xlen}-linux-gnu"]
            if any(ask.accepted(compiler, [argv]) for argv in _argvs(ext, xlen)):
                found.append(ext)
                break
    return found


def installed_clangs(data: dict[str, Any]) -> dict[int, str] | None:
    """Each clang of the table's versions, or None (with a message) when one is not installed."""
    tools = {major: shutil.which(f"clang-{major}") for major in data["versions"]["clang"]}
    missing = [f"clang-{major}" for major, tool in tools.items() if tool is None]
    if missing:
        print(f"{', '.join(missing)} not installed: rerun the whole generator without them, or install them")
        return None
    return {major: str(tool) for major, tool in tools.items()}


def refresh_part(tool_key: str, measure: Measure, what: str) -> int:
    """Recompute the keys of ``data[tool_key]["riscv64"]`` that ``measure(table, clang, major)`` fills, per clang."""
    data: dict[str, Any] = json.loads(ask.OUT.read_text(encoding="utf-8"))
    tools = installed_clangs(data)
    if tools is None:
        return 1
    table: dict[str, dict[str, list[int]]] = {}
    for major, tool in tools.items():
        measure(table, tool, major)
    data[tool_key]["riscv64"].update(table)
    data["source"]["date"] = datetime.date.today().isoformat()
    ask.write_table(data)
    print(f"refreshed {what} in {ask.OUT}")
    return 0


def _add_extensions(table: dict[str, dict[str, list[int]]], tool: str, major: int) -> None:
    ask.add(table, "extensions", march_extensions(tool), major)


def refresh() -> int:
    """``--riscv-extensions``: recompute only ``clang.riscv64.extensions`` from the installed clangs."""
    return refresh_part("clang", _add_extensions, "clang.riscv64.extensions")
