"""The RISC-V sub-parser: CPU -> extensions, ``-mattr`` edits, keys and features."""

from __future__ import annotations

from functools import cache
from typing import Any

from tcfg.plugin import AttributeValueError, CpuParser, Derived, DeriveRequest, Feature, describe_choices, package_json


@cache
def cpu_table() -> dict[str, Any]:
    """The CPU data shipped with the plugin, read once on first use."""
    table: dict[str, Any] = package_json(__package__, "cpus.json")
    return table


class RiscvParser(CpuParser):
    """Claims riscv32/riscv64 triples and the CPUs of ``cpus.json``."""

    name = "riscv"
    arches = ("riscv64", "riscv32")
    features = (
        Feature("is_riscv", "A RISC-V CPU."),
        Feature("rvv", "The V vector extension.", aliases=("has_rvv",)),
        Feature("vlen_bits", "Vector register width in bits (0 without V)."),
        Feature("zba", "Address generation bit manipulation."),
        Feature("zbb", "Basic bit manipulation."),
    )

    def claims_cpu(self, mcpu: str) -> bool:
        return mcpu in cpu_table()["cpus"] and mcpu != "generic-rv64"

    def cpu_names(self) -> list[str]:
        return sorted(cpu_table()["cpus"])

    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        table = cpu_table()
        attrs = dict(request.attrs)
        cpu = attrs.get("mcpu", "generic-rv64")
        if cpu not in table["cpus"]:
            raise AttributeValueError(f"-mcpu={cpu}: unknown RISC-V CPU; {describe_choices(cpu, table['cpus'])}")
        attrs.setdefault("mtriple", "riscv64-unknown-linux-gnu")
        exts = set(table["cpus"][cpu]["extensions"])
        why = {e: f"-mcpu={cpu} has it" for e in exts}
        for item in attrs.get("mattr", ()):
            sign, ext = item[0], item[1:]
            if ext not in table["extensions"]:
                raise AttributeValueError(
                    f"-mattr={item}: unknown RISC-V extension; {describe_choices(ext, table['extensions'])}"
                )
            if sign == "+":
                for needed in (ext, *table["requires"].get(ext, ())):
                    exts.add(needed)
                    why[needed] = f"-mattr={item}" if needed == ext else f"-mattr={item} requires {needed}"
            else:
                exts -= {ext, *(e for e, reqs in table["requires"].items() if ext in reqs)}
        features: dict[str, Any] = {"is_riscv": True, "vlen_bits": table["cpus"][cpu]["vlen_bits"]}
        features.update({e: True for e in ("zba", "zbb") if e in exts})
        if "v" in exts:
            features["rvv"] = True
            why["rvv"] = why["v"]
        else:
            features["vlen_bits"] = 0
        return Derived(
            attrs=attrs,
            keys=("riscv_cpu", "cpu"),
            features=features,
            why={k: v for k, v in why.items() if k in features},
        )
