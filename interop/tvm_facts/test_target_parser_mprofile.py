"""TVM's ``test_target_parser_mprofile.py``: Arm M-profile CPUs' keys, DSP and MVE."""

from __future__ import annotations

import pytest

from tcfg.compat.tvm import Target

from .facts import fact

FACTS = [
    *(fact(f"{kind} -mcpu=cortex-m55", True, True) for kind in ("c", "llvm")),
    *(fact(f"{kind} -mcpu=cortex-m7", True, False) for kind in ("c", "llvm")),
    *(fact(f"{kind} -mcpu=cortex-m3", False, False) for kind in ("c", "llvm")),
    fact("llvm -mcpu=cortex-m55 -mattr=+nomve,+woof", True, False, differs="unknown-feature"),
]


@pytest.mark.parametrize(("spec", "dsp", "mve"), FACTS)
def test_target_parser_mprofile(spec: str, dsp: bool, mve: bool) -> None:
    target = Target(spec)
    assert target.keys == ["arm_cpu", "cpu"]
    assert target.features
    assert target.features.has_dsp is dsp
    assert target.features.has_mve is mve


@pytest.mark.parametrize("spec", ["llvm -mcpu=cortex-m55+nomve", "llvm -mcpu=cortex-m55 -mattr=-mve"])
def test_mve_turned_off_as_llvm_spells_it(spec: str) -> None:
    """What ``+nomve`` means, in LLVM's spellings (a CPU extension, or ``-mve``): DSP stays, MVE goes."""
    target = Target(spec)
    assert target.features.has_dsp and not target.features.has_mve
