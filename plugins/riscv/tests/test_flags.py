"""RISC-V flags for older compilers: the CPU's meaning there, measured (``data/compilers.json``), is made up for."""

from __future__ import annotations

import pytest

import tcfg
from tcfg.plugin import compiler_drift
from tcfg_riscv.spelling import nameless


def test_a_cpu_whose_meaning_differs_gets_the_targets_isa_string(reg: tcfg.Registry) -> None:
    """clang-19's sifive-u74 lacks Zaamo, Zalrsc, Zca and Zcd (22 derives them from A and C): -march says them all."""
    assert compiler_drift("clang", "riscv64", "cpus", "sifive-u74", 19) == ("-zaamo", "-zalrsc", "-zca", "-zcd")
    cg = tcfg.Target("riscv/sifive-u74", registry=reg).codegen()
    assert cg.flags("clang", 19) == [
        "--target=riscv64-unknown-linux-gnu", "-mcpu=sifive-u74",
        "-march=rv64imafdc_zicsr_zifencei_zmmul_zaamo_zalrsc_zca_zcd", "-mabi=lp64d",
    ]  # fmt: skip
    assert cg.flags("clang", 22) == ["--target=riscv64-unknown-linux-gnu", "-mcpu=sifive-u74", "-mabi=lp64d"]


def test_llvm_15_and_16_get_zmmul_through_march(reg: tcfg.Registry) -> None:
    """clang 15/16 derive no Zmmul from M (measured); clang 16 drops a -target-feature +zmmul: -march says it."""
    assert compiler_drift("clang", "riscv64", "cpus", "sifive-u74", 16) == ("-zmmul",)
    flags = tcfg.Target("riscv/sifive-u74", registry=reg).codegen().flags("clang", 16)
    assert flags[1:3] == ["-mcpu=sifive-u74", "-march=rv64imafdc_zmmul"]
    e31 = tcfg.Target("riscv/sifive-e31", registry=reg).codegen()
    assert compiler_drift("clang", "riscv32", "cpus", "sifive-e31", 16, e31.triple) == ("-zmmul",)
    assert e31.flags("clang", 16)[1:3] == ["-mcpu=sifive-e31", "-march=rv32imac_zmmul"]
    assert e31.flags("clang", 13) == ["--target=riscv32-unknown-linux-gnu", "-mcpu=sifive-e31", "-mabi=ilp32"]


def test_a_cpu_an_older_clang_lacks_names_the_first_that_has_it(reg: tcfg.Registry) -> None:
    """clang 16 knows neither spacemit-x60 nor all its extensions (so no ISA string): clang 19 knows the CPU."""
    with pytest.raises(
        tcfg.TargetError,
        match=r"clang 16 .* knows neither CPU 'spacemit-x60' nor the extension\(s\) .*; clang 19 is the first",
    ):
        tcfg.Target("riscv/licheepi3a", registry=reg).codegen().flags("clang", 16)


P550 = "llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-p550"


def test_a_cpu_an_older_clang_lacks_is_spelled_as_an_isa_string(reg: tcfg.Registry) -> None:
    """clang 19 has no sifive-p550 but every extension of it: -march with all of them (the truth test runs it)."""
    cg = tcfg.Target(P550, registry=reg).codegen()
    assert cg.flags("clang", 22) == ["--target=riscv64-linux-gnu", "-mcpu=sifive-p550"]
    flags = cg.flags("clang", 19)
    assert flags[0] == "--target=riscv64-linux-gnu" and not any(f.startswith("-mcpu") for f in flags)
    march = next(f for f in flags if f.startswith("-march="))
    assert march.startswith("-march=rv64imafdcb_") or march.startswith("-march=rv64imafdc_"), march
    spelled = set(march.partition("=")[2].split("_")[1:]) | {
        flags[i + 2][1:] for i, f in enumerate(flags) if f == "-target-feature"
    }
    assert {"zba", "zbb", "zicsr", "zifencei", "zmmul"} <= spelled and "zbs" not in spelled  # P550 has no Zbs


