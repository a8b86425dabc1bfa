"""Drift per triple class (``data/compilers.json``'s ``by_triple``): looked up by the flags' triple and undone.

The mechanism is tested on a small table of our own (no tools, no generated facts); the
generated table's entries for the cases the truth test found are checked too.
"""

from __future__ import annotations

from typing import Any

import pytest

from tcfg import TargetError
from tcfg._model import compilers

_TABLE: dict[str, Any] = {
    "versions": {"clang": [14, 22], "llc": [14, 22], "llvm": [14, 22], "gcc": [12]},
    "source": {"tools": {}},
    "drift": {
        "clang": {
            "arm": {
                "cpus": {"cortex-m7": {"14": ["+perfmon"]}},
                "by_triple": {"none": {"cortex-m7": {"14": ["+strict-align"]}}},
            },
            "riscv64": {"by_triple": {"riscv32": {"sifive-e31": {"14": ["-zmmul"]}}}},
        },
        "llvm": {
            "arm": {
                "by_triple": {"none": {"cortex-m7": {"14": ["-armv7e-m", "-v7"]}, "cortex-m3": {"14": ["+perfmon"]}}},
                "left_by_triple": {"none": {"cortex-m3": {"14": ["-v7"]}}},
            },
            "hexagon": {"cpus": {"hexagonv68": {"14": ["-cabac"]}}},
        },
    },
}


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compilers, "_table", lambda: _TABLE)


@pytest.mark.parametrize(
    ("arch", "triple", "cls"),
    [
        ("arm", "thumbv7em-none-eabihf", "none"),
        ("arm", "armv7-unknown-none-eabi", "none"),
        ("arm", "armv7a-linux-gnueabihf", None),
        ("arm", None, None),
        ("riscv32", "riscv32-unknown-linux-gnu", "riscv32"),
        ("riscv64", "riscv64-unknown-linux-gnu", None),
        ("aarch64", "aarch64-none-elf", None),
    ],
)
def test_triple_classes(arch: str, triple: str | None, cls: str | None) -> None:
    assert compilers.triple_class(arch, triple) == cls


@pytest.mark.usefixtures("table")
def test_a_class_triple_reads_the_class_drift_and_only_it() -> None:
    assert compilers.drift("clang", "arm", "cpus", "cortex-m7", 14) == ("+perfmon",)
    assert compilers.drift("clang", "arm", "cpus", "cortex-m7", 14, "armv7a-linux-gnueabihf") == ("+perfmon",)
    assert compilers.drift("clang", "arm", "cpus", "cortex-m7", 14, "thumbv7em-none-eabihf") == ("+strict-align",)
    assert compilers.drift("clang", "arm", "cpus", "cortex-m4", 14, "thumbv7em-none-eabihf") == ()
    assert compilers.drift("clang", "arm", "cpus", "cortex-m7", 22, "thumbv7em-none-eabihf") == ()
    assert compilers.drift("clang", "riscv32", "cpus", "sifive-e31", 14, "riscv32-unknown-elf") == ("-zmmul",)


@pytest.mark.usefixtures("table")
def test_clang_flags_under_a_bare_metal_triple_undo_the_class_drift() -> None:
    flags = ["--target=thumbv7em-none-eabihf", "-mcpu=cortex-m7", "-mfloat-abi=hard"]
    assert compilers.compensate("clang", 14, "arm", flags) == [
        "--target=thumbv7em-none-eabihf", "-mcpu=cortex-m7", "-Xclang", "-target-feature", "-Xclang", "-strict-align",
        "-mfloat-abi=hard",
    ]  # fmt: skip
    linux = ["--target=armv7a-linux-gnueabihf", "-mcpu=cortex-m7"]
    assert compilers.compensate("clang", 14, "arm", linux) == [
        *linux,
        "-Xclang",
        "-target-feature",
        "-Xclang",
        "-perfmon",
    ]


