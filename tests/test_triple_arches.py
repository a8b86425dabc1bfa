"""Triples are checked against LLVM 22's architectures (``data/triple_arches.json``).

An architecture no LLVM 22 knows is a TargetError with the closest names; one it knows
that no installed plugin claims stays valid (with the install hint where a known plugin
has it). The table is compared with llc-22 where it is installed.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

import tcfg

TABLE = Path(tcfg.__file__).parent / "data" / "triple_arches.json"


@pytest.mark.parametrize(
    ("triple", "suggestion"),
    [("aarch46-linux-gnu", "'aarch64'"), ("x68_64-linux-gnu", "'x86_64'"), ("riscv46-unknown-elf", "'riscv64'")],
)
def test_an_unknown_architecture_is_an_error_with_did_you_mean(
    core: tcfg.Registry, triple: str, suggestion: str
) -> None:
    with pytest.raises(tcfg.TargetError, match=rf"'{triple.split('-')[0]}' is not an architecture LLVM 22 knows; "
                       rf"did you mean {suggestion}"):  # fmt: skip
        tcfg.Target(f"llvm -mtriple={triple} -mcpu=cortex-a72", registry=core)


@pytest.mark.parametrize("triple", ["mips64-linux-gnu", "powerpc64le-unknown-linux-gnu", "tce-unknown-linux", "xtensa"])
def test_known_architectures_without_a_plugin_stay_valid(core: tcfg.Registry, triple: str) -> None:
    assert tcfg.Target(f"llvm -mtriple={triple}", registry=core).attrs["mtriple"] == triple


def test_llvm_parses_the_prefixes_further(core: tcfg.Registry) -> None:
    for triple in ("armv7a-linux-gnueabihf", "thumbv8.1m.main-none-eabi", "bpfel"):
        assert tcfg.Target(f"c -mtriple={triple}", registry=core).attrs["mtriple"] == triple


def test_upper_case_is_named() -> None:
    from tcfg._model.triples import check_triple_arch

    with pytest.raises(tcfg.TargetError, match="lower case: 'mips64'"):
        check_triple_arch("MIPS64-linux-gnu")


@pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 is not installed (Debian llvm-22)")
def test_the_table_is_what_llc_22_says() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core" / "scripts"))
    import generate_triple_arches  # the generator's own question to llc-22

    data = json.loads(TABLE.read_text(encoding="utf-8"))
    sample = data["backend"][::7] + data["parser_only"][::5] + ["aarch46", "x68_64"]

    says = {arch: generate_triple_arches.has_backend(arch) for arch in sample}
    assert says == {arch: arch in data["backend"] for arch in sample}
