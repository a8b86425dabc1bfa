"""The LLVM codegen configuration of a claimed Arm target."""

from __future__ import annotations

from tcfg.plugin import LLVMCodegen, Target, arch_family
from tcfg_aarch64.parser import resolve_target
from tcfg_aarch64.resolve import Resolved

__all__ = ["codegen_for", "is_ours"]

_A64_DEFAULT_TRIPLE = "aarch64-unknown-linux-gnu"


def is_ours(target: Target) -> bool:
    """Whether ``target`` is an llvm/c target this plugin's parser claimed."""
    return target.kind.name in ("llvm", "c") and "arm_cpu" in target.keys and "arch" in target.features


def _triple(res: Resolved, given: str | None) -> tuple[str, list[str]]:
    notes: list[str] = []
    if res.family.name == "aarch64":
        if given is None:
            notes.append(f"no -mtriple: {_A64_DEFAULT_TRIPLE} assumed for AArch64 CPU code generation")
        return given or _A64_DEFAULT_TRIPLE, notes
    env = "eabihf" if res.float_abi == "hard" else "eabi"
    if given is None:
        triple = f"{res.triple_arch}-none-{env}"
        notes.append(f"no -mtriple: {triple} from the CPU's architecture ({res.arch}) and the float ABI")
        return triple, notes
    arch, _, rest = given.partition("-")
    if arch in ("arm", "thumb") and res.triple_arch:
        notes.append(f"triple architecture {arch!r} made specific as clang does: {res.triple_arch}")
        return f"{res.triple_arch}-{rest}", notes
    return given, notes


def codegen_for(target: Target) -> LLVMCodegen:
    """Triple, CPU, LLVM feature string (changes from the CPU's defaults) and float ABI."""
    attrs = target.attrs
    res = resolve_target(attrs, None if attrs.get("mtriple") is None else arch_family(attrs["mtriple"]))
    triple, notes = _triple(res, attrs.get("mtriple"))
    cpu = res.cpu.name if res.cpu is not None else "generic"
    changes = sorted(f"+{f}" for f in res.features - res.baseline)
    changes += sorted(f"-{f}" for f in res.baseline - res.features)
    float_abi = None
    if res.family.name == "arm":
        float_abi = res.float_abi
        if res.float_abi == "soft":
            changes.append("+soft-float")
    notes.append(f"LLVM {res.family.source['llvm_major']} tables ({res.family.source['tool_version']})")
    return LLVMCodegen(
        triple=triple,
        cpu=cpu,
        features=tuple(changes),
        float_abi=float_abi,
        opt_level=attrs.get("opt-level", 2),
        clang_cpu_flag="-mcpu",
        notes=tuple(notes),
    )
