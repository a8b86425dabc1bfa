"""``t.codegen().flags(compiler, version)`` for Arm targets: clang's and gcc's own spellings.

Pinned outputs of the generated tables (no tool runs here); ``truth/test_compilers.py``
compiles them with every clang and gcc installed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import tcfg
from tcfg_aarch64.driver import _features

Make = Callable[[object], tcfg.Target]
A64 = "llvm -mtriple=aarch64-linux-gnu"


@pytest.mark.parametrize(
    ("spec", "clang", "gcc"),
    [
        # the example: clang's own -march says it, no -Xclang pairs
        (f"{A64} -march=armv8.2-a+nofp16", ["-march=armv8.2-a"], ["-march=armv8.2-a"]),
        # gcc's -mcpu=cortex-a72 leaves the optional crypto unit out, LLVM's has it: gcc gets the
        # architecture with the extensions, and the CPU's tuning
        (
            f"{A64} -mcpu=cortex-a72",
            ["-mcpu=cortex-a72"],
            ["-march=armv8-a+aes+crc+sha2", "-mtune=cortex-a72"],
        ),
        (f"{A64} -mcpu=neoverse-v2 -mattr=+sme", ["-mcpu=neoverse-v2+sme"], None),
        (f"{A64} -march=armv8.2-a+dotprod+fp16", ["-march=armv8.2-a+dotprod+fp16"], None),
    ],
)
def test_native_spellings(make: Make, spec: str, clang: list[str], gcc: list[str] | None) -> None:
    cg = make(spec).codegen()
    flags = cg.flags("clang")
    assert flags == [f"--target={cg.triple}", *clang]
    assert "-Xclang" not in flags and not any(f.startswith("-O") for f in flags)
    if gcc is not None:
        assert cg.flags("gcc", 12) == gcc


def test_a_native_spelling_means_the_targets_features(make: Make) -> None:
    """The spelling, read back by the plugin's model of clang-22, is the target exactly."""
    for spec in (f"{A64} -mcpu=neoverse-v2 -mattr=-sve", "raspberry-pi/4b", f"{A64} -mcpu=a64fx -mattr=-sve"):
        t = make(spec)
        option, value = t.codegen().flags("clang")[1].split("=", 1)
        from tcfg_aarch64.facts import aarch64

        assert _features(option, value) == frozenset(t.codegen().resolved.features) & aarch64().hardware  # type: ignore[attr-defined]


def test_optimisation_level_only_when_asked(make: Make) -> None:
    cg = make(f"{A64} -mcpu=cortex-a72").codegen()
    assert cg.flags("clang", opt_level=3)[-1] == "-O3"
    assert cg.flags("llc", opt_level=1)[-1] == "-O=1"
    assert cg.flags("llc") == ["-mtriple=aarch64-linux-gnu", "-mcpu=cortex-a72"]


def test_a_version_without_the_cpu_names_the_one_with_it(make: Make) -> None:
    cg = make("aws/graviton4").codegen()
    with pytest.raises(tcfg.TargetError, match=r"llc 14 .* does not know cpu 'neoverse-v2'; llc 16 is the first"):
        cg.flags("llc", 14)
    with pytest.raises(tcfg.TargetError, match=r"clang 14 .*neoverse-v2.*clang \d+ is the first that does"):
        cg.flags("clang", 14)


def test_an_older_clang_gets_the_modifiers_that_mean_clang_22s(make: Make) -> None:
    """clang 15's +dotprod was measured to mean clang-22's (``modifiers``): the driver spelling, no -Xclang."""
    from tcfg.plugin import compiler_knows

    assert compiler_knows("clang", "aarch64", "modifiers", "dotprod", 15)
    assert make(f"{A64} -march=armv8.2-a+dotprod").codegen().flags("clang", 15) == [
        "--target=aarch64-linux-gnu",
        "-march=armv8.2-a+dotprod",
    ]
    assert make(f"{A64} -march=armv9-a+nosve").codegen().flags("clang", 19) == [
        "--target=aarch64-linux-gnu",
        "-march=armv9-a+nosve",
    ]


