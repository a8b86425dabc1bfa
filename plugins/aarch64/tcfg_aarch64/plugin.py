"""The hook implementations of the aarch64 plugin (Arm A-profile and M-profile CPUs).

Importing this module reads no data and imports only what hooks are marked with: the
tables load on first use, and the names in annotations (``Codegen`` would import the
core's codegen module) are imported for type checking only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tcfg.plugin import arch_family, hookimpl, host_triple

if TYPE_CHECKING:
    from tcfg.plugin import Codegen, Compiler, CpuParser, Library, TagRegistrar, Target

__all__ = [
    "tcfg_codegen",
    "tcfg_detect",
    "tcfg_register_compilers",
    "tcfg_register_cpu_parsers",
    "tcfg_register_tags",
]


@hookimpl
def tcfg_register_cpu_parsers(register: Callable[[CpuParser], None]) -> None:
    from tcfg_aarch64.parser import ArmCpuParser

    register(ArmCpuParser())


@hookimpl
def tcfg_register_compilers(register: Callable[[Compiler], None]) -> None:
    """arm_compute_lib, cmsis-nn and ethos-u."""
    from tcfg_aarch64.byoc import compilers

    for compiler in compilers():
        register(compiler)


@hookimpl
def tcfg_register_libraries(register: Callable[[Library], None]) -> None:
    """The -libs libraries of Arm llvm/c targets."""
    from tcfg_aarch64.byoc import libraries

    for library in libraries():
        register(library)


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_aarch64.tags import arm_tags

    for tag in arm_tags():
        register(tag)


@hookimpl
def tcfg_codegen(target: Target) -> Codegen | None:
    from tcfg_aarch64.codegen import codegen_for, is_ours

    return codegen_for(target) if is_ours(target) else None


@hookimpl
def tcfg_detect(sources: Mapping[str, tuple[str, ...]] | None) -> Sequence[Target | Mapping[str, Any] | str]:
    """This machine's CPU when it is Arm Linux, or the recorded one (``cpuinfo``; an Apple silicon ``sysctl``)."""
    from tcfg_aarch64 import detect

    if sources is None:
        triple = host_triple()
        if arch_family(triple) not in ("aarch64", "arm"):
            return []
        text = detect.read_host()
    else:
        mac = next(iter(sources.get("sysctl", ())), None)
        if mac is not None and detect.is_apple_sysctl(mac):
            return [{"kind": "llvm", "mtriple": "arm64-apple-macos", **detect.sysctl_attrs(mac)}]
        text = next(iter(sources.get("cpuinfo", ())), None)
        if text is None or not detect.is_arm(text):
            return []
        triple = detect.recorded_triple(text)
    if text is None:
        return []
    return [{"kind": "llvm", "mtriple": triple, **detect.native_attrs(text)}]


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """Arm CPUs: same architecture and ABI (float ABI, profile), every feature present, an architecture
    version at least as new. Features that only name system registers (``data/runs_on.json``: LLVM's
    generic AArch64 CPU has the trace extensions, which no compiled code uses) are not compared."""
    from tcfg.plugin import cpu_runs_on
    from tcfg_aarch64.facts import system_register_features

    ignore = ("arch", "fpu", *system_register_features())
    return cpu_runs_on(
        code, machine, ("aarch64", "arm"), same=("profile", "float_abi"), at_least=("arch_version",), ignore=ignore
    )
