"""``Codegen.flags(compiler, version)`` against every clang and gcc installed.

For a sample of AArch64, x86, 32-bit Arm, RISC-V and Hexagon targets (:data:`CASES`) and every installed
``clang-N`` (13-22, with ``opt-N``) and gcc (``gcc-N`` for x86, ``aarch64-linux-gnu-gcc-N``,
``arm-linux-gnueabihf-gcc-N`` and ``riscv64-linux-gnu-gcc-N``; the gcc check adds :data:`GCC_CASES`):

- **clang-N**: the flags tcfg gives for clang N compile an empty function with clang-N;
  LLVM N's subtarget for the function's ``target-cpu``/``target-features`` (read with
  ``opt-N``'s inliner, see ``llvm.subtarget_features``) must have exactly the hardware
  features LLVM 22's subtarget has for the reference, clang-22 run with
  ``clang_flags()`` (the ``-target-feature`` form the truth sweep checks), over every
  hardware feature name both LLVM versions know. Hexagon, whose subtargets that probe
  cannot read before LLVM 17, compares the CPU and the features the function is given.
- **gcc-N**: gcc-N with tcfg's gcc flags must define exactly the feature macros
  (``__ARM_FEATURE_*``, ``__ARM_NEON``; 32-bit Arm's also with ``__ARM_ARCH``, profile and
  ``__ARM_FP`` values; RISC-V's ``__riscv_*`` extension, width and float-ABI macros; x86's
  ``__AVX2__``-style ISA macros, see :func:`feature_macros`) clang-22 defines for the
  reference, over the macros gcc-N defines at all (with each extension, ISA option or
  spelling it knows, see :func:`gcc_macros`) that clang-22 defines for some case.
- **llc-N**: llc-N compiles a function with tcfg's llc flags without a warning (an
  unknown CPU or feature is one), and LLVM N's subtarget for its ``-mcpu``/``-mattr``
  has exactly the hardware features of the reference, as for clang.
- A refusal (``TargetError``) must name a newer version that can, or say none can.

Each case's outcome is one line in the returned problems list; an empty list is
agreement. :func:`check` does one compiler version, so tests can sample.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

import llvm

import tcfg
from tcfg.plugin import LLVMCodegen

__all__ = ["CASES", "GCC_CASES", "GCC_DRIVERS", "Outcome", "check", "feature_macros", "gcc_tool", "installed"]

#: The targets checked: the CPUs and spellings users meet, old and new, per family.
CASES = (
    "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a53",
    "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72",
    "raspberry-pi/4b",
    "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a76",
    "llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-n1",
    "aws/graviton3",
    "aws/graviton4",
    "llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-v2 -mattr=-sve",
    "llvm -mtriple=aarch64-linux-gnu -mcpu=a64fx",
    "llvm -mtriple=aarch64-linux-gnu -mcpu=apple-m1",
    "llvm -mtriple=aarch64-linux-gnu -march=armv8.2-a+nofp16",
    "llvm -mtriple=aarch64-linux-gnu -march=armv8.2-a+dotprod+fp16",
    "llvm -mtriple=aarch64-linux-gnu -march=armv9-a+nosve",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64-v3",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=haswell",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake -mattr=-avx2",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake-avx512",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=icelake-server",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=znver3",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=znver4",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=sapphirerapids",
    "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a7",
    "llvm -mtriple=armv8a-linux-gnueabihf -mcpu=cortex-a72",
    "llvm -mtriple=armv8a-linux-gnueabihf -mcpu=cortex-a53 -mattr=-neon",
    "llvm -mtriple=thumbv7em-none-eabihf -mcpu=cortex-m7",
    "c -mcpu=cortex-m4",
    "llvm -mtriple=thumbv8.1m.main-none-eabihf -mcpu=cortex-m55",
    "riscv/sifive-u74",
    "riscv/sifive-e31",
    "riscv/licheepi3a",
    "llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-x280",
    "llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-p550",
    "llvm -mtriple=riscv32-unknown-elf -mcpu=syntacore-scr4-rv32",
    "qcom/hexagon-v65",
    "qcom/hexagon-v68",
    "qcom/hexagon-v73",
)
#: More 32-bit Arm and RISC-V targets for the gcc check only: boards users compile for with a cross gcc.
GCC_CASES = (
    "arm/rasp3b",
    "arm/rasp4b",
    "arm/stm32mp1",
    "arm/beagleai",
    "arm/mps3-an547",
    "nordic/nrf5340-dk",
    "st/nucleo-f446re",
    "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a9 -mfloat-abi=softfp",
    "llvm -mtriple=thumbv7m-none-eabi -mcpu=cortex-m3",
    "llvm -mtriple=armv8a-linux-gnueabihf -mcpu=cortex-a72 -mattr=-crypto,-aes,-sha2",
    "llvm -mtriple=armv8a-linux-gnueabihf -march=armv8-a",
    "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a15 -mattr=-neon",
    "riscv/sifive-u54",
    "riscv/sifive-e76",
    "llvm -mtriple=riscv64-linux-gnu -mattr=+m,+a,+f,+d,+c,+v,+zba,+zbb,+zbs",
    "llvm -mtriple=riscv32-linux-gnu -mattr=+m,+c,+zbb",
    "llvm -mtriple=riscv64-linux-gnu -mattr=+m,+a,+f,+d,+c,+b -mabi=lp64d",
)
#: RISC-V macros that say how code is compiled, not for what (code model, misaligned-access policy,
#: clang's intrinsics version, the arch-test marker): not compared.
_RISCV_NOT_TARGET = re.compile(r"__riscv_(?:cmodel_\w+|misaligned_\w+|v_intrinsic|arch_test)")
#: RISC-V macros whose value is compared (widths); for the others, whether they are defined.
_RISCV_VALUED = frozenset({"__riscv_xlen", "__riscv_flen", "__riscv_v_min_vlen", "__riscv_v_elen", "__riscv_v_elen_fp"})
#: ``__ARM_FEATURE_CRYPTO`` is ACLE's deprecated umbrella: clang defines it for AES with SHA2, gcc only
#: for ``+crypto``; ``__ARM_FEATURE_AES`` and ``__ARM_FEATURE_SHA2`` say the same and are compared.
_FEATURE_MACRO = {
    "aarch64": re.compile(r"__ARM_FEATURE_(?!CRYPTO\b)\w+|__ARM_NEON"),
    "x86_64": re.compile(
        r"__(?:AVX\w*|SSE\w*|SSSE3|FMA4?|F16C|BMI2?|LZCNT|POPCNT|AES|PCLMUL|SHA|VAES|VPCLMULQDQ|GFNI|ADX|"
        r"RDRND|RDSEED|MOVBE|XSAVE\w*|CLFLUSHOPT|CLWB|AMX_\w+|AVXVNNI|SERIALIZE|WAITPKG|MOVDIRI|MOVDIR64B|"
        r"ENQCMD|PKU|RDPID|SGX|PTWRITE|TSXLDTRK|UINTR|CLDEMOTE|PRFCHW|LWP|XOP|TBM|MWAITX|CLZERO|WBNOINVD|"
        r"SHSTK|FSGSBASE|RTM|HRESET|KL|WIDEKL|AVX512\w*)__"
    ),
}


@dataclass
class Outcome:
    """One compiler version's verdict over the cases: checks made, refusals, problems."""

    tool: str
    checks: int = 0
    refused: int = 0
    problems: list[str] | None = None


