"""Generate ``tcfg_riscv/data/riscv.json`` from clang-22 and llc-22: every RISC-V CPU, extension and feature.

What comes from where:

* CPUs: ``clang-22 --target=riscv64-linux-gnu -print-supported-cpus``. Each CPU's extensions are
  the ISA string llc-22 writes (``.attribute 5``) for ``-mcpu=CPU`` on an empty module, checked
  against ``clang-22 -mcpu=CPU --print-enabled-extensions``. A CPU llc-22 refuses on a riscv64
  triple ("RV64 target requires an RV64 CPU") is a 32-bit CPU. CPUs clang refuses as ``-mcpu``
  (LLVM's tuning-only models: ``rocket``, ``sifive-7-series``) and llc refuses on both triples
  are listed as ``tune_only_cpus``; ``generic`` (which llc takes, as the triple's generic CPU)
  has ``xlen`` None and ``clang_mcpu`` False.
* Extensions: ``clang-22 -print-supported-extensions`` (name, version, description; the
  experimental ones are spelled ``experimental-NAME`` as LLVM features).
* LLVM features: ``llc-22 -mattr=help``. What ``+F`` implies is the ISA string llc-22 writes for
  ``-mcpu=generic-rv64 -mattr=+F`` (``generic-rv32`` for RV32-only features) beyond the base's.
  llc-22 refuses a ``zvlNb`` alone ("requires 'v' or 'zve*'"): those are measured as
  ``-mattr=+zve32x,+zvlNb`` beyond what ``+zve32x`` brings, its ``zvl32b`` kept (every
  ``zvlNb`` implies each smaller one).
* ``EXTRA_CPUS``: CPUs TVM's tags name that LLVM 22 lacks, defined in a later LLVM
  (``llvm/lib/Target/RISCV/RISCVProcessors.td``, commit cited): their extensions are what
  clang-22 enables for the ``-march`` string of that definition.

Run: ``python scripts/generate_data.py`` (needs clang-22 and llc-22 on PATH).
"""

from __future__ import annotations

import datetime
import json
import re
import subprocess
from pathlib import Path
from typing import Any

CLANG = "clang-22"
LLC = "llc-22"
OUT = Path(__file__).resolve().parent.parent / "tcfg_riscv" / "data" / "riscv.json"

EXTRA_CPUS = {
    "spacemit-x100": {
        "xlen": 64,
        "march": "rva23u64_zbc_zbkc_zcd_zfbfmin_zfh_zvbc_zvfbfwma_zvfh_zvkng_zvknha_zvksc_zvksg_zvl256b_xsmtvdot",
        "llvm_only_features": ["unaligned-scalar-mem"],
        "source": "LLVM llvm/lib/Target/RISCV/RISCVProcessors.td at commit 00ec7d0f7b70991b18fed0d4539fb0212b3888c9 "
        "(SPACEMIT_X100: RVA23U64 + Zbc, Zbkc, Zcd, Zfbfmin, Zfh, Zvbc, Zvfbfwma, Zvfh, Zvkng, Zvknha, Zvksc, "
        "Zvksg, Zvl256b, XSMTVDot, unaligned scalar memory); not in LLVM 22",
    }
}

_VERSIONED = re.compile(r"^([a-z][a-z0-9]*?)(\d+p\d+)$")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False)


def output(*args: str) -> str:
    """stdout and stderr of a tool (clang and llc print their help lists on either)."""
    proc = run(*args)
    return proc.stdout + proc.stderr


def isa_set(isa: str) -> set[str]:
    """The extensions of an ISA string ``rv64i2p1_m2p0_zicsr2p0`` -> {i, m, zicsr}."""
    parts = isa.split("_")
    head = re.sub(r"^rv(32|64)", "", parts[0])
    names = set()
    for token in [head, *parts[1:]]:
        match = _VERSIONED.match(token)
        if match is None:
            raise ValueError(f"unexpected ISA string token {token!r} in {isa!r}")
        names.add(match.group(1))
    return names


def llc_isa(triple: str, cpu: str, mattr: str = "") -> tuple[set[str] | None, str]:
    """The extensions llc-22 compiles with (its ``.attribute 5``), or None and its error."""
    args = [LLC, f"-mtriple={triple}", f"-mcpu={cpu}", "-o", "-"]
    if mattr:
        args.append(f"-mattr={mattr}")
    proc = subprocess.run(args, input="", capture_output=True, text=True, check=False)
    match = re.search(r'\.attribute\s+5, "([^"]+)"', proc.stdout)
    if proc.returncode != 0 or match is None:
        return None, proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else "no ISA string"
    return isa_set(match.group(1)), ""


def vector_length_isa(feat: str) -> set[str] | None:
    """The ISA llc-22 writes for ``+zvlNb`` next to the least vector extension it needs (``zve32x``),
    without what ``zve32x`` brings but ``zvl32b`` (which ``zvlNb`` implies too)."""
    with_prereq, _ = llc_isa("riscv64", "generic-rv64", f"+zve32x,+{feat}")
    prereq, _ = llc_isa("riscv64", "generic-rv64", "+zve32x")
    if with_prereq is None or prereq is None:
        return None
    return with_prereq - {e for e in prereq if not re.fullmatch(r"zvl\d+b", e)}


def clang_enabled(*args: str) -> set[str] | None:
    """``--print-enabled-extensions`` of clang-22 for ``args`` (None if clang refuses them)."""
    proc = run(
        CLANG, "--target=riscv64-linux-gnu", "-menable-experimental-extensions", *args, "--print-enabled-extensions"
    )
    match = re.search(r"ISA String: (\S+)", proc.stdout + proc.stderr)
    return isa_set(match.group(1)) if proc.returncode == 0 and match else None


