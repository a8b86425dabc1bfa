"""``Target.runs_on`` for cuda and nvptx targets, and the cubin rule as nvlink applies it.

The PTX rule is checked against ptxas in ``test_arch.py``; here nvlink decides the cubin
rule: it links a relocatable cubin compiled for arch X into a program for GPU Y exactly
when a cubin of X runs on Y (``Input file ... arch does not match target`` otherwise),
which :func:`tcfg_cuda.probes.cubin_links` asks.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

import tcfg
from tcfg_cuda.facts import arch_info, runs_on
from tcfg_cuda.probes import Ptxas, cubin_links
from tcfg_cuda.running import code_arches


def test_the_cubin_rule_agrees_with_nvlink(ptxas: Ptxas) -> None:
    """Every arch this ptxas generates code for (variants too), linked for every plain GPU arch it knows."""
    codes = sorted(ptxas.arches)
    gpus = sorted(arch for arch in ptxas.arches if not arch_info(arch).variant)
    links = cubin_links(ptxas, itertools.product(codes, gpus))
    if links is None:
        pytest.skip(f"nvlink is not installed beside {ptxas.path}")
    disagreements = [(code, gpu, ok) for (code, gpu), ok in links.items() if ok != runs_on(code, gpu)]
    assert not disagreements
    assert len(links) > 200 and any(links.values()) and not all(links.values())


def test_the_cubin_table_is_what_nvlink_says(ptxas: Ptxas) -> None:
    if not Path(ptxas.path).with_name("nvlink").exists():
        pytest.skip(f"nvlink is not installed beside {ptxas.path}")
    script = Path(__file__).parents[1] / "scripts" / "gen_cubin_table.py"
    run = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        ("cuda -arch=sm_80", "nvidia/a100", True),
        ("cuda -arch=sm_80", "nvidia/h100", True),  # its PTX (compute_80) is JIT-compiled
        ("cuda -arch=sm_90a", "nvidia/h100", True),
        ("cuda -arch=sm_90a", "nvidia/b200", False),  # sm_90a code runs on sm_90 only
        ("cuda -arch=sm_90", "nvidia/b200", True),
        ("cuda -arch=sm_100f", "cuda -arch=sm_103", True),
        ("cuda -arch=sm_103f", "cuda -arch=sm_100", False),
        ("cuda -arch=sm_86", "nvidia/a100", False),
        ("nvptx -mcpu=sm_80", "nvidia/geforce-rtx-4090", True),
        ("nvptx -mcpu=sm_89", "nvidia/a100", False),
        ("cuda -arch=sm_87", "nvidia/jetson-agx-orin:cuda", True),
        ("cuda -arch=sm_80", "nvidia/jetson-agx-orin:cuda", True),  # the cubin does not run there; the PTX does
    ],
)
def test_targets_run_where_their_cubin_or_ptx_does(code: str, machine: str, expected: bool) -> None:
    assert tcfg.Target(code).runs_on(tcfg.Target(machine)) is expected


def test_the_code_of_a_cuda_target_is_what_its_nvcc_flags_embed() -> None:
    assert code_arches(tcfg.Target("cuda -arch=sm_90a")) == ("sm_90a", "compute_90a")
    assert code_arches(tcfg.Target("nvptx -mcpu=sm_100f")) == ("compute_100f",)


def test_a_machine_without_an_arch_is_refused_with_the_way_out() -> None:
    with pytest.raises(tcfg.TargetError, match=r"names no GPU arch; give one \(-arch=sm_90\)"):
        tcfg.Target("cuda -arch=sm_80").runs_on(tcfg.Target("cuda"))
    assert not tcfg.Target("cuda -arch=sm_80").runs_on(tcfg.Target("llvm -mtriple=x86_64-linux-gnu"))
