"""TVM v0.18's ``test_target_dispatch`` and ``test_target_temp_strategy`` (in ``test_target_target.py``):
a generic function runs the implementation registered for the first key of the current target that
has one; a native generic function (``override_native_generic_func``) is one per name, process-wide,
and its implementations can be swapped for a while and put back (TVM's ``TempStrategy``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tcfg.compat.tvm import (
    Target,
    arm_cpu,
    cuda,
    generic_func,
    get_native_generic_func,
    override_native_generic_func,
    rocm,
)


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
        assert mygeneric.get_packed_func()(1) == answer  # type: ignore[attr-defined]
    assert Target.current() is None


@override_native_generic_func("test_target_temp_strategy")
def target_generic(data: int) -> int:
    return data + 1


@target_generic.register(["cuda", "gpu"])  # type: ignore[attr-defined]
def target_cuda_func(data: int) -> int:
    return data + 2


def temp_target_cuda_func(data: int) -> int:
    return data + 3


class TempStrategy:
    """TVM's test helper: swap the native generic function's implementations for a target's keys."""

    def __init__(self, name: str, target: str, fstrategy: Callable[..., Any]) -> None:
        generic = get_native_generic_func(name)
        self.name, self.target, self.origin_func = name, target, {}
        with Target(target) as target_obj:
            for key in target_obj.keys:
                self.origin_func[key] = generic.get_packed_func()
                generic.register(fstrategy, key, allow_override=True)

    def __enter__(self) -> TempStrategy:
        return self

    def __exit__(self, *exc: object) -> None:
        generic = get_native_generic_func(self.name)
        with Target(self.target) as target_obj:
            for key in target_obj.keys:
                generic.register(self.origin_func[key], key, allow_override=True)


def test_target_temp_strategy() -> None:
    with Target("cuda"):
        assert target_generic(1) == 3
    with TempStrategy("test_target_temp_strategy", "cuda", temp_target_cuda_func), Target("cuda"):
        assert target_generic(1) == 4
    with Target("cuda"):
        assert target_generic(1) == 3
