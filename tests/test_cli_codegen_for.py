"""``tcfg codegen TARGET --for TOOL``: each tool's form, as text and JSON; MLIR's parsed by mlir-opt-22."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess

import pytest

import tcfg
from tcfg.cli import main

Capture = pytest.CaptureFixture[str]

AARCH64 = "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon,-sve"
X86 = "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake"
MLIR_OPT = "mlir-opt-22"


def run(capsys: Capture, registry: tcfg.Registry, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv), registry=registry)
    out, err = capsys.readouterr()
    return status, out, err


def test_tvm_form_is_one_line_of_json_and_json_flag_pretty_prints_it(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, err = run(capsys, core, "codegen", AARCH64, "--for", "tvm")
    assert (status, err) == (0, "") and out.count("\n") == 1
    form = json.loads(out)
    assert form["kind"] == "llvm" and form["mtriple"] == "aarch64-linux-gnu" and form["mattr"] == ["+neon", "-sve"]
    status, out, _ = run(capsys, core, "codegen", AARCH64, "--for", "tvm", "--json")
    assert status == 0 and json.loads(out) == form and out.count("\n") == 1  # piped: compact


@pytest.mark.parametrize(("tool", "tool_flags"), [("iree", 5), ("clang", 1), ("llc", 1)])
def test_flag_forms_are_shell_words_text_and_a_list_in_json(
    capsys: Capture, core: tcfg.Registry, tool: str, tool_flags: int
) -> None:
    status, text, err = run(capsys, core, "codegen", AARCH64, "--for", tool)
    assert (status, err) == (0, "")
    status, as_json, _ = run(capsys, core, "codegen", AARCH64, "--for", tool, "--json")
    flags = json.loads(as_json)
    assert status == 0 and shlex.split(text) == flags and len(flags) >= tool_flags
    assert any("aarch64-linux-gnu" in flag for flag in flags)


def test_iree_flags_carry_the_target_in_iree_spelling(capsys: Capture, core: tcfg.Registry) -> None:
    _, out, _ = run(capsys, core, "codegen", AARCH64, "--for", "iree", "--json")
    flags = json.loads(out)
    assert flags[:2] == ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
    assert "--iree-llvmcpu-target-triple=aarch64-linux-gnu" in flags
    assert "--iree-llvmcpu-target-cpu=cortex-a72" in flags
    assert "--iree-llvmcpu-target-cpu-features=+neon,-sve" in flags


def _mlir_values(printed: str) -> tuple[str, str, list[str]]:
    """``(triple, chip, features)`` of the ``#llvm.target`` in mlir-opt's output."""
    found = re.search(r'#llvm\.target<triple = "([^"]*)", chip = "([^"]*)"(?:, features = <\[(.*?)\]>)?>', printed)
    assert found, printed
    features = re.findall(r'"([^"]*)"', found.group(3) or "")
    return found.group(1), found.group(2), features


@pytest.mark.skipif(shutil.which(MLIR_OPT) is None, reason=f"{MLIR_OPT} is not installed (apt install mlir-22-tools)")
@pytest.mark.parametrize(
    ("spec", "want"),
    [
        (AARCH64, ("aarch64-linux-gnu", "cortex-a72", ["+neon", "-sve"])),
        (X86, ("x86_64-linux-gnu", "skylake", [])),
        ("llvm -mtriple=riscv64-linux-gnu -mattr=+v", ("riscv64-linux-gnu", "generic", ["+v"])),
    ],
)
def test_mlir_opt_parses_the_llvm_target_attribute(
    capsys: Capture, core: tcfg.Registry, spec: str, want: tuple[str, str, list[str]]
) -> None:
    status, out, _ = run(capsys, core, "codegen", spec, "--for", "mlir")
    assert status == 0
    module = f"module attributes {{llvm.target = {out.strip()}}} {{}}\n"
    # -llvm-target-to-data-layout makes LLVM build the target machine: it refuses an unknown
    # triple and warns about a CPU or feature it does not know.
    done = subprocess.run(
        [MLIR_OPT, "-llvm-target-to-data-layout"], input=module, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "not a recognized" not in done.stderr, done.stderr
    assert _mlir_values(done.stdout) == want


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("codegen", AARCH64, "--for", "triton"), r"llvm targets have no Triton GPUTarget.*forms for this target: tvm"),
        (
            ("codegen", AARCH64, "--for", "nvcc"),
            r"llvm targets have no nvcc flags in tcfg .*forms for this target: tvm",
        ),
        (("codegen", AARCH64, "--for", "gcc"), r"no gcc spelling for this aarch64 target .*tcfg-plugin-aarch64"),
        (("codegen", AARCH64, "--for", "gxx"), r"argument --for: invalid choice: 'gxx' \(choose from 'tvm', "),
        (("codegen", "llvm -mcpu", "--for", "tvm"), r"mcpu"),
        (("codegen", AARCH64, "--for"), r"argument --for: expected one argument"),
    ],
)
def test_a_form_the_target_lacks_is_one_error_line_and_status_2(
    capsys: Capture, core: tcfg.Registry, argv: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, core, *argv)
    assert status == 2 and out == "" and err.count("\n") in (1, 3) and err.startswith("tcfg: error: ")
    assert re.search(message, err), err


def test_codegen_without_for_is_unchanged(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, _ = run(capsys, core, "codegen", AARCH64, "--json")
    assert status == 0 and json.loads(out)["codegen"]["kind"] == "llvm" and "clang" in json.loads(out)["codegen"]
