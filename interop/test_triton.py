"""``triton_target()`` against the real Triton (PyPI ``triton``): no GPU is needed.

For every codegen that implements ``triton_target()`` (the installed tags'),
``GPUTarget(*form)`` constructs, exactly one of Triton's backends claims it, and that
backend reads the architecture as ours and derives the same warp size.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

import tcfg

from .support import tag_targets

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # Triton 3.9's default, set to silence its notice
compiler = pytest.importorskip("triton.backends.compiler", reason="pip install triton (Linux x86-64/aarch64 wheels)")
backends = pytest.importorskip("triton.backends", reason="pip install triton").backends


def _forms() -> dict[tuple[Any, ...], str]:
    """Distinct ``triton_target()`` -> the first tag that gives it."""
    found: dict[tuple[Any, ...], str] = {}
    for name, target in tag_targets():
        try:
            form = tuple(target.codegen().triton_target())
        except tcfg.TargetError:
            continue  # its codegen has no Triton form
        found.setdefault(form, name)
    return found


FORMS = _forms()


@pytest.mark.parametrize("form", list(FORMS), ids=list(FORMS.values()))
def test_triton_reads_the_target_as_ours(form: tuple[Any, ...]) -> None:
    target = compiler.GPUTarget(*form)
    claimed = [backend.compiler for backend in backends.values() if backend.compiler.supports_target(target)]
    assert len(claimed) == 1, f"{form}: claimed by {claimed}"
    options = claimed[0](target).parse_options({})
    backend_name, arch, warp_size = form
    assert options.arch == (f"sm{arch}" if backend_name == "cuda" else arch)
    assert options.warp_size == warp_size  # Triton derives it from the arch on AMD: ours must agree
