"""The hook implementations of the x86 plugin: CPU parser, BYOC compiler and libraries, tags, codegen, detection.

Importing this module reads no data: the tables load on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from tcfg.plugin import Compiler, CpuParser, Library, hookimpl

if TYPE_CHECKING:
    from typing import Any

    from tcfg.plugin import Codegen, TagRegistrar, Target


@hookimpl
def tcfg_register_cpu_parsers(register: Callable[[CpuParser], None]) -> None:
    from tcfg_x86.parser import X86CpuParser

    register(X86CpuParser())


@hookimpl
def tcfg_register_compilers(register: Callable[[Compiler], None]) -> None:
    """The dnnl compiler."""
    from tcfg_x86.byoc import compilers

    for compiler in compilers():
        register(compiler)


@hookimpl
def tcfg_register_libraries(register: Callable[[Library], None]) -> None:
    """The -libs libraries of x86 llvm/c targets."""
    from tcfg_x86.byoc import libraries

    for library in libraries():
        register(library)


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_x86.tags import x86_tags

    for tag in x86_tags():
        register(tag)


@hookimpl
def tcfg_codegen(target: Target) -> Codegen | None:
    if target.kind.name not in ("llvm", "c") or "x86" not in target.keys:
        return None
    from tcfg_x86.codegen import codegen_for

    return codegen_for(target.attrs, target.kind.name)


@hookimpl
def tcfg_detect(sources: Mapping[str, tuple[str, ...]] | None) -> Sequence[Mapping[str, Any]]:
    """This machine's CPU when it is x86 Linux, or the recorded one (``cpuinfo``; an Intel Mac's
    ``sysctl``; a Windows ``cpuid`` dump)."""
    from tcfg_x86.detect import detect

    if sources is None:
        return detect(None)
    from tcfg_x86.recorded import recorded_specs

    return [*detect(sources), *recorded_specs(sources)]


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """x86 CPUs: same architecture and ABI, every ISA feature present (vector widths are tuning preferences)."""
    from tcfg.plugin import cpu_runs_on

    return cpu_runs_on(
        code,
        machine,
        ("x86_64", "x86"),
        same=(),
        at_least=(),
        ignore=("preferred_vector_width_bits", "vector_lanes_32bit", "vector_width_bits"),
    )
