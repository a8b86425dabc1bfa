"""The LoongArch sub-parser: CPU -> extensions, ``-mattr`` edits, keys and features."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tcfg.plugin import (
    Answer,
    Answers,
    AttributeValueError,
    CpuParser,
    Derived,
    DeriveRequest,
    Feature,
    describe_choices,
    none,
)
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

    def portable(self, target: Any) -> Answers:
        """The portable vocabulary (the core answers warp_size, thread blocks, shared memory and cores)."""
        exts, why = extensions(dict(target.attrs))
        simd = next((ext for ext in SIMD_BITS if ext in exts), None)
        no_dot = "LSX/LASX have no 4-way int8 dot product (vdp2 is 2-way, into 16 bits)"
        fixed = "LoongArch SIMD registers have fixed widths"
        return {
            "fp64": Answer("d" in exts, why.get("d", "the target lacks the d extension")),
            "fp16": Answer(False, "LoongArch has no fp16 arithmetic (LSX/LASX convert it only)"),
            "bf16": Answer(False, "LoongArch has no bfloat16 instructions"),
            "fp8_e4m3": Answer(False, "LoongArch has no FP8 instructions"),
            "fp8_e5m2": Answer(False, "LoongArch has no FP8 instructions"),
            "int8_dot": Answer(False, no_dot),
            "int4": Answer(False, "LoongArch has no 4-bit integer arithmetic"),
            "vector_bits": Answer(SIMD_BITS[simd], why[simd])
            if simd
            else Answer(0, "the target has neither LSX nor LASX"),
            "scalable_vectors": Answer(False, fixed),
            **none(fixed, ("scalable_vector_min_bits", "scalable_vector_max_bits")),
            "matrix": Answer(False, "LoongArch has no matrix engine"),
            "matrix_engine": Answer("", "LoongArch has no matrix engine"),
            "matrix_formats": Answer("", "LoongArch has no matrix engine"),
            "l2_cache_bytes": Answer(None, "data/cpus.json does not give cache sizes"),
        }

    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        attrs = dict(request.attrs)
        attrs.setdefault("mtriple", "loongarch64-unknown-linux-gnu")
        exts, why = extensions(attrs)
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


def extensions(attrs: dict[str, Any]) -> tuple[set[str], dict[str, str]]:
    """The extensions of a target's CPU after its ``-mattr`` edits, and what gave each."""
    table = cpu_table()
    cpu = attrs.get("mcpu", "generic-la64")
    if cpu not in table["cpus"]:
        raise AttributeValueError(f"-mcpu={cpu}: unknown LoongArch CPU; {describe_choices(cpu, table['cpus'])}")
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
    return exts, why
