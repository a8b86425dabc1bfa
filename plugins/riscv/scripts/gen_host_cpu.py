"""Regenerate ``data/host_cpus.json``: the ``uarch`` names LLVM's host detection maps to RISC-V CPUs.

LLVM names a RISC-V Linux host's CPU in ``getHostCPUNameForRISCV``
(``llvm/lib/TargetParser/Host.cpp``) from the ``uarch`` line of ``/proc/cpuinfo``; an
unknown or missing ``uarch`` falls back to ``generic-rv32``/``generic-rv64``
(``sys::getHostCPUName``). This script writes that function's ``StringSwitch`` as data.

usage: python gen_host_cpu.py PATH/TO/llvm/lib/TargetParser/Host.cpp LLVM-REVISION [--check]
(``--check`` compares instead of writing; exit 1 on a difference.)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tcfg_riscv" / "data" / "host_cpus.json"
_FUNCTION = re.compile(r"getHostCPUNameForRISCV\(StringRef ProcCpuinfoContent\).*?\n}\n", re.S)
_CASE = re.compile(r'\.Case\("([a-z0-9,._-]+)",\s*"([a-z0-9-]+)"\)')


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--check"]
    if len(args) != 2:
        raise SystemExit(__doc__)
    match = _FUNCTION.search(Path(args[0]).read_text(encoding="utf-8"))
    if match is None:
        raise SystemExit(f"{args[0]} has no getHostCPUNameForRISCV")
    table = {
        "source": (
            f"LLVM llvm/lib/TargetParser/Host.cpp at {args[1]}, getHostCPUNameForRISCV (the /proc/cpuinfo "
            "uarch line), by plugins/riscv/scripts/gen_host_cpu.py"
        ),
        "uarch": dict(sorted(_CASE.findall(match.group(0)))),
    }
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if "--check" in sys.argv:
        if not DATA.exists() or DATA.read_text(encoding="utf-8") != text:
            raise SystemExit(f"{DATA} differs from what {args[0]} gives; run without --check")
        return
    DATA.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
