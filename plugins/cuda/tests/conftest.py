"""Shared fixtures: an isolated registry with only this plugin, and the toolkit if installed."""

from __future__ import annotations

from pathlib import Path

import pytest

import tcfg
import tcfg_cuda.plugin
from tcfg.testing import registry_with
from tcfg_cuda.probes import Ptxas, find_ptxas

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def reg() -> tcfg.Registry:
    return registry_with(tcfg_cuda.plugin)


class MemoPtxas(Ptxas):
    """The installed ptxas, answering each question once: the table script and the tests ask many of the same.

    ptxas is deterministic, so a remembered answer is the answer; the tests of one session share them.
    """

    def assemble(self, target: str, ptx_version: str, body: str, gpu: str | None = None) -> str:
        key = (target, ptx_version, body, gpu)
        answer = _ANSWERS.get(key)
        if answer is None:
            answer = _ANSWERS[key] = super().assemble(target, ptx_version, body, gpu)
        return answer


_ANSWERS: dict[tuple[str, str, str, str | None], str] = {}


@pytest.fixture(scope="session")
def found_ptxas() -> MemoPtxas | None:
    """The installed ptxas (remembering its answers), or None."""
    found = find_ptxas()
    return None if found is None else MemoPtxas(found.path, found.release, found.arches)


@pytest.fixture(scope="session")
def ptxas(found_ptxas: MemoPtxas | None) -> Ptxas:
    if found_ptxas is None:
        pytest.skip("ptxas is not installed (CUDA toolkit on PATH or in /usr/local/cuda/bin)")
    return found_ptxas
