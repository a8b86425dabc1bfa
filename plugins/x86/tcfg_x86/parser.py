"""The x86 sub-parser of the core's ``llvm`` and ``c`` kinds."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from tcfg.plugin import (
    Answers,
    AttributeValueError,
    CpuParser,
    Derived,
    DeriveRequest,
    Feature,
    feature_name,
    host_triple,
)
from tcfg_x86.facts import tables
from tcfg_x86.resolve import resolve

__all__ = ["QUANTITIES", "X86CpuParser"]

#: The quantities every x86 target with vector registers has.
QUANTITIES = (
    Feature("vector_width_bits", "Width of the widest vector registers, in bits (128 SSE, 256 AVX, 512 AVX-512)."),
    Feature("vector_lanes_32bit", "Number of 32-bit lanes in the widest vector registers."),
    Feature(
        "preferred_vector_width_bits",
        "The vector width LLVM's vectorisers use: the llvm kind's -vector-width, else LLVM's default for the CPU.",
    ),
)

KEYS = ("x86", "cpu")


class X86CpuParser(CpuParser):
    """Claims ``x86_64``/``x86`` triples, or without a triple an LLVM x86 CPU name.

    Features are LLVM 22's, canonically spelled (``sse4.2`` -> ``sse4_2``); ``-mcpu=native``
    is resolved from ``/proc/cpuinfo`` into a concrete CPU and ``-mattr``.
    """

    name = "x86"
    arches = ("x86_64", "x86")

    @cached_property
    def features(self) -> Sequence[Feature]:  # type: ignore[override]
        t = tables()
        return (*(Feature(feature_name(f), t.docs[f]) for f in sorted(t.isa)), *QUANTITIES)

    def claims_cpu(self, mcpu: str) -> bool:
        return mcpu != "generic" and mcpu in tables().cpus

    def cpu_names(self) -> list[str]:
        return sorted(set(tables().cpus) - {"generic"})

    def claims_march(self, march: str) -> bool:
        """On x86, clang's ``-march`` names a CPU."""
        return self.claims_cpu(march)

    def portable(self, target: Any) -> Answers:
        from tcfg_x86.portable import portable  # read at the first portable name, not at start-up

        return portable(target)

    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        attrs: dict[str, Any] = dict(request.attrs)
        cpu = attrs.get("mcpu")
        march = attrs.get("march")
        if march is not None and cpu is not None and march != cpu:
            raise AttributeValueError(
                f"-mcpu={cpu} and -march={march} disagree; on x86 -march names the CPU too, give one of them"
            )
        cpu = cpu or march
        if cpu == "native":
            from tcfg_x86.detect import native

            host = native()
            attrs["mcpu"] = host.cpu
            attrs.pop("march", None)
            attrs["mattr"] = [*host.mattr, *(m for m in attrs.get("mattr", ()) if m not in host.mattr)]
            attrs.setdefault("mtriple", host_triple())
            cpu = host.cpu
        if arch is None:
            arch = "x86_64" if tables().cpus[cpu or "generic"].is_64bit else "x86"
        width = attrs.get("vector-width") if request.kind == "llvm" else None
        resolved = resolve(cpu or "generic", arch == "x86_64", tuple(attrs.get("mattr", ())), width)
        return Derived(attrs=attrs, keys=KEYS, features=resolved.features, why=resolved.why)
