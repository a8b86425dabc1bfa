"""Generate ``core/tcfg/data/triple_arches.json``: the triple architectures LLVM 22 knows.

The candidates are the names LLVM's triple parser takes (``parseArch`` in
``llvm/lib/TargetParser/Triple.cpp``, llvm-project commit 001f2be21a31: its exact
names, and the prefixes whose names it parses further: ``arm``, ``thumb`` and
``aarch64`` through the ARM target parser, ``bpf``, ``kalimba``). Each exact name is
then asked of ``llc-22``: ``backend`` are those it gets a target for (``llc-22
-mtriple=NAME-unknown-linux`` compiles an empty module), ``parser_only`` those the parser
knows but LLVM 22 builds no code for (``tce``, ``hsail``). ``llc-22 --version``'s
registered targets (``registered``) are candidates too: LLVM 22 has names newer than
that commit (``riscv64be``).

``python core/scripts/generate_triple_arches.py`` rewrites the table.
"""

from __future__ import annotations

import datetime
import json
import re
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tcfg" / "data" / "triple_arches.json"
#: parseArch's exact names (Triple.cpp), in its order.
EXACT = [
    "i386",
    "i486",
    "i586",
    "i686",
    "i786",
    "i886",
    "i986",
    "amd64",
    "x86_64",
    "x86_64h",
    "powerpc",
    "powerpcspe",
    "ppc",
    "ppc32",
    "powerpcle",
    "ppcle",
    "ppc32le",
    "powerpc64",
    "ppu",
    "ppc64",
    "powerpc64le",
    "ppc64le",
    "xscale",
    "xscaleeb",
    "aarch64",
    "aarch64_be",
    "aarch64_32",
    "arc",
    "arm64",
    "arm64_32",
    "arm64e",
    "arm64ec",
    "arm",
    "armeb",
    "thumb",
    "thumbeb",
    "avr",
    "m68k",
    "msp430",
    "mips",
    "mipseb",
    "mipsallegrex",
    "mipsisa32r6",
    "mipsr6",
    "mipsel",
    "mipsallegrexel",
    "mipsisa32r6el",
    "mipsr6el",
    "mips64",
    "mips64eb",
    "mipsn32",
    "mipsisa64r6",
    "mips64r6",
    "mipsn32r6",
    "mips64el",
    "mipsn32el",
    "mipsisa64r6el",
    "mips64r6el",
    "mipsn32r6el",
    "r600",
    "amdgcn",
    "riscv32",
    "riscv64",
    "hexagon",
    "s390x",
    "systemz",
    "sparc",
    "sparcel",
    "sparcv9",
    "sparc64",
    "tce",
    "tcele",
    "xcore",
    "nvptx",
    "nvptx64",
    "amdil",
    "amdil64",
    "hsail",
    "hsail64",
    "spir",
    "spir64",
    "spirv",
    "spirv1.5",
    "spirv1.6",
    "spirv32",
    "spirv32v1.0",
    "spirv32v1.1",
    "spirv32v1.2",
    "spirv32v1.3",
    "spirv32v1.4",
    "spirv32v1.5",
    "spirv32v1.6",
    "spirv64",
    "spirv64v1.0",
    "spirv64v1.1",
    "spirv64v1.2",
    "spirv64v1.3",
    "spirv64v1.4",
    "spirv64v1.5",
    "spirv64v1.6",
    "kalimba",
    "lanai",
    "renderscript32",
    "renderscript64",
    "shave",
    "ve",
    "wasm32",
    "wasm64",
    "csky",
    "loongarch32",
    "loongarch64",
    "dxil",
    "dxilv1.0",
    "dxilv1.1",
    "dxilv1.2",
    "dxilv1.3",
    "dxilv1.4",
    "dxilv1.5",
    "dxilv1.6",
    "dxilv1.7",
    "dxilv1.8",
    "xtensa",
    "pe",
    "bpf",
    "bpfeb",
    "bpfel",
    "bpf_be",
    "bpf_le",
]
#: Prefixes whose names parseArch hands to a further parser (ARM's, BPF's, Kalimba's StartsWith).
PREFIXES = ("arm", "thumb", "aarch64", "bpf", "kalimba")


def has_backend(arch: str) -> bool:
    done = subprocess.run(
        ["llc-22", f"-mtriple={arch}-unknown-linux", "-o", "/dev/null"],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode == 0


def main() -> int:
    version = subprocess.run(["llc-22", "--version"], capture_output=True, text=True, check=True).stdout
    registered = re.findall(r"^\s{4}(\S+)\s+- ", version.split("Registered Targets:")[-1], re.M)
    candidates = list(dict.fromkeys([*EXACT, *registered]))  # LLVM 22 registers names newer than that commit
    backend = [a for a in candidates if has_backend(a)]
    data = {
        "source": {
            "generator": "core/scripts/generate_triple_arches.py",
            "date": datetime.date.today().isoformat(),
            "parser": "llvm/lib/TargetParser/Triple.cpp parseArch, llvm-project commit 001f2be21a31",
            "tool": next((line.strip() for line in version.splitlines() if "LLVM version" in line), "llc-22"),
        },
        "backend": backend,
        "parser_only": [a for a in EXACT if a not in backend],
        "prefixes": list(PREFIXES),
        "registered": registered,
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(backend)} with an LLVM 22 backend, {len(data['parser_only'])} parser only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
