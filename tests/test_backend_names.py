"""``compiler_probes.py``'s ``backend_names``, which ``generate_compilers.py`` uses: clang's ``+help``
tables, or llc's where clang prints none.

The fallback is tested with a fake runner (no tools); the real clang-14, whose ``+help``
prints nothing for RISC-V, is asked too where it is installed.
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

HELP = """Available CPUs for this target:

  generic-rv64  - Select the generic-rv64 processor.
  sifive-u74    - Select the sifive-u74 processor.

Available features for this target:

  a             - 'A' (Atomic Instructions).
  m             - 'M' (Integer Multiplication and Division).

Use +feature to enable a feature, or -feature to disable it.
"""


@pytest.fixture
def gen(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """``core/scripts/compiler_probes.py``, imported with its folder on ``sys.path`` for the test."""
    monkeypatch.syspath_prepend(str(ROOT / "core" / "scripts"))
    return importlib.import_module("compiler_probes")


def _fake(monkeypatch: pytest.MonkeyPatch, gen: ModuleType, clang_help: str, llc_help: str) -> list[list[str]]:
    """Make the generator's ``run`` answer clang with ``clang_help``, llc with ``llc_help``; the calls are recorded."""
    calls: list[list[str]] = []

    def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
        calls.append(argv)
        text = llc_help if Path(argv[0]).name == "llc" else clang_help
        return subprocess.CompletedProcess(argv, 0, stdout="", stderr=text)

    monkeypatch.setattr(gen, "run", run)
    return calls


@pytest.fixture
def llvm_bin(tmp_path: Path) -> Path:
    """A fake ``/usr/lib/llvm-N/bin``: a clang with an llc beside it."""
    for name in ("clang", "llc"):
        (tmp_path / name).write_text("", encoding="utf-8")
    return tmp_path


def test_clangs_names_when_it_prints_them(monkeypatch: pytest.MonkeyPatch, gen: ModuleType, llvm_bin: Path) -> None:
    calls = _fake(monkeypatch, gen, HELP, "Available CPUs for this target:\n\n  other - x.\n")
    assert gen.backend_names(str(llvm_bin / "clang"), "riscv64-linux-gnu") == (
        ["generic-rv64", "sifive-u74"],
        ["a", "m"],
    )
    assert [Path(argv[0]).name for argv in calls] == ["clang"]  # llc is not asked


def test_llcs_names_when_clang_prints_none(monkeypatch: pytest.MonkeyPatch, gen: ModuleType, llvm_bin: Path) -> None:
    calls = _fake(monkeypatch, gen, "", HELP)
    assert gen.backend_names(str(llvm_bin / "clang"), "riscv64-linux-gnu") == (
        ["generic-rv64", "sifive-u74"],
        ["a", "m"],
    )
    assert [argv[:3] for argv in calls][1:] == [[str(llvm_bin / "llc"), "-mtriple=riscv64-linux-gnu", "-mattr=help"]]


def test_no_names_without_an_llc_beside_clang(monkeypatch: pytest.MonkeyPatch, gen: ModuleType, llvm_bin: Path) -> None:
    (llvm_bin / "llc").unlink()
    calls = _fake(monkeypatch, gen, "", HELP)
    assert gen.backend_names(str(llvm_bin / "clang"), "riscv64-linux-gnu") == ([], [])
    assert len(calls) == 1


def test_clang_14s_riscv_names_are_its_llcs(gen: ModuleType) -> None:
    """clang-14 prints no RISC-V tables for ``+help``: the names are llc-14's (``-mattr=help``), which has them."""
    if shutil.which("clang-14") is None or shutil.which("llc-14") is None:
        pytest.skip("clang-14 and llc-14 are not installed (Debian clang-14, llvm-14)")
    cpus, feats = gen.backend_names("clang-14", "riscv64-linux-gnu")
    llc = gen.run([str(shutil.which("llc-14")), "-mtriple=riscv64-linux-gnu", "-mattr=help", "/dev/null"])
    assert (cpus, feats) == gen.help_names(llc.stdout + llc.stderr)
    assert "sifive-u74" in cpus and {"m", "a", "v"} <= set(feats)