def test_a_modifier_whose_meaning_differs_is_not_used(make: Make) -> None:
    """clang 16's +noaes keeps SHA2 where clang-22's removes it: AES off is a -target-feature item there."""
    from tcfg.plugin import compiler_knows

    assert not compiler_knows("clang", "aarch64", "modifiers", "aes", 16)
    assert compiler_knows("clang", "aarch64", "modifiers", "aes", 22)
    flags = make(f"{A64} -mcpu=neoverse-n1 -mattr=-aes").codegen().flags("clang", 16)
    assert flags[:2] == ["--target=aarch64-linux-gnu", "-mcpu=neoverse-n1"] and "aes" not in flags[1]
    items = [flags[i + 2] for i, flag in enumerate(flags) if flag == "-target-feature"]
    assert "-aes" in items
    assert all(compiler_knows("llvm", "aarch64", "features", item[1:], 16) for item in items)


def test_a_version_whose_architecture_means_more_is_refused(make: Make) -> None:
    """LLVM 13's v8.1a implies the PMU (perfmon), LLVM 22's does not: Armv8.2-A without it has no clang-13 spelling."""
    with pytest.raises(tcfg.TargetError, match=r"LLVM 13's v8.1a implies perfmon.*clang 15 is the first"):
        make(f"{A64} -march=armv8.2-a+dotprod").codegen().flags("clang", 13)


def test_a_version_whose_cpu_differs_gets_the_difference_undone(make: Make) -> None:
    """LLVM 14's apple-m1 has v8.5a and BTI (22's is Armv8.4-A): clang 14 is told to leave them off."""
    flags = make(f"{A64} -mcpu=apple-m1").codegen().flags("clang", 14)
    assert flags[:2] == ["--target=aarch64-linux-gnu", "-mcpu=apple-m1"]
    items = [flags[i + 2] for i, flag in enumerate(flags) if flag == "-target-feature"]
    assert {"-v8.5a", "-bti"} <= set(items)