#: The gcc driver per architecture (``{}`` is the major version): Debian's native and cross compilers.
GCC_DRIVERS = {
    "x86_64": "gcc-{}",
    "aarch64": "aarch64-linux-gnu-gcc-{}",
    "arm": "arm-linux-gnueabihf-gcc-{}",
    "riscv64": "riscv64-linux-gnu-gcc-{}",
}


def gcc_tool(family: str, major: int) -> str | None:
    """The gcc driver for ``family`` (:data:`GCC_DRIVERS`: x86-64 ``gcc-N``, the cross compilers), if installed."""
    return shutil.which(GCC_DRIVERS[family].format(major))


def installed(compiler: str) -> list[int]:
    """The versions of ``compiler`` tcfg has names for that are installed here (clang with its opt)."""
    from tcfg.plugin import compiler_versions

    found = []
    for major in compiler_versions(compiler):
        if compiler == "clang" and llvm.find(f"clang-{major}") and llvm.find(f"opt-{major}"):
            found.append(major)
        if compiler == "llc" and llvm.find(f"llc-{major}") and llvm.find(f"opt-{major}"):
            found.append(major)
        if compiler == "gcc" and any(gcc_tool(family, major) for family in GCC_DRIVERS):
            found.append(major)
    return found


def _codegen(target: tcfg.Target) -> LLVMCodegen:
    cg = target.codegen()
    assert isinstance(cg, LLVMCodegen), cg
    return cg


