"""``Codegen.flags(compiler, version)`` against every clang and llc (13-22) and gcc (11, 12; x86-64 and the
AArch64, 32-bit Arm and RISC-V cross compilers) installed.

Each installed version is one test (skipped, with the reason, when it or clang-22/opt-22
is absent; ``.ci/run`` installs them): the flags tcfg gives for it must make it enable
exactly the target's features (see ``truth/compilers.py``), and a refusal must name a
version that can. Tests of the checker itself show it reports a wrong spelling.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # truth/ modules (pytest runs with --import-mode=importlib)
import compilers
import llvm

pytest.importorskip("tcfg_aarch64", reason="the compiler truth test needs the aarch64 and x86 plugins")
pytest.importorskip("tcfg_x86", reason="the compiler truth test needs the aarch64 and x86 plugins")
pytest.importorskip("tcfg_riscv", reason="the compiler truth test needs the riscv and hexagon plugins")
pytest.importorskip("tcfg_hexagon", reason="the compiler truth test needs the riscv and hexagon plugins")

CLANGS = (13, 14, 15, 16, 19, 22)
GCCS = (11, 12)

#: Disagreements the truth test found and tcfg does not yet fix, by (tool, version): case -> why.
#: Exact: a problem not listed fails the test, and so does a listed one that no longer occurs.
#: Empty: the last ones (clang 14-16's +strict-align under a bare-metal Arm triple, LLVM 13's
#: M profile, LLVM 15/16's Zmmul, riscv32 under LLVM 19) are measured per triple class in
#: ``data/compilers.json`` and undone.
KNOWN: dict[tuple[str, int], dict[str, str]] = {}


def _unexplained(tool: str, major: int, problems: list[str] | None) -> tuple[list[str], list[str]]:
    """(problems not in :data:`KNOWN`, known cases that no longer have one)."""
    known = KNOWN.get((tool, major), {})
    found = {problem.split(": ", 1)[0]: problem for problem in problems or []}
    return [p for case, p in found.items() if case not in known], sorted(set(known) - set(found))


def _need_reference() -> None:
    for tool in ("clang-22", "opt-22"):
        if llvm.find(tool) is None:
            pytest.skip(f"{tool} is not installed (Debian clang-22, llvm-22)")


@pytest.mark.parametrize("major", CLANGS)
def test_clang_enables_exactly_the_targets_features(major: int) -> None:
    _need_reference()
    if major not in compilers.installed("clang"):
        pytest.skip(f"clang-{major} with opt-{major} is not installed (Debian clang-{major})")
    outcome = compilers.check("clang", major)
    assert _unexplained("clang", major, outcome.problems) == ([], [])
    assert outcome.checks > 500, outcome  # most cases compiled and compared, not refused
    if major == 22:
        assert outcome.refused == 0  # LLVM 22 is what the tables describe: it can say everything


@pytest.mark.parametrize("major", CLANGS)
def test_llc_enables_exactly_the_targets_features(major: int) -> None:
    _need_reference()
    if major not in compilers.installed("llc"):
        pytest.skip(f"llc-{major} with opt-{major} is not installed (Debian llvm-{major})")
    outcome = compilers.check("llc", major)
    assert _unexplained("llc", major, outcome.problems) == ([], [])
    assert outcome.checks > 500, outcome


@pytest.mark.parametrize("major", CLANGS)
def test_what_llvm_has_without_a_name_is_what_clang_assembles(major: int) -> None:
    """``llvm.riscv64.base_i``/``in_c`` (``core/scripts/riscv_split.py``) measured again with clang-N.

    The probe tells the containing set from the rest: Zba's ``sh1add`` is not in base I,
    Zcd's ``c.fld`` not in ``rv64imafd`` (no C), on every version.
    """
    from tcfg.plugin import compiler_knows

    path = llvm.find(f"clang-{major}")
    if path is None:
        pytest.skip(f"clang-{major} is not installed (Debian clang-{major})")
    import importlib

    compilers._generator()  # core/scripts on sys.path
    riscv_split = importlib.import_module("riscv_split")

    table = {
        within: [ext for ext in probes if compiler_knows("llvm", "riscv64", within, ext, major)]
        for within, probes in riscv_split.PROBES.items()
    }
    assert riscv_split.split_out(path) == table
    zcd = riscv_split.PROBES["in_c"]["zcd"][1]
    assert not riscv_split.assembles(path, "rv64i", ("sh1add a0, a1, a2",))
    assert not riscv_split.assembles(path, "rv64imafd", zcd) and riscv_split.assembles(path, "rv64imafdc", zcd)


#: The Debian package of each gcc driver (``{}``: the major version).
_GCC_PACKAGES = {
    "x86_64": "gcc-{}",
    "aarch64": "gcc-{}-aarch64-linux-gnu",
    "arm": "gcc-{}-arm-linux-gnueabihf",
    "riscv64": "gcc-{}-riscv64-linux-gnu",
}
#: Disagreements of gcc with clang-22 tcfg does not fix, by (architecture, version): case -> why. Exact, as KNOWN.
GCC_KNOWN: dict[tuple[str, int], dict[str, str]] = {}


def _family_cases(family: str) -> list[str]:
    import tcfg

    return [spec for spec in compilers.CASES + compilers.GCC_CASES if compilers._family(tcfg.Target(spec)) == family]


@pytest.mark.parametrize("family", sorted(_GCC_PACKAGES))
@pytest.mark.parametrize("major", GCCS)
def test_gcc_defines_exactly_the_targets_feature_macros(major: int, family: str) -> None:
    _need_reference()
    if major not in compilers.installed("gcc") or compilers.gcc_tool(family, major) is None:
        tool = compilers.GCC_DRIVERS[family].format(major)
        pytest.skip(f"{tool} is not installed (Debian {_GCC_PACKAGES[family].format(major)}, where the release has it)")
    outcome = compilers.check("gcc", major, _family_cases(family))
    known = GCC_KNOWN.get((family, major), {})
    found = {problem.split(": ", 1)[0]: problem for problem in outcome.problems or []}
    assert ([p for case, p in found.items() if case not in known], sorted(set(known) - set(found))) == ([], [])
    assert outcome.checks > 100, outcome  # most cases compiled and compared, not refused


def test_the_checker_reports_a_wrong_spelling(monkeypatch: pytest.MonkeyPatch) -> None:
    """A codegen that spells cortex-a72 for a neoverse-n1 target must be reported, for clang and gcc."""
    _need_reference()
    import tcfg_aarch64.codegen as arm_codegen

    wrong = "llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-n1"

    def spell(self: arm_codegen.ArmCodegen, compiler: str, version: int) -> list[str]:
        return ["-mcpu=cortex-a72"] if compiler == "gcc" else [f"--target={self.triple}", "-mcpu=cortex-a72"]

    monkeypatch.setattr(arm_codegen.ArmCodegen, "spell", spell)
    if 22 in compilers.installed("clang"):
        assert compilers.check("clang", 22, [wrong]).problems
    gccs = [m for m in compilers.installed("gcc") if compilers.gcc_tool("aarch64", m)]
    if gccs:
        assert compilers.check("gcc", gccs[-1], [wrong]).problems


@pytest.mark.parametrize(
    ("family", "spec", "wrong"),
    [
        ("arm", "arm/stm32mp1", ["-mcpu=cortex-a9", "-mfpu=auto", "-mfloat-abi=hard", "-marm"]),
        ("riscv64", "riscv/sifive-u74", ["-march=rv64imafd_zifencei", "-mabi=lp64d"]),
    ],
)
def test_the_gcc_checker_reports_a_wrong_arm_or_riscv_spelling(
    monkeypatch: pytest.MonkeyPatch, family: str, spec: str, wrong: list[str]
) -> None:
    """cortex-a9's flags (no VFPv4, no integer divide) for a cortex-a7 board, RV64 without C for a U74: reported."""
    _need_reference()
    gccs = [m for m in compilers.installed("gcc") if compilers.gcc_tool(family, m)]
    if not gccs:
        pytest.skip(f"no {compilers.GCC_DRIVERS[family].format('N')} is installed")
    import tcfg

    codegen = type(tcfg.Target(spec).codegen())
    original = codegen.spell

    def spell(self: object, compiler: str, version: int) -> list[str]:
        return list(wrong) if compiler == "gcc" else original(self, compiler, version)  # type: ignore[arg-type]

    monkeypatch.setattr(codegen, "spell", spell)
    assert compilers.check("gcc", gccs[-1], [spec]).problems
