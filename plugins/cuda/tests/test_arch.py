"""What runs on what: the compatibility rules, and the same rules as ptxas applies them."""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

import tcfg
from tcfg_cuda import runs_on
from tcfg_cuda.facts import arch_info, arch_names
from tcfg_cuda.probes import Ptxas


@pytest.mark.parametrize(
    ("code", "device", "expected"),
    [
        ("sm_90a", "sm_90", True),
        ("sm_90a", "sm_100", False),
        ("compute_90a", "sm_100", False),
        ("sm_100f", "sm_103", True),
        ("sm_103f", "sm_100", False),
        ("sm_100f", "sm_110", False),
        ("sm_100f", "sm_120", False),
        ("sm_120f", "sm_121", True),
        ("compute_80", "sm_86", True),
        ("compute_80", "sm_90", True),
        ("compute_80", "sm_120", True),
        ("compute_86", "sm_80", False),
        ("sm_80", "sm_86", True),
        ("sm_80", "sm_90", False),
        ("sm_86", "sm_80", False),
        ("sm_100a", "sm_100", True),
        ("sm_100a", "sm_103", False),
        ("sm_101a", "sm_110", True),
        ("sm_110f", "sm_101", True),
        ("sm_53", "sm_53", True),
    ],
)
def test_runs_on(code: str, device: str, expected: bool) -> None:
    assert runs_on(code, device) is expected


def test_runs_on_refuses_unknown_names() -> None:
    with pytest.raises(tcfg.TargetError, match="did you mean"):
        runs_on("sm_91", "sm_90")
    with pytest.raises(tcfg.TargetError, match="not a CUDA arch"):
        runs_on("gfx90a", "sm_90")


def test_ptx_rule_agrees_with_ptxas(ptxas: Ptxas) -> None:
    """ptxas compiles PTX for .target X to GPU Y exactly when compute_X code runs on Y's arch."""
    targets = sorted(ptxas.arches)
    pairs = []
    for code, gpu in itertools.product(targets, targets):
        if arch_info(gpu).variant:
            continue  # a device is a compute capability: check plain sm_XY only
        variant = arch_info(code).variant
        # sm_XYa PTX compiles only for the GPU target sm_XYa, which is a device of capability X.Y
        target_gpu = gpu + variant if variant == "a" and gpu + variant in ptxas.arches else gpu
        pairs.append((code, gpu, target_gpu))
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:  # ptxas runs are independent
        answers = list(pool.map(lambda pair: ptxas.assemble_for(pair[0], pair[2]) == "", pairs))
    disagreements = [
        (code, gpu, accepted)
        for (code, gpu, _), accepted in zip(pairs, answers, strict=True)
        if accepted != runs_on("compute_" + code.removeprefix("sm_"), gpu)
    ]
    assert not disagreements
    assert len(pairs) > 100


def test_every_arch_runs_on_its_own_device() -> None:
    for name in arch_names():
        info = arch_info(name)
        assert runs_on(name, info.base), name
        assert runs_on("compute_" + name.removeprefix("sm_"), info.base), name
