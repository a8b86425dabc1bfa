"""LLVM codegen configuration for x86 targets, with the preferred vector width made explicit."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tcfg.plugin import (
    LLVMCodegen,
    TargetError,
    arch_family,
    compiler_drift,
    compiler_knows,
    compiler_names,
    compiler_versions,
    gcc_cpu_options,
    host_triple,
    require_known,
    undo_drift,
)
from tcfg_x86.facts import tables
from tcfg_x86.resolve import resolve

__all__ = ["X86Codegen", "clang_twin", "codegen_for"]

#: The tuning toggles that make LLVM prefer a vector width (X86Subtarget's PreferVectorWidth).
_WIDTH_TOGGLES = {
    512: ("-prefer-128-bit", "-prefer-256-bit"),
    256: ("-prefer-128-bit", "+prefer-256-bit"),
    128: ("+prefer-128-bit",),
}


@dataclass(frozen=True)
class X86Codegen(LLVMCodegen):
    """:class:`~tcfg.plugin.LLVMCodegen` plus the preferred vector width and why it was chosen.

    ``clang_cpu``, when set, is the CPU clang gets as ``-march`` in place of ``cpu``: clang
    refuses some names of LLVM's CPU table (``skylake_avx512``), so it gets a CPU it accepts
    with the same LLVM feature set. llc always gets ``cpu``.
    """

    preferred_vector_width: int = 0
    vector_width_source: str = ""
    clang_cpu: str | None = None
    clang_features: tuple[str, ...] | None = None
    isa: frozenset[str] = frozenset()

    def clang_flags(self) -> list[str]:
        """The core's clang flags, with ``clang_cpu`` and ``clang_features`` (when set) for ``cpu`` and ``features``."""
        features = self.features if self.clang_features is None else self.clang_features
        return LLVMCodegen.clang_flags(replace(self, cpu=self.clang_cpu or self.cpu, features=features))

    def spell(self, compiler: str, version: int) -> list[str]:
        """``flags()``: x86 features as the drivers' own ``-mFEATURE``/``-mno-FEATURE`` options.

        clang gets ``-march=CPU`` and, per feature item of :meth:`clang_flags` (with what
        that version's CPU has beyond LLVM 22's, or lacks, undone), the driver option where
        it has one, ``-Xclang -target-feature`` otherwise (tuning toggles). gcc gets
        ``-march=CPU`` and an option for every ISA feature where gcc's own CPU
        (``gcc -Q --help=target``, in ``data/compilers.json``) differs from the target.
        """
        if compiler == "llc":
            return super().spell(compiler, version)
        arch = arch_family(self.triple)
        cpu = self.clang_cpu or self.cpu
        if compiler == "gcc":
            return require_known("gcc", version, arch, self._gcc(version, arch, cpu))
        drift = compiler_drift("clang", arch, "cpus", cpu, version)
        # what this version's CPU has beyond LLVM 22's (or lacks) undone first, then the target's own items
        items = undo_drift(drift) + list(self.features if self.clang_features is None else self.clang_features)
        flags = [f"--target={self.triple}", f"-march={cpu}"]
        for item in items:
            name = item[1:]
            if compiler_knows("clang", arch, "options", name, version):
                flags.append(f"-m{name}" if item[0] == "+" else f"-mno-{name}")
            else:
                flags += ["-Xclang", "-target-feature", "-Xclang", item]
        return require_known("clang", version, arch, [*flags, *self.extra_clang])

    def _gcc(self, version: int, arch: str, cpu: str) -> list[str]:
        enabled = gcc_cpu_options(cpu, version)
        if enabled is None:
            newer = [v for v in compiler_versions("gcc") if v > version and gcc_cpu_options(cpu, v) is not None]
            later = f"gcc {newer[0]} can" if newer else "no gcc tcfg knows of does; use clang or llc"
            raise TargetError(f"gcc {version} does not know -march={cpu}; {later}")
        isa = tables().isa  # ISA options only: gcc's tuning options (-mvzeroupper) are not the target's
        ours = set(self.isa)
        every = {o for v in compiler_versions("gcc") for o in compiler_names("gcc", arch, "options", v)} & isa
        known = compiler_names("gcc", arch, "options", version) & isa
        enabled &= isa
        lacking = sorted((ours & every) - known)
        if lacking:
            newer = [
                v
                for v in compiler_versions("gcc")
                if v > version and set(lacking) <= compiler_names("gcc", arch, "options", v)
            ]
            later = f"gcc {newer[0]} can" if newer else "no gcc tcfg knows of has them; use clang or llc"
            raise TargetError(
                f"gcc {version} has no option for {', '.join(lacking)} of this x86 target (-march={self.cpu}); {later}"
            )
        flags = ["-m32"] if arch == "x86" else []
        flags.append(f"-march={cpu}")
        flags += [f"-m{o}" for o in sorted((ours & known) - enabled)]
        flags += [f"-mno-{o}" for o in sorted((enabled & known) - ours)]
        return flags + [f for f in self.extra_clang if f.startswith("-mprefer-vector-width=")]

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["preferred_vector_width"] = self.preferred_vector_width
        out["vector_width_source"] = self.vector_width_source
        return out


