"""Which RISC-V extensions an older LLVM has without a name: inside base I or inside C.

The ratified ISA split extensions out of what older specs put in base I 2.0 (Zicsr, Zifencei,
the counters Zicntr and Zihpm) and in C (Zcd: C's double-precision loads and stores; Zcf,
RV32's single-precision ones). An LLVM that has no name for such an extension may still have
its instructions in the containing set; then a target with the extension is expressed by
that set alone. Measured per clang (``generate_compilers.py`` asks every installed clang,
``--riscv-split`` recomputes only this part):

- ``llvm.riscv64.base_i``: the extensions whose instructions (:data:`PROBES`) clang-N
  assembles under ``-march=rv64i`` and which it has no name for (LLVM N has no such feature
  and its ``-march`` refuses ``rv64i_NAME``): LLVM 13-16, whose ``rv64i`` is I 2.0. LLVM
  assembles them under ``rv64i`` later too, but names them: there they are extensions of their own;
- ``llvm.riscv64.in_c``: the same for C, under ``-march=rv64imafdc`` (Zcd) or, RV32-only,
  ``rv32imafc`` (Zcf).

The probe tells the containing set from the rest: an extension outside it fails there (Zba's
``sh1add`` under ``rv64i``, Zcd's ``c.fld`` under ``rv64imafd``), as the truth test checks.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import compiler_probes as ask

#: Per containing set (the table's key under ``llvm.riscv64``), each extension split out of it:
#: the ``-march`` of the set and instructions of the extension (a CSR by number needs no CSR name).
PROBES: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "base_i": {
        "zicsr": ("rv64i", ("csrrw a0, 0x340, a1", "csrrsi a0, 0x340, 1", "csrrc a0, 0x340, a1")),
        "zifencei": ("rv64i", ("fence.i",)),
        "zicntr": ("rv64i", ("rdcycle a0", "rdtime a0", "rdinstret a0")),
        "zihpm": ("rv64i", ("csrr a0, hpmcounter3", "csrr a0, hpmcounter31")),
    },
    "in_c": {
        "zcd": ("rv64imafdc", ("c.fld fa0, 0(a0)", "c.fsdsp fa0, 0(sp)")),
        "zcf": ("rv32imafc", ("c.flw fa0, 0(a0)", "c.fswsp fa0, 0(sp)")),
    },
}


def _triple(march: str) -> str:
    return f"riscv{march[2:4]}-linux-gnu"


def assembles(tool: str, march: str, lines: tuple[str, ...]) -> bool:
    """Whether clang ``tool`` assembles ``lines`` under ``-march=MARCH`` (and its linux-gnu triple)."""
    with tempfile.TemporaryDirectory(prefix="tcfg-rv-") as tmp:
        source, obj = Path(tmp, "probe.s"), Path(tmp, "probe.o")
        source.write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv = [tool, f"--target={_triple(march)}", f"-march={march}", "-c", str(source), "-o", str(obj)]
        return ask.run(argv).returncode == 0


def split_out(tool: str) -> dict[str, list[str]]:
    """Per containing set of :data:`PROBES`, the extensions clang ``tool`` has only inside it."""
    features = set(ask.backend_names(tool, ask.TRIPLES["riscv64"])[1])
    found: dict[str, list[str]] = {}
    for within, probes in PROBES.items():
        found[within] = [
            ext
            for ext, (march, lines) in probes.items()
            if ext not in features
            and not ask.accepted([tool, f"--target={_triple(march)}"], [[f"-march={march}_{ext}"]])
            and assembles(tool, march, lines)
        ]
    return found


def add_split(table: dict[str, dict[str, list[int]]], tool: str, major: int) -> None:
    """Add clang ``tool`` (``major``)'s :func:`split_out` to ``table`` (``llvm.riscv64``); every key is present."""
    for within, exts in split_out(tool).items():
        ask.add(table, within, exts, major)


def refresh() -> int:
    """``--riscv-split``: recompute only ``llvm.riscv64.base_i`` and ``in_c`` from the installed clangs."""
    from riscv_march import refresh_part  # beside this script

    return refresh_part("llvm", add_split, "llvm.riscv64.base_i and in_c")
