"""The LLVM codegen configuration of a claimed Arm target.

clang and llc start from different feature sets for the same ``-mcpu``: clang from its
CPU table, llc from the backend's CPU definition, which can have fewer features
(``cortex-a7`` without NEON, ``ampere1`` without FP16FML). Each tool therefore gets its
own ``+f``/``-f`` list, computed against its own start, and both arrive at the target's
feature set exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from tcfg.plugin import (
    LLVMCodegen,
    Target,
    TargetError,
    arch_family,
    compensate,
    compiler_drift,
    compiler_knows,
    compiler_versions,
    require_known,
    without_opt_level,
)
from tcfg_aarch64.driver import native_spelling
from tcfg_aarch64.gcc_arm import gcc_arm_flags
from tcfg_aarch64.parser import resolve_target
from tcfg_aarch64.resolve import Resolved, minimal

__all__ = ["ArmCodegen", "clang_features", "codegen_for", "is_ours", "llc_features"]

_A64_DEFAULT_TRIPLE = "aarch64-unknown-linux-gnu"


@dataclass(frozen=True)
class ArmCodegen(LLVMCodegen):
    """:class:`~tcfg.plugin.LLVMCodegen` whose clang flags carry their own feature list.

    ``features`` (the ``-mattr`` string) is relative to llc's CPU definition;
    ``clang_features`` to clang's CPU table.
    """

    clang_features: Sequence[str] = ()
    resolved: Resolved | None = field(default=None, compare=False, repr=False)

    def clang_flags(self) -> list[str]:
        return LLVMCodegen.clang_flags(replace(self, features=tuple(self.clang_features)))

    def spell(self, compiler: str, version: int) -> list[str]:
        """``flags()``: AArch64 in the driver's own ``-mcpu=X+ext``/``-march=A+ext`` where that is exact.

        clang falls back to ``-Xclang -target-feature`` items (:meth:`clang_flags`) and
        llc, for a version without the CPU, to ``-mcpu=generic`` with every feature
        spelled out; gcc (the ``aarch64-linux-gnu-gcc`` cross compiler: no ``--target``)
        has no other way, so no exact spelling is an error naming the gcc that has one.
        32-bit Arm targets get gcc's ``-mcpu``/``-march`` with ``-mfpu``, ``-mfloat-abi``
        and the instruction set (:mod:`tcfg_aarch64.gcc_arm`), and clang and llc the
        ``-target-feature``/``-mattr`` form.
        """
        res = self.resolved
        arch = arch_family(self.triple)
        if compiler == "gcc" and res is not None and res.family.name == "arm":
            return require_known("gcc", version, "arm", gcc_arm_flags(res, self.triple, version))
        if res is None or res.family.name != "aarch64":
            return super().spell(compiler, version)
        if compiler != "gcc" and _unsayable(res, version):
            first = next(v for v in compiler_versions(compiler) if v > version and not _unsayable(res, v))
            raise TargetError(
                f"{compiler} {version} cannot express this AArch64 target exactly: {_unsayable(res, version)}; "
                f"{compiler} {first} is the first that does"
            )
        if compiler == "llc":
            return self._llc(res, version)
        tool = "gcc" if compiler == "gcc" else "clang"

        # clang before 22 gets the +ext/+noext whose meaning its tables show to be clang-22's (not LLVM 16's +noaes)
        found = native_spelling(res, _knows(tool, arch, version), _drift(tool, arch, version), gcc=tool == "gcc")
        target = [] if compiler == "gcc" else [f"--target={self.triple}"]
        if found is not None:
            flags = [*target, f"{found[0]}={found[1]}"]
            cpu = res.cpu.name if res.cpu is not None else None
            if compiler == "gcc" and found[0] == "-march" and cpu and compiler_knows("gcc", arch, "cpus", cpu, version):
                flags.append(f"-mtune={cpu}")  # gcc's -mcpu=CPU means other features: keep its tuning at least
            return flags
        if compiler == "clang":
            flags = compensate("clang", version, arch, without_opt_level(self.clang_flags()))
            return require_known("clang", version, arch, flags)
        newer = [
            v
            for v in compiler_versions("gcc")
            if v > version and native_spelling(res, _knows("gcc", arch, v), _drift("gcc", arch, v), gcc=True)
        ]
        start = f"-mcpu={res.cpu.name}" if res.cpu is not None else f"-march={res.arch}"
        raise TargetError(
            f"gcc {version} cannot express this AArch64 target ({start}, {self.triple}) exactly: neither its "
            "-mcpu nor any -march with the extensions it knows gives the same features"
            + (f"; gcc {newer[0]} can" if newer else "; use clang or llc, which take LLVM's feature names")
        )

    def _llc(self, res: Resolved, version: int) -> list[str]:
        try:
            flags = compensate("llc", version, "aarch64", without_opt_level(self.llc_flags()))
            return require_known("llc", version, "aarch64", flags)
        except TargetError as exc:
            generic = res.family.generic
            if generic is None:
                raise
            hw = res.family.hardware
            wanted = res.features & hw
            items = minimal(res.family, wanted - generic.llc_features, (generic.llc_features & hw) - wanted)
            spelled = [f"-mtriple={self.triple}", "-mcpu=generic", f"-mattr={','.join(items)}"]
            try:
                return require_known("llc", version, "aarch64", spelled)
            except TargetError:
                raise exc from None


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


def llc_features(res: Resolved) -> list[str]:
    """The ``-mattr`` items that take llc's ``-mcpu`` to the target's features."""
    hw = res.family.hardware
    items = minimal(res.family, (res.features - res.llc_baseline) & hw, (res.llc_baseline - res.features) & hw)
    return items + list(res.passthrough)


def clang_features(res: Resolved) -> list[str]:
    """The ``-target-feature`` items that take clang's ``-mcpu`` to the target's features.

    clang's frontend expands an architecture flag it is given (``+v9a``) into that
    architecture's default extensions (SVE2), so whatever such an expansion would add
    beyond the target's features is removed explicitly, after the additions.
    """
    family, hw = res.family, res.family.hardware
    adds = (res.features - res.baseline) & hw
    reach = set(res.baseline) | res.clang_on  # an override may bring back what clang's string had on
    for flag in adds & family.arch_flags:
        for arch in family.arches.values():
            if flag in arch.features and not (arch.features & family.arch_flags) - res.features:
                reach |= arch.features
    # clang applies -target-feature items in order with its own (frontend) extension
    # graph, which does not know every backend implication (-fullfp16 does not turn SVE
    # off there): additions first, then every removal spelled out.
    # Every addition is spelled out too: clang keeps one value per feature name, the last
    # given, so an explicit +neon overrides the -neon clang's driver derives from an
    # FPU-less CPU, where +dotprod alone would lose to it.
    minus = [f"-{f}" for f in sorted(frozenset(reach - res.features) & hw)]
    if family.name == "arm" and (adds or minus):
        # 32-bit Arm clang derives more from a feature it is given (-fp64 also drops
        # fpregs64 there): restate the target's FP and architecture features, which
        # is exact (they are closed, and every removal is of a feature outside them)
        adds |= res.features & (family.fp_features | family.arch_flags) & hw
    plus = [f"+{f}" for f in sorted(adds)]
    return plus + minus + list(res.passthrough)


def codegen_for(target: Target) -> LLVMCodegen:
    """Triple, CPU, LLVM feature strings for clang and llc, and float ABI."""
    attrs = target.attrs
    res = resolve_target(attrs, None if attrs.get("mtriple") is None else arch_family(attrs["mtriple"]))
    triple, notes = _triple(res, attrs.get("mtriple"))
    cpu = res.codegen_cpu
    llc = llc_features(res)
    clang = clang_features(res)
    float_abi = None
    if res.family.name == "arm":
        float_abi = res.float_abi
        if res.float_abi == "soft":
            llc.append("+soft-float")
            clang.append("+soft-float")
    if llc != clang:
        notes.append("llc's CPU definition differs from clang's CPU table: each tool gets its own feature list")
    notes.append(f"LLVM {res.family.source['llvm_major']} tables ({res.family.source['tool_version']})")
    return ArmCodegen(
        triple=triple,
        cpu=cpu,
        features=tuple(llc),
        float_abi=float_abi,
        opt_level=attrs.get("opt-level", 2),
        clang_cpu_flag="-mcpu",
        notes=tuple(notes),
        clang_features=tuple(clang),
        resolved=res,
    )


def _unsayable(res: Resolved, version: int) -> str | None:
    """Why LLVM ``version`` has no spelling of ``res`` at all (None if it may have one).

    Its architecture flags imply more than LLVM 22's (``data/compilers.json``,
    ``implies``): LLVM 16's ``v9a`` brings SVE2, so Armv9-A without SVE2 cannot be said there
    (``-sve2`` would take ``v9a`` with it).
    """
    for flag in sorted(res.features & res.family.arch_flags):
        more = [item[1:] for item in compiler_drift("llvm", "aarch64", "implies", flag, version) if item[0] == "+"]
        lacking = sorted(f for f in more if f not in res.features)
        if lacking:
            return f"LLVM {version}'s {flag} implies {', '.join(lacking)}, which the target lacks"
    return None


def _knows(tool: str, arch: str, version: int) -> Callable[[str, str], bool]:
    """Whether ``tool`` ``version`` takes a name; a clang ``+ext`` only where it means clang-22's (``modifiers``)."""

    def knows(what: str, name: str) -> bool:
        if what == "extensions" and tool == "clang" and not compiler_knows(tool, arch, "modifiers", name, version):
            return False
        return compiler_knows(tool, arch, what, name, version)

    return knows


def _drift(tool: str, arch: str, version: int) -> Callable[[str, str], tuple[str, ...] | None]:
    """clang: a start's drift; gcc: none, or None (unusable) where its macros differ from clang-22's."""

    def drift(what: str, name: str) -> tuple[str, ...] | None:
        moved = compiler_drift(tool, arch, what, name, version)
        if tool == "gcc":
            return None if moved else ()
        return moved

    return drift