def _family(target: tcfg.Target) -> str:
    """The compilers table's architecture key of ``target``: aarch64, arm, x86_64, riscv64 or hexagon."""
    from tcfg.plugin import arch_family

    family = arch_family(_codegen(target).triple)
    if family in ("x86", "x86_64"):
        return "x86_64"
    return "riscv64" if family.startswith("riscv") else family


def _generator() -> ModuleType:
    """``core/scripts/generate_compilers.py``: the hardware sets and probe checks the table was measured with."""
    scripts = str(Path(__file__).resolve().parents[1] / "core" / "scripts")
    if scripts not in sys.path:
        sys.path.insert(0, scripts)
    import importlib

    return importlib.import_module("generate_compilers")


@cache
def _hardware(family: str) -> frozenset[str]:
    if family == "aarch64":
        from tcfg_aarch64.facts import aarch64

        return aarch64().hardware
    if family in ("arm", "riscv64"):
        return frozenset(_generator().hardware(family))
    from tcfg_x86.facts import tables

    return tables().isa


def _reference(target: tcfg.Target) -> tuple[str, str, str]:
    """(triple, target-cpu, target-features) clang-22 gives for ``clang_flags()``."""
    from tcfg.plugin import without_opt_level

    cg = _codegen(target)
    clang22 = llvm.find("clang-22")
    assert clang22 is not None
    flags = without_opt_level(cg.clang_flags())
    triple, cpu, items = llvm.clang_ir_attrs(clang22, cg.triple, [f for f in flags if not f.startswith("--target=")])
    return triple, cpu, ",".join(items)


#: AArch64 names whose meaning changed, not hardware of their own (``core/scripts/generate_compilers.py``):
#: ``crypto`` (AES+SHA2 until LLVM 16), ``sve2-bitperm`` (LLVM 22's ``sve-bitperm`` until LLVM 19).
UMBRELLA = frozenset({"crypto", "sve2-bitperm"})


#: RISC-V features clang's driver derives from C with D or F (LLVM's RISCVISAInfo) that the backend's
#: CPU definitions, which llc reads, do not: its compressed FP instructions are predicated on
#: "C or Zcd" ("C or Zcf"), so llc's code is the same. Not compared for llc.
_LLC_RISCV_SAME = frozenset({"zcd", "zcf"})


def _known_to(major: int, family: str, triple: str) -> frozenset[str]:
    """The hardware features LLVM ``major`` knows for ``family`` (and, for RISC-V, lets a subtarget be given alone)."""
    from tcfg.plugin import compiler_knows

    known = sorted(f for f in _hardware(family) - UMBRELLA if compiler_knows("llvm", family, "features", f, major))
    if family == "riscv64":
        known = _generator().probe_for(major, triple, tuple(known))
    return frozenset(known)


