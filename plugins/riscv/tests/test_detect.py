"""RISC-V machines from recorded /proc/cpuinfo texts (archspec-json's tests/targets, Apache-2.0 OR MIT)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tcfg
from tcfg_riscv import detect

#: archspec's recording -> the CPU LLVM 22's getHostCPUName gives (the uarch line; LLVM 22 has
#: no rule for spacemit,x60, and the Debian recording has no uarch line: generic-rv64).
LLVM_CPU = {
    "linux-sifive-u74mc": "sifive-u74",
    "linux-spacemit-x60": "generic-rv64",
    "linux-debian13-x60": "generic-rv64",
}


def _recording(name: str) -> str:
    archspec = pytest.importorskip("archspec", reason="the recorded cpuinfo texts come with archspec")
    path = Path(archspec.__file__).parent / "json" / "tests" / "targets" / name
    if not path.exists():
        pytest.skip(f"this archspec has no recording {name}")
    return path.read_text()


@pytest.mark.parametrize("name", sorted(LLVM_CPU))
def test_recorded_machine_gets_llvms_cpu(name: str) -> None:
    (target,) = tcfg.detect(sources={"cpuinfo": _recording(name)})
    assert target.attrs["mcpu"] == LLVM_CPU[name]
    assert target.attrs["mtriple"] == "riscv64-unknown-linux-gnu"


def test_the_isa_line_becomes_features() -> None:
    (target,) = tcfg.detect(sources={"cpuinfo": _recording("linux-spacemit-x60")})
    features = target.features
    assert features.v is True and features.zbb is True and features.zvfh is True
    assert features.zbc is True and features.svpbmt is True


@pytest.mark.parametrize(
    ("isa", "expected"),
    [
        ("rv64imafdc", (64, ["i", "m", "a", "f", "d", "c"])),
        ("rv32imac_zicsr_zifencei", (32, ["i", "m", "a", "c", "zicsr", "zifencei"])),
    ],
)
def test_isa_extensions(isa: str, expected: tuple[int, list[str]]) -> None:
    assert detect.isa_extensions(isa) == expected


def test_a_bad_isa_line_is_a_target_error() -> None:
    with pytest.raises(tcfg.TargetError, match="isa line 'x86' does not start with rv32 or rv64"):
        detect.isa_extensions("x86")


def test_uarch_rules_come_from_llvm() -> None:
    assert detect.host_cpus() == {
        "eswin,eic770x": "sifive-p550",
        "sifive,bullet0": "sifive-u74",
        "sifive,u74-mc": "sifive-u74",
    }
    text = "processor\t: 0\nisa\t\t: rv64imafdc\nuarch\t\t: eswin,eic770x\n"
    assert detect.native_attrs(text)["mcpu"] == "sifive-p550"


@pytest.mark.parametrize(
    ("cpuinfo", "cpu"),
    [
        # LLVM's unit tests (llvm/unittests/TargetParser/Host.cpp, getLinuxHostCPUName.RISCV;
        # Apache-2.0 WITH LLVM-exception).
        (
            "\nprocessor       : 0\nhart            : 2\nisa             : rv64imafdc\nmmu             : sv39\n"
            "uarch           : sifive,u74-mc\n",
            "sifive-u74",
        ),
        ("uarch           : sifive,bullet0\n", "sifive-u74"),
        # Added later (Host.cpp at dcd83f0 of PeddleSpam/llvm-project, a fork of llvm/llvm-project).
        (
            "\nprocessor       : 0\nhart            : 2\n"
            "isa             : rv64imafdch_zicsr_zifencei_zba_zbb_sscofpmf\n"
            "mmu             : sv48\nuarch           : eswin,eic770x\n",
            "sifive-p550",
        ),
        ("uarch           : eswin,eic770x\n", "sifive-p550"),
        ("uarch           : spacemit,x60\n", ""),
    ],
)
def test_llvm_host_unit_test_inputs(cpuinfo: str, cpu: str) -> None:
    assert detect.cpu_name(cpuinfo) == cpu
