"""32-bit Arm targets in gcc's spelling: ``-mcpu=X+ext`` or ``-march=A+ext``, ``-mfpu``, ``-mfloat-abi``, ``-mthumb``.

gcc and clang share most 32-bit Arm names but not always their meaning: gcc's
``cortex-a72`` has no Crypto Extension (``+crypto`` adds it), its ``armv8-a`` no FPU
(``+simd`` adds both). ``data/compilers.json``'s ``gcc.arm.spellings`` lists, per gcc
version, the spellings (a CPU or architecture with up to two ``+ext``) whose feature macros
gcc defines exactly as clang-22 does for the same spelling (measured by
``core/scripts/generate_compilers.py``), and for other spellings the clang-22 spelling whose
macros are gcc's (``drift.gcc.arm.reads_as``: gcc's ``cortex-a72`` is clang's
``cortex-a72+nocrypto``). With gcc's meaning so in clang-22's words, the plugin's resolver
(which implements clang-22's, and is tested against it) says which spelling gives the
target's features: the target's CPU is tried first, then its architecture and
older ones of its profile, each with the fewest modifiers. ``-mfpu=auto`` makes gcc take the
FPU from that name (Debian's gcc otherwise uses its configured ``vfpv3-d16``); a CPU with
NEON removed gets, where gcc's ``+ext`` cannot say it, the FPU LLVM names for the target's
FP features, when gcc's macros for it were measured to mean that (``-mcpu=cortex-a53
-mfpu=fp-armv8``); ``-mthumb`` is
given for M-profile and ``thumb*`` triples, ``-marm`` otherwise; ``-mtune`` keeps a CPU's
tuning when an architecture had to be spelled. No optimisation level.
"""

from __future__ import annotations

from tcfg.plugin import TargetError, compiler_drift, compiler_knows, compiler_names, compiler_versions
from tcfg_aarch64.driver import resolved_features, starts
from tcfg_aarch64.resolve import Resolved, fpu_name

__all__ = ["gcc_arm_flags", "gcc_arm_spelling"]


def _meanings(option: str, base: str, version: int) -> list[tuple[str, str, str]]:
    """``(gcc spelling, its -mfpu, clang-22 spelling it means)`` for ``base`` in gcc ``version``, fewest ``+ext`` first.

    ``base`` alone and with each ``+ext`` gcc takes for it, then with two where they mean
    clang-22's, then (a CPU) with each ``-mfpu`` measured to mean a clang-22 spelling.
    """
    mods = sorted(s for s in compiler_names("gcc", "arm", "start_extensions", version) if s.startswith(base + "+"))
    found = []
    for value in [base, *mods]:
        if compiler_knows("gcc", "arm", "spellings", f"{option}={value}", version):
            found.append((value, "auto", value))
            continue
        read = compiler_drift("gcc", "arm", "reads_as", f"{option}={value}", version)
        if read:
            found.append((value, "auto", read[0].partition("=")[2]))
    prefix = f"{option}={base}+"
    pairs = sorted(s for s in compiler_names("gcc", "arm", "spellings", version) if s.startswith(prefix))
    found += [(s.partition("=")[2], "auto", s.partition("=")[2]) for s in pairs if s.count("+") == 2]
    if option == "-mcpu":
        for fpu in sorted(compiler_names("gcc", "arm", "fpus", version)):
            read = compiler_drift("gcc", "arm", "reads_as", f"-mcpu={base} -mfpu={fpu}", version)
            if read:
                found.append((base, fpu, read[0].partition("=")[2]))
    return found


def gcc_arm_spelling(res: Resolved, version: int) -> tuple[str, str, str] | None:
    """``(option, value, fpu)`` (``("-mcpu", "cortex-a72+crypto", "auto")``) gcc ``version`` reads as ``res``.

    A spelling counts by what gcc's macros show it means in clang-22's words: itself where they
    agree (``gcc.arm.spellings``), else the clang-22 spelling measured to match (``drift.gcc.arm.reads_as``).
    None if no spelling gives ``res``'s features.
    """
    if res.passthrough:  # tuning features and modes given as -mattr: gcc has no word for them
        return None
    hardware = res.family.hardware
    target = res.features & hardware

    def knows(what: str, name: str) -> bool:
        return compiler_knows("gcc", "arm", what, name, version)

    # macros cannot tell VFPv4 from FP-ARMv8 without NEON: an -mfpu must be the one the target's FP features are
    own_fpu = fpu_name(res.family, res.features)
    for option, base in starts(res, knows):
        for value, fpu, meaning in _meanings(option, base, version):
            if fpu not in ("auto", own_fpu):
                continue
            got = resolved_features(res.family.name, option, meaning, res.float_abi)
            if got is not None and got & hardware == target:
                return option, value, fpu
    return None


def gcc_arm_flags(res: Resolved, triple: str, version: int) -> list[str]:
    """gcc ``version``'s flags for the 32-bit Arm target ``res`` (under ``triple``); TargetError if none is exact."""
    found = gcc_arm_spelling(res, version)
    if found is None:
        newer = [v for v in compiler_versions("gcc") if v > version and gcc_arm_spelling(res, v) is not None]
        start = f"-mcpu={res.cpu.name}" if res.cpu is not None else f"-march={res.arch}"
        raise TargetError(
            f"gcc {version} cannot express this 32-bit Arm target ({start}, {triple}) exactly: no CPU or "
            "architecture it knows, with the +ext it takes, gives the same features as gcc reads them"
            + (f"; gcc {newer[0]} can" if newer else "; no gcc tcfg knows of does; use clang or llc")
        )
    option, value, fpu = found
    thumb = res.profile == "m" or triple.startswith("thumb")
    flags = [f"{option}={value}", f"-mfpu={fpu}", f"-mfloat-abi={res.float_abi}", "-mthumb" if thumb else "-marm"]
    if option == "-march" and res.cpu is not None and compiler_knows("gcc", "arm", "cpus", res.cpu.name, version):
        flags.append(f"-mtune={res.cpu.name}")
    return flags