def _flags(out: Outcome, spec: str, cg: LLVMCodegen, tool: str, major: int) -> list[str] | None:
    """``cg.flags(tool, major)``, or None for a refusal (counted; a problem if it names no version that can)."""
    try:
        return cg.flags(tool, major)
    except tcfg.TargetError as exc:
        out.refused += 1
        problem = _refusal_problem(spec, tool, major, str(exc))
        if problem and out.problems is not None:
            out.problems.append(problem)
        return None


def _refusal_problem(spec: str, tool: str, major: int, message: str) -> str | None:
    """A problem if a refusal names no version (``X N is the first``) and does not say none can."""
    if re.search(
        rf"{tool} \d+ is the first that does|{tool} \d+ can\b|no {tool} tcfg knows of|use clang or llc", message
    ):
        return None
    return f"{spec}: {tool} {major} refused without naming a version that can: {message}"


def check(compiler: str, major: int, cases: Sequence[str] = CASES) -> Outcome:
    """Check ``compiler`` ``major`` (installed) over ``cases``."""
    if compiler == "clang":
        return _check_clang(major, cases)
    if compiler == "llc":
        return _check_llc(major, cases)
    return _check_gcc(major, cases)


def _check_clang(major: int, cases: Sequence[str]) -> Outcome:
    return _check_llvm("clang", major, cases)


def _check_llc(major: int, cases: Sequence[str]) -> Outcome:
    return _check_llvm("llc", major, cases)


def _config(tool: str, path: str, cg: LLVMCodegen, flags: list[str]) -> tuple[str, str]:
    """``(target-cpu, target-features)`` the tool at ``path`` builds from ``flags``; RuntimeError if it objects."""
    if tool == "clang":
        _, cpu, items = llvm.clang_ir_attrs(path, cg.triple, [f for f in flags if not f.startswith("--target=")])
        return cpu, ",".join(items)
    done = llvm.run([path, *flags, "-o", "/dev/null"], "define void @f() {\n  ret void\n}\n")
    if done.returncode != 0 or "not a recognized" in done.stderr:  # an unknown CPU or feature is only a warning
        raise RuntimeError(done.stderr.strip()[-300:])
    values = dict(flag[1:].split("=", 1) for flag in flags if flag.startswith(("-mcpu=", "-mattr=")))
    return values.get("mcpu", "generic"), values.get("mattr", "")


def _check_llvm(tool: str, major: int, cases: Sequence[str]) -> Outcome:
    """clang-N or llc-N: LLVM N's subtarget for tcfg's flags against LLVM 22's for the reference."""
    path, opt, opt22 = llvm.find(f"{tool}-{major}"), llvm.find(f"opt-{major}"), llvm.find("opt-22")
    assert path and opt and opt22
    out = Outcome(f"{tool}-{major}", problems=[])
    assert out.problems is not None
    for spec in cases:
        target = tcfg.Target(spec)
        family = _family(target)
        cg = _codegen(target)
        flags = _flags(out, spec, cg, tool, major)
        if flags is None:
            continue
        try:
            config = _config(tool, path, cg, flags)
        except RuntimeError as exc:
            out.problems.append(f"{spec}: {tool}-{major} refuses tcfg's flags {flags}: {str(exc)[-300:]}")
            continue
        triple, ref_cpu, ref_fs = _reference(target)
        if family == "hexagon" or (family == "riscv64" and major < _RISCV_PROBE_FROM):
            if tool == "clang" or family == "hexagon":
                _compare_items(out, spec, tool, major, flags, config, (ref_cpu, ref_fs), family)
            continue  # llc-N on RISC-V before 17: it took the flags without a warning; nothing reads its subtarget
        probe = sorted(_known_to(major, family, triple) & _known_to(22, family, triple))
        if tool == "llc" and family == "riscv64":
            probe = [f for f in probe if f not in _LLC_RISCV_SAME]
        got = llvm.subtarget_features(opt, triple, [config], probe)[0]
        want = llvm.subtarget_features(opt22, triple, [(ref_cpu, ref_fs)], probe)[0]
        out.checks += len(probe)
        if got != want:
            out.problems.append(
                f"{spec}: {tool}-{major} {' '.join(flags)} gives LLVM {major} "
                f"+{','.join(sorted(got - want)) or '-'} / -{','.join(sorted(want - got)) or '-'} "
                "against LLVM 22's subtarget for the target"
            )
    return out


