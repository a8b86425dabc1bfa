"""``iree_flags()`` against the real ``iree-compile`` (PyPI ``iree-base-compiler``): no device is needed.

Every codegen that implements ``iree_flags()`` (the installed tags' and a few CPU
targets') compiles a small function; for IREE's ``llvm-cpu`` backend the executable
target IREE records must carry our CPU and every one of our features.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import tcfg

from .support import tag_targets

binaries = pytest.importorskip("iree.compiler.tools.binaries", reason="pip install iree-base-compiler")

#: Integer work, so that a CPU without an FPU (riscv/sifive-e31) compiles too: IREE links
#: no soft-float runtime (an f32 add there is an undefined __addsf3).
SOURCE = """\
func.func @add(%a: tensor<64xi32>, %b: tensor<64xi32>) -> tensor<64xi32> {
  %0 = arith.addi %a, %b : tensor<64xi32>
  return %0 : tensor<64xi32>
}
"""
CPUS = [
    "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon",
    "llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-v2",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+sve2,-sha3",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake-avx512",
    "llvm -mtriple=x86_64-linux-gnu -mcpu=znver4 -mattr=-avx512f",
    "llvm -mtriple=x86_64-linux-gnu",
]


def _flag_sets() -> dict[tuple[str, ...], str]:
    """Distinct ``iree_flags()`` -> the first target (tag name or string) that gives them."""
    found: dict[tuple[str, ...], str] = {}
    for name, target in [*tag_targets(), *((spec, tcfg.Target(spec)) for spec in CPUS)]:
        try:
            flags = tuple(target.codegen().iree_flags())
        except tcfg.TargetError:
            continue  # its codegen has no IREE form
        found.setdefault(flags, name)
    return found


FLAG_SETS = _flag_sets()


def _compile(tmp_path: Path, flags: tuple[str, ...], *extra: str) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "add.mlir"
    source.write_text(SOURCE, encoding="utf-8")
    command = [binaries.find_tool("iree-compile"), str(source), *flags, *extra]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)


@pytest.mark.parametrize("flags", list(FLAG_SETS), ids=list(FLAG_SETS.values()))
def test_iree_compile_compiles_for_the_target(tmp_path: Path, flags: tuple[str, ...]) -> None:
    done = _compile(tmp_path, flags, "-o", str(tmp_path / "add.vmfb"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "not a recognized" not in done.stderr, done.stderr[-2000:]
    assert (tmp_path / "add.vmfb").stat().st_size > 0


CPU_SETS = [flags for flags in FLAG_SETS if "--iree-hal-local-target-device-backends=llvm-cpu" in flags]


@pytest.mark.parametrize("flags", CPU_SETS, ids=[FLAG_SETS[flags] for flags in CPU_SETS])
def test_iree_records_our_cpu_and_features(tmp_path: Path, flags: tuple[str, ...]) -> None:
    done = _compile(tmp_path, flags, "--compile-to=executable-targets")
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'cpu = "([^"]*)", cpu_features = "([^"]*)"', done.stdout)
    assert found, done.stdout[:2000]
    values = dict(flag.removeprefix("--").split("=", 1) for flag in flags)
    assert found.group(1) == values["iree-llvmcpu-target-cpu"]
    recorded = found.group(2).split(",")
    ours = values.get("iree-llvmcpu-target-cpu-features", "")
    assert [feature for feature in ours.split(",") if feature and feature not in recorded] == []


def test_the_iree_target_tables_are_what_this_iree_compile_says() -> None:
    """The tables behind the refusals (llvm-cpu architectures, CUDA and ROCm targets) match the tool."""
    script = Path(__file__).parent / "scripts" / "iree_targets.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr


def test_a_refused_target_is_one_iree_compile_refuses(tmp_path: Path) -> None:
    """Each kind of refusal, checked against the tool: what tcfg calls impossible fails in iree-compile."""
    refused = {
        "nvidia/gh200": ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_90a"],
        "amd/mi50": ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx906"],
        "qcom/adreno-vulkan": [
            "--iree-hal-target-device=vulkan",
            "--iree-vulkan-target=vp_android_baseline_2022",
            "--iree-vulkan-target-features=spirv:v1.0,cap:Shader",
        ],
    }
    for name, flags in refused.items():
        try:
            target = tcfg.Target(name)
        except tcfg.TargetError:
            continue  # its plugin is not installed here
        with pytest.raises(tcfg.TargetError):
            target.codegen().iree_flags()
        assert _compile(tmp_path, tuple(flags), "-o", str(tmp_path / "x.vmfb")).returncode != 0, name
