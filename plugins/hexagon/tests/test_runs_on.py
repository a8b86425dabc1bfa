"""``Target.runs_on`` for Hexagon DSPs: a newer architecture runs older code; HVX version and length must fit."""

from __future__ import annotations

import pytest

import tcfg


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        ("hexagon -mcpu=hexagonv68", "qcom/hexagon-v73", True),
        ("qcom/hexagon-v68", "qcom/hexagon-v73", True),
        ("qcom/hexagon-v73", "qcom/hexagon-v68", False),  # a newer architecture
        ("hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length64b", "qcom/hexagon-v73", False),  # 64-byte vectors
        ("hexagon -mcpu=hexagonv73 -mattr=+hvxv73,+hvx-length128b", "hexagon -mcpu=hexagonv73", False),  # no HVX
        ("hexagon -mcpu=hexagonv68", "llvm -mtriple=x86_64-linux-gnu", False),
    ],
)
def test_hexagon(code: str, machine: str, expected: bool) -> None:
    assert tcfg.Target(code).runs_on(tcfg.Target(machine)) is expected
