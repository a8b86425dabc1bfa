"""Detection from the amdkfd topology, on fake sysfs trees (tests/fixtures/kfd-*)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tcfg
from tcfg_rocm.detect import detect_gpus, gfx_name

from .conftest import FIXTURES


@pytest.mark.parametrize(
    ("version", "name"),
    [
        (90010, "gfx90a"),
        (90402, "gfx942"),
        (90500, "gfx950"),
        (110000, "gfx1100"),
        (120001, "gfx1201"),
        (80003, "gfx803"),
    ],
)
def test_gfx_target_version(version: int, name: str) -> None:
    assert gfx_name(version) == name


def test_gpus_of_a_fake_tree(reg: tcfg.Registry) -> None:
    found = detect_gpus(FIXTURES / "kfd-mi250x-rx7900" / "nodes")
    assert [(g.node, g.processor, g.compute_units) for g in found] == [
        (1, "gfx90a", 110),
        (2, "gfx90a", 110),
        (3, "gfx1100", 96),
    ]
    targets = [tcfg.Target(g.spec(), registry=reg) for g in found]
    assert [t.features.wavefront_size for t in targets] == [64, 64, 32]


def test_no_kfd_means_no_gpus(tmp_path: Path) -> None:
    assert detect_gpus(tmp_path / "missing") == []
    (tmp_path / "nodes").mkdir()
    assert detect_gpus(tmp_path / "nodes") == []


def test_unknown_processor_is_a_target_error() -> None:
    with pytest.raises(tcfg.TargetError, match=r"gfx1300 .*does not know"):
        detect_gpus(FIXTURES / "kfd-unknown-gpu" / "nodes")


def test_the_hook_reports_this_machine(reg: tcfg.Registry) -> None:
    expected = len(detect_gpus())
    assert len([t for t in reg.detect() if t.kind.name == "rocm"]) == expected