def test_llc_gets_the_generic_cpu_with_every_extension(reg: tcfg.Registry) -> None:
    flags = tcfg.Target(P550, registry=reg).codegen().flags("llc", 19)
    assert flags[:2] == ["-mtriple=riscv64-linux-gnu", "-mcpu=generic-rv64"]
    assert {"+m", "+a", "+f", "+d", "+c", "+zba", "+zbb", "+zicsr"} <= set(flags[2].partition("=")[2].split(","))


def test_llvm_14_has_its_backends_names(reg: tcfg.Registry) -> None:
    """LLVM 14's RISC-V names come from llc-14 (clang-14's ``+help`` prints none): its CPUs and extensions spell.

    X280's half-precision vector extensions are newer than LLVM 14: refused, naming them and 19.
    """
    u74 = tcfg.Target("riscv/sifive-u74", registry=reg).codegen()
    assert u74.flags("llc", 14) == ["-mtriple=riscv64-unknown-linux-gnu", "-mcpu=sifive-u74", "-target-abi=lp64d"]
    flags = tcfg.Target(P550, registry=reg).codegen().flags("llc", 14)
    assert flags[:2] == ["-mtriple=riscv64-linux-gnu", "-mcpu=generic-rv64"]
    assert set(flags[2].partition("=")[2].split(",")) == {"+a", "+c", "+d", "+f", "+m", "+zba", "+zbb"}
    x280 = tcfg.Target("llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-x280", registry=reg).codegen()
    for tool in ("clang", "llc"):
        with pytest.raises(
            tcfg.TargetError, match=rf"{tool} 14 .* 'sifive-x280' nor the extension\(s\) zvfh, zvfhmin; {tool} 19 is"
        ):
            x280.flags(tool, 14)


def test_clang_13_to_15_give_generic_rv64_g_under_linux(reg: tcfg.Registry) -> None:
    """clang 13-15 give ``-mcpu=generic-rv64`` A, C, D, F under a Linux triple (measured): the flags take them off."""
    spec = "llvm -mtriple=riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+m"
    cg = tcfg.Target(spec, registry=reg).codegen()
    for version in (13, 14, 15):
        assert compiler_drift("clang", "riscv64", "cpus", "generic-rv64", version) == ("+a", "+c", "+d", "+f", "+m")
        items = [
            arg for item in ("-a", "-c", "-d", "-f", "+m") for arg in ("-Xclang", "-target-feature", "-Xclang", item)
        ]
        assert cg.flags("clang", version) == ["--target=riscv64-linux-gnu", "-mcpu=generic-rv64", *items]


def test_no_isa_string_when_the_llvm_lacks_an_extension(reg: tcfg.Registry) -> None:
    """LLVM 13 has no Zba or Zbb: P550 is refused there, naming 14 (the first with them and Zcd in C)."""
    cg = tcfg.Target(P550, registry=reg).codegen()
    for tool in ("clang", "llc"):
        with pytest.raises(
            tcfg.TargetError,
            match=rf"{tool} 13 .* CPU 'sifive-p550' nor the extension\(s\) zba, zbb; {tool} 14 is the first",
        ):
            cg.flags(tool, 13)


def test_the_generated_table_has_what_llvm_13_to_16_have_without_a_name() -> None:
    """Measured (core/scripts/riscv_split.py): base I 2.0 holds Zicsr, Zifencei and the counters; C holds Zcd, Zcf."""
    from tcfg.plugin import compiler_knows

    for within, exts in (("base_i", ("zicsr", "zifencei", "zicntr", "zihpm")), ("in_c", ("zcd", "zcf"))):
        for ext in exts:
            has = [v for v in (13, 14, 15, 16, 19, 22) if compiler_knows("llvm", "riscv64", within, ext, v)]
            named = [v for v in (13, 14, 15, 16, 19, 22) if compiler_knows("llvm", "riscv64", "features", ext, v)]
            assert (has, named) == ([13, 14, 15, 16], [19, 22]), (within, ext)
    assert not compiler_knows("llvm", "riscv64", "base_i", "zba", 13)  # an extension of its own, then and now


