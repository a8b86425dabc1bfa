"""Shared fixtures: an isolated registry with only this plugin, the LLVM tools if installed, and target variants."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import tcfg
import tcfg_rocm.plugin
from tcfg.testing import registry_with
from tcfg_rocm.facts import processor, processor_names
from tcfg_rocm.llvm_tools import LLVMTools, find_tools

FIXTURES = Path(__file__).parent / "fixtures"


def variants() -> list[str]:
    """For every processor: the bare target ID, each target-ID setting and combination, each other wavefront.

    These are target strings (``rocm -mcpu=gfx942:sramecc+:xnack-``).
    """
    out = []
    for name in processor_names():
        row = processor(name)
        ids = [name]
        for count in range(1, len(row.modifiers) + 1):
            for mods in itertools.combinations(row.modifiers, count):
                for signs in itertools.product("+-", repeat=count):
                    ids.append(":".join([name, *(m + s for m, s in zip(mods, signs, strict=True))]))
        out += [f"rocm -mcpu={i}" for i in ids]
        out += [
            f"rocm -mcpu={name} -mattr=+wavefrontsize{size}"
            for size in row.wavefront_sizes
            if size != row.default_wavefront_size
        ]
    return out


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_rocm.plugin)


@pytest.fixture(scope="session")
def tools() -> LLVMTools:
    found = find_tools()
    if found is None:
        pytest.skip("clang-22 and llc-22 are not installed (apt install clang-22 llvm-22)")
    return found