@pytest.mark.usefixtures("table")
def test_llc_flags_under_a_bare_metal_triple_get_the_class_drift_first_in_mattr() -> None:
    flags = ["-mtriple=thumbv7em-none-eabihf", "-mcpu=cortex-m7", "-mattr=-perfmon", "-float-abi=hard"]
    assert compilers.compensate("llc", 14, "arm", flags) == [
        "-mtriple=thumbv7em-none-eabihf", "-mcpu=cortex-m7", "-mattr=+armv7e-m,+v7,-perfmon", "-float-abi=hard",
    ]  # fmt: skip
    assert compilers.compensate("llc", 22, "arm", flags) == flags


@pytest.mark.usefixtures("table")
def test_riscv32_and_hexagon_drift_is_undone() -> None:
    flags = ["--target=riscv32-unknown-linux-gnu", "-mcpu=sifive-e31", "-mabi=ilp32"]
    assert compilers.compensate("clang", 14, "riscv32", flags) == [
        *flags[:2], "-Xclang", "-target-feature", "-Xclang", "+zmmul", "-mabi=ilp32",
    ]  # fmt: skip
    rv64 = ["--target=riscv64-unknown-linux-gnu", "-mcpu=sifive-e31"]
    assert compilers.compensate("clang", 14, "riscv64", rv64) == rv64
    hexagon = ["-mtriple=hexagon", "-mcpu=hexagonv68", "-mattr=+hvxv68"]
    assert compilers.compensate("llc", 14, "hexagon", hexagon) == [*hexagon[:2], "-mattr=+cabac,+hvxv68"]


@pytest.mark.usefixtures("table")
def test_a_drift_that_cannot_be_undone_is_refused_naming_the_version_that_can() -> None:
    """The generator measured LLVM 14's cortex-m3 with its +perfmon undone and still found v7 missing."""
    assert compilers.drift("llvm", "arm", "cpus", "cortex-m3", 14, "thumbv7m-none-eabi") == ("+perfmon",)
    assert compilers.undone_differs("llvm", "arm", "cortex-m3", 14, "thumbv7m-none-eabi") == ("-v7",)
    assert compilers.undone_differs("llvm", "arm", "cortex-m3", 14, "armv7a-linux-gnueabihf") == ()
    message = (
        r"llc 14 cannot express this arm target \(cortex-m3, thumbv7m-none-eabi\) exactly: next to LLVM 22's, "
        r"LLVM 14's cortex-m3 there lacks v7 even with .*; llc 22 is the first that does"
    )
    with pytest.raises(TargetError, match=message):
        compilers.compensate("llc", 14, "arm", ["-mtriple=thumbv7m-none-eabi", "-mcpu=cortex-m3"])


def test_the_generated_table_has_the_bare_metal_and_riscv32_drift() -> None:
    """What the truth test found (clang 14-16 +strict-align, LLVM 13's M profile, Zmmul, 19's RV32) is measured."""
    for version in (14, 15, 16):
        assert "+strict-align" in compilers.drift("clang", "arm", "cpus", "cortex-m4", version, "thumbv7em-none-eabihf")
    for tool in ("clang", "llvm"):  # LLVM 13's v7 implies PerfMon: its -perfmon takes v7 and armv7e-m with it
        assert "+perfmon" in compilers.drift(tool, "arm", "cpus", "cortex-m7", 13, "thumbv7em-none-eabihf")
        assert {"-armv7e-m", "-v7"} <= set(
            compilers.undone_differs(tool, "arm", "cortex-m7", 13, "thumbv7em-none-eabi")
        )
    for version in (15, 16):
        assert "-zmmul" in compilers.drift("clang", "riscv64", "cpus", "sifive-u74", version)
        assert "-zmmul" in compilers.drift("clang", "riscv32", "cpus", "sifive-e31", version, "riscv32-unknown-elf")
    assert "-zca" in compilers.drift("llvm", "riscv32", "cpus", "sifive-e31", 19, "riscv32-unknown-linux-gnu")