def test_nameless_needs_c_for_what_c_holds() -> None:
    assert nameless("zifencei", {"m"}, 16) and not nameless("zifencei", {"m"}, 19)
    assert nameless("zcd", {"c", "d"}, 16) and not nameless("zcd", {"d", "zca"}, 16)  # no C: Zcd is not in it
    assert not nameless("zba", {"c"}, 13)


def test_llvm_15_and_16_spell_p550_without_the_names_they_lack(reg: tcfg.Registry) -> None:
    """Zicsr, Zifencei (base I there) and Zcd (C with D there) have no name in LLVM 16: rv64i...c says them."""
    cg = tcfg.Target(P550, registry=reg).codegen()
    assert cg.flags("clang", 16) == ["--target=riscv64-linux-gnu", "-march=rv64imafdc_zmmul_zba_zbb"]
    flags = cg.flags("llc", 15)
    assert flags[:2] == ["-mtriple=riscv64-linux-gnu", "-mcpu=generic-rv64"]
    assert set(flags[2].partition("=")[2].split(",")) == {"+a", "+c", "+d", "+f", "+m", "+zmmul", "+zba", "+zbb"}


def test_a_version_whose_base_i_lacks_zicsr_still_refuses(reg: tcfg.Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the measurement (no base I or C holds them), LLVM 16 lacks Zcd and Zifencei and refuses P550."""
    import tcfg_riscv.spelling as spelling

    real = spelling.compiler_knows

    def knows(tool: str, arch: str, what: str, name: str, version: int) -> bool:
        return what not in ("base_i", "in_c") and real(tool, arch, what, name, version)

    monkeypatch.setattr(spelling, "compiler_knows", knows)
    with pytest.raises(
        tcfg.TargetError, match=r"clang 16 .* nor the extension\(s\) zcd, zifencei; clang 19 is the first"
    ):
        tcfg.Target(P550, registry=reg).codegen().flags("clang", 16)


@pytest.mark.parametrize(
    ("spec", "gcc"),
    [
        # F implies Zicsr, A Zaamo/Zalrsc, C with D Zca/Zcd (which gcc 12 has no names for): left to gcc
        ("riscv/sifive-u74", ["-march=rv64imafdc_zifencei", "-mabi=lp64d", "-mtune=sifive-u74"]),
        ("riscv/sifive-e31", ["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-mtune=sifive-e31"]),
        # generic-rv64 is RV64I to clang's driver: no -mabi given means lp64 there, so here too
        (
            "llvm -mtriple=riscv64-linux-gnu -mattr=+m,+a,+f,+d,+c,+v,+zba,+zbb,+zbs",
            ["-march=rv64imafdcv_zba_zbb_zbs", "-mabi=lp64"],
        ),
        (
            "llvm -mtriple=riscv64-linux-gnu -mattr=+m,+a,+f,+d,+c,+b -mabi=lp64d",
            ["-march=rv64imafdc_zba_zbb_zbs", "-mabi=lp64d"],
        ),
    ],
)
def test_gcc_spellings(reg: tcfg.Registry, spec: str, gcc: list[str]) -> None:
    cg = tcfg.Target(spec, registry=reg).codegen()
    assert cg.flags("gcc", 12) == gcc
    assert cg.flags("gcc", 12, opt_level=3)[-1] == "-O3"


@pytest.mark.parametrize(
    ("spec", "version", "message"),
    [
        (
            "llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-x280",
            12,
            r"gcc 12 cannot express this RISC-V target exactly: it does not know the extension\(s\) zfh, zfhmin, "
            r"zvfh, zvfhmin .*; no gcc tcfg knows of does; use clang or llc",
        ),
        # Debian ships no gcc-11 for RISC-V: the table has no names for it, and says so
        ("riscv/sifive-u74", 11, r"tcfg has no RISC-V names for gcc 11 .*: gcc 12 can express this target"),
    ],
)
def test_gcc_refusals(reg: tcfg.Registry, spec: str, version: int, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        tcfg.Target(spec, registry=reg).codegen().flags("gcc", version)