#: LLVM's inliner compares RISC-V subtargets feature by feature from LLVM 17 on (before, any
#: difference keeps a callee out), so the subtarget probe reads RISC-V from 17 on only.
_RISCV_PROBE_FROM = 17


def _compare_items(
    out: Outcome,
    spec: str,
    tool: str,
    major: int,
    flags: list[str],
    config: tuple[str, str],
    ref: tuple[str, str],
    family: str,
) -> None:
    """The CPU and the features LLVM ``major`` is given must be clang-22's for the reference.

    For Hexagon (any version) and RISC-V before LLVM 17, whose subtargets the inliner
    probe cannot read: clang's driver gives the function every feature it means (RISC-V's
    ISA expanded, Hexagon's HVX spelled out), so the enabled items are compared, over the
    features LLVM ``major`` and 22 both know (a name only one knows is the names table's business).
    A RISC-V ISA-string spelling (``-march``, for a CPU the version lacks) has the generic CPU by
    design: there only the features are compared.
    """
    from tcfg.plugin import compiler_knows

    def enabled(fs: str) -> set[str]:
        return {
            item[1:]
            for item in fs.split(",")
            if item.startswith("+")
            and item[1:] not in ("long-calls", "relax")  # code-model and linker choices, not hardware
            and compiler_knows("llvm", family, "features", item[1:], major)
            and compiler_knows("llvm", family, "features", item[1:], 22)
        }

    assert out.problems is not None
    got, want = enabled(config[1]), enabled(ref[1])
    out.checks += len(want) + 1
    # an ISA string (a CPU the version lacks, tcfg_riscv.spelling) keeps the generic CPU: its features are compared
    cpu_differs = config[0] != ref[0] and not any(flag.startswith("-march=") for flag in flags)
    if cpu_differs or got != want:
        out.problems.append(
            f"{spec}: {tool}-{major} {' '.join(flags)} gives LLVM {major} cpu {config[0]} "
            f"+{','.join(sorted(got - want)) or '-'} / -{','.join(sorted(want - got)) or '-'} "
            f"against clang-22's cpu {ref[0]} and features for the target"
        )


def _macros(argv: Iterable[str]) -> dict[str, str]:
    done = llvm.run([*argv, "-dM", "-E", "-x", "c", "-"], "")
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {done.stderr.strip()[-300:]}")
    return dict(re.findall(r"^#define (\S+) ?(.*)$", done.stdout, re.M))


def feature_macros(family: str, argv: Sequence[str]) -> set[str]:
    """The feature macros ``argv`` (a compiler and its flags) defines for ``family``; RuntimeError if it refuses.

    AArch64 and x86: names. 32-bit Arm: ``NAME=value`` as the table's generator reads them
    (``arm_macros``: features, NEON, architecture, profile, FP formats, less those whose
    conditions differ between gcc and clang). RISC-V: each ``__riscv_*`` macro, with its
    value for the widths (``__riscv_xlen=64``), less those that say how, not for what, code is compiled.
    """
    if family == "arm":
        found = _generator().arm_macros(list(argv))
        if not found:
            raise RuntimeError(f"{' '.join(argv)}: refused (or no Arm feature macro)")
        return set(found)
    defined = _macros(argv)
    if family == "riscv64":
        return {
            f"{name}={value}" if name in _RISCV_VALUED else name
            for name, value in defined.items()
            if name.startswith("__riscv_") and not _RISCV_NOT_TARGET.fullmatch(name)
        }
    return {m for m in defined if _FEATURE_MACRO[family].fullmatch(m)}