@pytest.mark.parametrize(
    ("compiler", "version", "message"),
    [
        ("icc", None, r"no flags for compiler 'icc'; "),
        ("clang", 99, r"clang 99: tcfg knows the names of clang 13, 14"),
        ("gcc", "twelve", r"gcc version 'twelve': give the major version as a number"),
    ],
)
def test_bad_requests(make: Make, compiler: str, version: object, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        make(f"{A64} -mcpu=cortex-a72").codegen().flags(compiler, version)  # type: ignore[arg-type]


def test_32_bit_arm_keeps_the_target_feature_form(make: Make) -> None:
    cg = make("llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a7").codegen()
    assert cg.flags("clang") == [f for f in cg.clang_flags() if f != "-O2"]


_HARD = ["-mfpu=auto", "-mfloat-abi=hard"]
_ARMV8 = "llvm -mtriple=armv8a-linux-gnueabihf"


@pytest.mark.parametrize(
    ("spec", "gcc"),
    [
        ("arm/stm32mp1", ["-mcpu=cortex-a7", *_HARD, "-marm"]),
        # gcc's 32-bit cortex-a72 has no crypto unit, clang's (the target's) has: +crypto adds it
        ("arm/rasp4b", ["-mcpu=cortex-a72+crypto", *_HARD, "-marm"]),
        # ... so the target without it is gcc's plain cortex-a72 (which gcc reads as clang's +nocrypto)
        (f"{_ARMV8} -mcpu=cortex-a72 -mattr=-crypto,-aes,-sha2", ["-mcpu=cortex-a72", *_HARD, "-marm"]),
        # gcc's armv8-a has no FPU: the spelling that means clang-22's armv8-a
        (f"{_ARMV8} -march=armv8-a", ["-march=armv8-a+crc+crypto", *_HARD, "-marm"]),
        # M-profile has no Arm state; a bare-metal soft-float triple keeps its float ABI
        ("st/nucleo-f446re", ["-mcpu=cortex-m4", *_HARD, "-mthumb"]),
        (
            "llvm -mtriple=thumbv7m-none-eabi -mcpu=cortex-m3",
            ["-mcpu=cortex-m3", "-mfpu=auto", "-mfloat-abi=soft", "-mthumb"],
        ),
        ("arm/mps3-an547", ["-mcpu=cortex-m55", *_HARD, "-mthumb"]),
        # NEON removed: gcc's cortex-a53 takes no +nosimd, so the FPU without NEON is named
        (
            f"{_ARMV8} -mcpu=cortex-a53 -mattr=-neon",
            ["-mcpu=cortex-a53", "-mfpu=fp-armv8", "-mfloat-abi=hard", "-marm"],
        ),
        # ... and an architecture is spelled, with the CPU's tuning, where only that says it
        (f"{_ARMV8} -mcpu=cortex-a53 -mattr=-crc", ["-march=armv8-a+crypto", *_HARD, "-marm", "-mtune=cortex-a53"]),
    ],
)
def test_32_bit_arm_gcc_spellings(make: Make, spec: str, gcc: list[str]) -> None:
    cg = make(spec).codegen()
    assert cg.flags("gcc", 12) == gcc
    assert cg.flags("gcc", 12, opt_level=2) == [*gcc, "-O2"]


def test_32_bit_arm_gcc_spelling_means_the_targets_features(make: Make) -> None:
    """Read back in clang-22's words (the table's measured meaning for gcc), the spelling is the target exactly."""
    from tcfg.plugin import compiler_drift, compiler_knows
    from tcfg_aarch64.driver import resolved_features

    for spec in ("arm/rasp4b", f"{_ARMV8} -mcpu=cortex-a72 -mattr=-crypto,-aes,-sha2", "arm/beagleai"):
        cg = make(spec).codegen()
        res = cg.resolved  # type: ignore[attr-defined]
        spelled = cg.flags("gcc", 11)[0]
        meaning = spelled if compiler_knows("gcc", "arm", "spellings", spelled, 11) else None
        meaning = meaning or compiler_drift("gcc", "arm", "reads_as", spelled, 11)[0]
        option, value = meaning.split("=", 1)
        want = res.features & res.family.hardware
        assert resolved_features("arm", option, value, res.float_abi) == want


@pytest.mark.parametrize(
    ("spec", "version", "message"),
    [
        # gcc's Armv7E-M CPUs have no +nodsp, and no older M architecture is Thumb-2 without DSP and with an FPU
        (
            "llvm -mtriple=thumbv7em-none-eabihf -mcpu=cortex-m4 -mattr=-dsp",
            12,
            r"gcc 12 cannot express this 32-bit Arm target \(-mcpu=cortex-m4, thumbv7em-none-eabihf\) exactly.*"
            r"no gcc tcfg knows of does; use clang or llc",
        ),
        # gcc 11 has no cortex-r52plus; 12 has
        (f"{_ARMV8} -mcpu=cortex-r52plus", 11, r"gcc 11 cannot express .*cortex-r52plus.*; gcc 12 can"),
    ],
)
def test_32_bit_arm_gcc_refusals_name_the_version_that_can(make: Make, spec: str, version: int, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        make(spec).codegen().flags("gcc", version)


def test_32_bit_arm_cpus_whose_meaning_differs_get_the_difference_undone(make: Make) -> None:
    """clang 16's 32-bit neoverse-n2 is Armv8.5-A with the crypto unit, 22's Armv9-A without: undone item by item."""
    from tcfg.plugin import compiler_drift

    assert "+crypto" in compiler_drift("clang", "arm", "cpus", "neoverse-n2", 16)
    flags = make("llvm -mtriple=armv8a-linux-gnueabihf -mcpu=neoverse-n2").codegen().flags("clang", 16)
    items = [flags[i + 2] for i, flag in enumerate(flags) if flag == "-target-feature"]
    assert {"-aes", "-crypto", "-sha2", "+v9a", "+armv9-a"} <= set(items)


def test_32_bit_arm_bare_metal_drift_is_measured_under_a_bare_metal_triple(make: Make) -> None:
    """clang 14-16 add +strict-align under OS none (not under Linux): their flags take it off again."""
    cg = make("llvm -mtriple=thumbv7em-none-eabihf -mcpu=cortex-m7").codegen()
    for version in (14, 15, 16):
        flags = cg.flags("clang", version)
        items = [flags[i + 2] for i, flag in enumerate(flags) if flag == "-target-feature"]
        assert "-strict-align" in items, (version, flags)
    assert cg.flags("clang", 22) == ["--target=thumbv7em-none-eabihf", "-mcpu=cortex-m7", "-mfloat-abi=hard"]
    linux = make("llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a7").codegen().flags("clang", 14)
    assert "-strict-align" not in linux


@pytest.mark.parametrize("compiler", ["clang", "llc"])
def test_llvm_13_cannot_make_an_m_profile_cpu_lose_perfmon(make: Make, compiler: str) -> None:
    """LLVM 13's v7 implies PerfMon: -perfmon takes v7 and armv7e-m with it, so 13 is refused, naming 14."""
    cg = make("c -mcpu=cortex-m4").codegen()
    message = rf"{compiler} 13 cannot express .*cortex-m4.*; {compiler} 14 is the first"
    with pytest.raises(tcfg.TargetError, match=message):
        cg.flags(compiler, 13)
    assert cg.flags(compiler, 14)