def supported_cpus() -> list[str]:
    out = output(CLANG, "--target=riscv64-linux-gnu", "-print-supported-cpus")
    lines = out.split("Available CPUs for this target:", 1)[1].split("Use -mcpu", 1)[0]
    return sorted(line.strip() for line in lines.splitlines() if line.strip())


def supported_extensions() -> dict[str, dict[str, Any]]:
    out = output(CLANG, "--target=riscv64-linux-gnu", "-print-supported-extensions")
    exts: dict[str, dict[str, Any]] = {}
    section = "supported"
    for line in out.splitlines():
        if line.startswith("Experimental extensions"):
            section = "experimental"
        elif line.startswith(("Supported Profiles", "Experimental Profiles")):
            section = "profiles"
        match = re.match(r"^\s{4}([a-z][a-z0-9]*)\s+(\d+\.\d+)\s+(.*)$", line)
        if match and section != "profiles" and match.group(1) != "name":
            name = match.group(1)
            exts[name] = {
                "version": match.group(2),
                "description": match.group(3).strip(),
                "experimental": section == "experimental",
            }
    return exts


def llvm_features(cpus: set[str]) -> dict[str, str]:
    out = output(LLC, "-mtriple=riscv64", "-mattr=help")
    text = out.split("Available features for this target:", 1)[1]
    feats = {}
    for line in text.splitlines():
        match = re.match(r"^  (\S+)\s+- (.*)$", line)
        if match and match.group(1) not in cpus:
            feats[match.group(1)] = match.group(2).strip()
    return feats


def main() -> None:
    cpus = supported_cpus()
    extensions = supported_extensions()
    llvm_names = {(f"experimental-{n}" if e["experimental"] else n): n for n, e in extensions.items()}
    features = llvm_features(set(cpus))
    base = {32: llc_isa("riscv32", "generic-rv32")[0] or set(), 64: llc_isa("riscv64", "generic-rv64")[0] or set()}
    implies: dict[str, list[str]] = {}
    feature_xlen: dict[str, int] = {}
    for feat in sorted(features):
        got, _err = llc_isa("riscv64", "generic-rv64", f"+{feat}")
        xlen = 64
        if got is None:
            got, _err = llc_isa("riscv32", "generic-rv32", f"+{feat}")
            xlen = 32
        if got is None and re.fullmatch(r"zvl\d+b", feat):
            got = vector_length_isa(feat)
            xlen = 64
        if got is None:
            continue  # +32bit on riscv64 and +64bit on riscv32: recorded by xlen below
        implied = got - base[xlen]
        own = llvm_names.get(feat)
        if own:
            implied.add(own)
        implies[feat] = sorted(implied)
        if xlen == 32:
            feature_xlen[feat] = 32
    cpu_rows: dict[str, dict[str, Any]] = {}
    tune_only: list[str] = []
    disagreements = []
    for cpu in cpus:
        clang = clang_enabled(f"-mcpu={cpu}")
        if clang is None:  # a tuning model: clang takes it as -mtune only, llc only as generic
            got64, got32 = llc_isa("riscv64", cpu)[0], llc_isa("riscv32", cpu)[0]
            if got64 is None and got32 is None:
                tune_only.append(cpu)
            elif (got64, got32) == (base[64], base[32]):
                cpu_rows[cpu] = {"xlen": None, "extensions": [], "clang_mcpu": False}
            else:
                disagreements.append(f"{cpu}: clang refuses it, llc gives {got64} / {got32}")
            continue
        got, err = llc_isa("riscv64", cpu)
        xlen = 64
        if got is None and "requires an RV64 CPU" in err:
            got, err = llc_isa("riscv32", cpu)
            xlen = 32
        if got is None:
            raise SystemExit(f"llc-22 refuses -mcpu={cpu}: {err}")
        if clang != got:
            disagreements.append(f"{cpu}: llc and clang differ in {sorted(got ^ clang)}")
        cpu_rows[cpu] = {"xlen": xlen, "extensions": sorted(got)}
    for cpu, extra in EXTRA_CPUS.items():
        got = clang_enabled(f"-march={extra['march']}")
        if got is None:
            raise SystemExit(f"clang-22 refuses -march={extra['march']}")
        cpu_rows[cpu] = {
            "xlen": extra["xlen"],
            "extensions": sorted(got),
            "llvm22": False,
            "march": extra["march"],
            "llvm_only_features": extra["llvm_only_features"],
            "source": extra["source"],
        }
    if disagreements:
        raise SystemExit("\n".join(disagreements))
    version = run(CLANG, "--version").stdout.splitlines()[0]
    out = {
        "source": f"{version}: -print-supported-cpus, -print-supported-extensions, --print-enabled-extensions; "
        f"{LLC} -mattr=help and the ISA string (.attribute 5) it writes for each CPU and each +feature",
        "date": datetime.date.today().isoformat(),
        "tools": {"clang": version, "llc": run(LLC, "--version").stdout.split("\n")[1].strip()},
        "base": {str(k): sorted(v) for k, v in base.items()},
        "extensions": extensions,
        "features": {name: {"doc": doc, "implies": implies.get(name, [])} for name, doc in sorted(features.items())},
        "rv32_only_features": sorted(feature_xlen),
        "tune_only_cpus": tune_only,
        "cpus": cpu_rows,
    }
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(cpu_rows)} CPUs, {len(extensions)} extensions, {len(features)} LLVM features -> {OUT}")


if __name__ == "__main__":
    main()