def _name(macro: str) -> str:
    return macro.split("=", 1)[0]


@cache
def gcc_macros(gcc: str, family: str, major: int) -> frozenset[str]:
    """Every feature macro ``gcc`` defines for some extension (AArch64, RISC-V), option (x86) or spelling (Arm)."""
    from tcfg.plugin import compiler_names

    if family == "aarch64":
        runs = [[f"-march=armv8.2-a+{ext}"] for ext in sorted(compiler_names("gcc", "aarch64", "extensions", major))]
        runs += [[f"-march={arch}"] for arch in sorted(compiler_names("gcc", "aarch64", "arches", major))]
    elif family == "arm":
        gen = _generator()
        runs = [[s, "-mthumb" if "-m" in s.split("+")[0] else "-marm", *gen.ARM_FP]
                for s in sorted(compiler_names("gcc", "arm", "spellings", major))]  # fmt: skip
    elif family == "riscv64":
        from tcfg_riscv.spelling import isa_string

        exts = sorted(compiler_names("gcc", "riscv64", "extensions", major))
        runs = [[f"-march={isa_string(64, {*'imafdc', e})}", "-mabi=lp64d"] for e in exts if e != "e"]
        runs += [
            ["-march=rv32imac", "-mabi=ilp32"],
            ["-march=rv32imafc", "-mabi=ilp32f"],
            ["-march=rv64imac", "-mabi=lp64"],
        ]
    else:
        runs = [[f"-m{option}"] for option in sorted(compiler_names("gcc", "x86_64", "options", major))]
    found: set[str] = set()
    for argv in runs:
        try:
            found |= feature_macros(family, [gcc, *argv])
        except RuntimeError:
            continue  # an extension this architecture refuses
    return frozenset(found)


def _check_gcc(major: int, cases: Sequence[str]) -> Outcome:
    clang22 = llvm.find("clang-22")
    assert clang22
    out = Outcome(f"gcc-{major}", problems=[])
    assert out.problems is not None
    rows: list[tuple[str, str, str, set[str], set[str]]] = []
    seen: dict[tuple[str, str], set[str]] = {}  # (compiler, family) -> macros
    for spec in cases:
        target = tcfg.Target(spec)
        family = _family(target)
        if family not in GCC_DRIVERS:  # tcfg spells gcc for AArch64, x86, 32-bit Arm and RISC-V
            continue
        gcc = gcc_tool(family, major)
        if gcc is None:
            continue
        cg = _codegen(target)
        flags = _flags(out, spec, cg, "gcc", major)
        if flags is None:
            continue
        try:
            got = feature_macros(family, [gcc, *flags])
        except RuntimeError as exc:
            out.problems.append(f"{spec}: gcc-{major} refuses tcfg's flags {flags}: {exc}")
            continue
        from tcfg.plugin import without_opt_level

        want = feature_macros(family, [clang22, *without_opt_level(cg.clang_flags())])
        seen.setdefault(("gcc", family), set()).update(gcc_macros(gcc, family, major))
        seen.setdefault(("clang", family), set()).update(want)
        rows.append((spec, family, " ".join(flags), got, want))
    for spec, family, spelled, got, want in rows:
        both = {_name(m) for m in seen[("gcc", family)]} & {_name(m) for m in seen[("clang", family)]}
        out.checks += len(both)
        extra = {m for m in got - want if _name(m) in both}
        missing = {m for m in want - got if _name(m) in both}
        if extra or missing:
            out.problems.append(
                f"{spec}: gcc-{major} {spelled} defines {sorted(extra) or '-'} that clang-22 does not for the target, "
                f"and lacks {sorted(missing) or '-'}"
            )
    return out
