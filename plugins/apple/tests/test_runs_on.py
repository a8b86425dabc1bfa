"""``Target.runs_on`` for metal code: the GPU family (cumulative, oldest first) and the limits.

No tool checks the rule: no Metal compiler runs on Linux.
"""

from __future__ import annotations

import pytest

import tcfg
from tcfg_apple.running import target_runs_on


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        ("metal", "apple/m1-gpu", True),
        # family: the code's or a later one
        ("metal -gpu_family=apple7", "apple/m1-gpu", True),
        ("metal -gpu_family=apple7", "apple/m3-gpu", True),
        ("metal -gpu_family=apple9", "apple/m2-gpu", False),
        ("metal -gpu_family=apple8", "metal", False),  # the machine names no family
        # limits
        ("metal -max_threads_per_block=1024", "apple/m1-gpu", True),
        ("metal -max_threads_per_block=1024", "apple/m1-gpu-restricted", False),  # 256
        ("metal -max_num_threads=512 -max_threads_per_block=512", "apple/m1-gpu-restricted", False),
        ("metal -max_shared_memory_per_block=16384", "metal -max_shared_memory_per_block=32768", True),
        ("metal -max_shared_memory_per_block=32768", "metal -max_shared_memory_per_block=16384", False),
        ("metal -max_function_args=31", "metal -max_function_args=16", False),
        ("metal -max_function_args=16", "metal", True),
        ("metal", "c", False),  # another kind
    ],
)
def test_metal(code: str, machine: str, expected: bool) -> None:
    assert tcfg.Target(code).runs_on(tcfg.Target(machine)) is expected


def test_other_kinds_are_not_answered() -> None:
    assert target_runs_on(tcfg.Target("c"), tcfg.Target("metal")) is None  # a kind every environment has
