"""TVM v0.18's ``test_target_dispatch`` (in ``test_target_target.py``): a generic function runs the
implementation registered for the first key of the current target that has one.

``get_packed_func`` (TVM's FFI) and ``override_native_generic_func`` (TVM's C++ registry) are
TVM-only; ``tcfg.generic_func`` is the dispatch itself.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tcfg.compat.tvm import Target, arm_cpu, cuda, generic_func, rocm


@generic_func
def mygeneric(data: int) -> int:
    return data + 1


@mygeneric.register(["cuda", "gpu"])
def _cuda(data: int) -> int:
    return data + 2


@mygeneric.register("rocm")
def _rocm(data: int) -> int:
    return data + 3


@mygeneric.register("cpu")
def _cpu(data: int) -> int:
    return data + 10


@pytest.mark.parametrize(
    ("make", "answer"),
    [(cuda, 3), (rocm, 4), (lambda: Target("cuda"), 3), (arm_cpu, 11), (lambda: Target("metal"), 3)],
    ids=["cuda()", "rocm()", "Target(cuda)", "arm_cpu()", "Target(metal)"],
)
def test_target_dispatch(make: Callable[[], Target], answer: int) -> None:
    with make():
        assert mygeneric(1) == answer
    assert Target.current() is None