def clang_twin(cpu: str) -> str | None:
    """The CPU clang should get as ``-march`` for ``cpu``, if clang refuses ``cpu`` and ``cpu`` has a twin.

    The twins are the CPUs clang accepts with ``cpu``'s LLVM feature set (``march_twins``);
    the data's ``clang_cpu`` is the one spelled most like ``cpu`` (the longest common prefix
    once ``-`` and ``_`` are dropped, ties to the first by name). So ``skylake_avx512`` gets
    ``skylake-avx512`` (not ``skx``), ``pentium_4`` ``pentium4`` and ``pentium_iii``
    ``pentium3`` (not ``c3-2``). None for a CPU clang accepts, and for ``generic``, which
    has no twin (clang gets ``x86-64`` with what it has beyond ``generic`` removed).
    """
    if not tables().march_twins.get(cpu):
        return None
    return tables().cpus[cpu].clang_cpu


def codegen_for(attrs: Any, kind: str) -> X86Codegen:
    """The codegen configuration of an x86 ``llvm``/``c`` target with attributes ``attrs``."""
    from tcfg.plugin import arch_family

    triple = attrs.get("mtriple") or host_triple()
    cpu = attrs.get("mcpu") or attrs.get("march") or "generic"
    width = attrs.get("vector-width") if kind == "llvm" else None
    is64 = arch_family(triple) == "x86_64"
    resolved = resolve(cpu, is64, tuple(attrs.get("mattr", ())), width)
    entry = tables().cpus[cpu]
    clang_cpu = entry.clang_cpu if is64 else entry.clang_cpu_32bit
    clang_extra = entry.clang_extra if is64 else entry.clang_extra_32bit
    features = list(resolved.mattr)
    extra_clang: list[str] = []
    notes = [f"CPU and feature tables from {tables().llvm_version}"]
    if width is not None:
        features += _WIDTH_TOGGLES[width]
        extra_clang.append(f"-mprefer-vector-width={width}")
        notes.append(f"preferred vector width {width} bits, chosen by -vector-width={width}")
    elif resolved.preferred_width:
        notes.append(
            f"preferred vector width {resolved.preferred_width} bits: {resolved.width_source}; "
            "set -vector-width to choose another"
        )
    twin = clang_twin(cpu)
    if twin is not None:
        notes.append(
            f"{tables().clang_version} does not accept -march={cpu}, so clang gets -march={twin}, "
            f"whose LLVM feature set is identical (tuning follows {twin}); llc keeps -mcpu={cpu}"
        )
    elif clang_cpu != cpu:
        notes.append(
            f"{tables().clang_version} does not accept -march={cpu}, so clang gets -march={clang_cpu} "
            f"with {','.join(clang_extra)} (that CPU's features beyond {cpu}'s removed)"
        )
    if entry.llc_extra:
        notes.append(
            f"llc gets {','.join(entry.llc_extra)} explicitly: LLVM's backend definition of {cpu} lacks what "
            "clang's CPU table gives it"
        )
    if clang_extra and clang_cpu == cpu:
        notes.append(
            f"clang gets {','.join(clang_extra)} explicitly: its CPU table lacks what LLVM's backend definition "
            f"of {cpu} gives it"
        )
    # clang's frontend turns on more with +F than LLVM's -mattr does (popcnt with sse4.2,
    # xsave with avx, mmx with sse): clang is told to leave those off again.
    named = {item[1:] for item in resolved.mattr} | {item[1:] for item in clang_extra if item[0] == "-"}
    frontend_only = sorted(
        {f for item in resolved.mattr if item[0] == "+" for f in tables().clang_implies.get(item[1:], ())}
        - resolved.isa
        - named
    )
    if frontend_only:
        notes.append(
            f"clang gets -{',-'.join(frontend_only)} explicitly: its frontend turns them on with "
            f"{','.join(i for i in resolved.mattr if i[0] == '+')}, LLVM's -mattr does not"
        )
    return X86Codegen(
        triple=triple,
        cpu=cpu,
        features=(*entry.llc_extra, *features),
        opt_level=attrs.get("opt-level", 2),
        clang_cpu_flag="-march",
        extra_clang=tuple(extra_clang),
        notes=tuple(notes),
        preferred_vector_width=resolved.preferred_width,
        vector_width_source=resolved.width_source,
        clang_cpu=clang_cpu if clang_cpu != cpu else None,
        clang_features=(*clang_extra, *features, *(f"-{f}" for f in frontend_only)),
        isa=resolved.isa,
    )
