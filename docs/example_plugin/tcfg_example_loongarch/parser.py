"""The LoongArch sub-parser: CPU -> extensions, ``-mattr`` edits, keys and features."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tcfg.plugin import AttributeValueError, CpuParser, Derived, DeriveRequest, Feature, describe_choices
from tcfg_example_loongarch.facts import cpu_table

if TYPE_CHECKING:  # typing costs a fresh process milliseconds: its names are for the type checker
    from typing import Any

#: SIMD register width in bits for each SIMD extension, widest first.
SIMD_BITS = {"lasx": 256, "lsx": 128}


class LoongArchParser(CpuParser):
    """Claims loongarch32/loongarch64 triples and the CPUs of ``data/cpus.json``."""

    name = "loongarch"
    arches = ("loongarch64", "loongarch32")
    features = (
        Feature("is_loongarch", "A LoongArch CPU."),
        Feature("lsx", "128-bit SIMD.", aliases=("has_lsx",)),
        Feature("lasx", "256-bit SIMD.", aliases=("has_lasx",)),
        Feature("simd_bits", "Widest SIMD register in bits (0 without LSX)."),
        Feature("frecipe", "Approximate reciprocal instructions."),
    )

    def claims_cpu(self, mcpu: str) -> bool:
        return mcpu in cpu_table()["cpus"] and not mcpu.startswith("generic")

    def cpu_names(self) -> list[str]:
        return sorted(cpu_table()["cpus"])

    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        table = cpu_table()
        attrs = dict(request.attrs)
        cpu = attrs.get("mcpu", "generic-la64")
        if cpu not in table["cpus"]:
            raise AttributeValueError(f"-mcpu={cpu}: unknown LoongArch CPU; {describe_choices(cpu, table['cpus'])}")
        attrs.setdefault("mtriple", "loongarch64-unknown-linux-gnu")
        exts = set(table["cpus"][cpu]["extensions"])
        why = {e: f"-mcpu={cpu} has it" for e in exts}
        for item in attrs.get("mattr", ()):
            sign, ext = item[0], item[1:]
            if ext not in table["extensions"]:
                raise AttributeValueError(
                    f"-mattr={item}: unknown LoongArch extension; {describe_choices(ext, table['extensions'])}"
                )
            if sign == "+":
                for needed in (ext, *table["requires"].get(ext, ())):
                    exts.add(needed)
                    why[needed] = f"-mattr={item}" if needed == ext else f"-mattr={item} requires {needed}"
            else:
                exts -= {ext, *(e for e, reqs in table["requires"].items() if ext in reqs)}
        features: dict[str, Any] = {"is_loongarch": True, "simd_bits": 0}
        features.update({e: True for e in ("lsx", "lasx", "frecipe") if e in exts})
        widest = next((ext for ext in SIMD_BITS if ext in exts), None)
        if widest is not None:
            features["simd_bits"] = SIMD_BITS[widest]
            why["simd_bits"] = why[widest]
        return Derived(
            attrs=attrs,
            keys=("loongarch_cpu", "cpu"),
            features=features,
            why={k: v for k, v in why.items() if k in features},
        )
