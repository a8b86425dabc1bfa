"""Board tags: names, configs, sources, round trips, and their facts against the processor table."""

from __future__ import annotations

import pytest

import tcfg
import tcfg_rocm.plugin
from tcfg.testing import check_plugin
from tcfg_rocm.facts import processor
from tcfg_rocm.tags import boards

BOARDS = boards()["boards"]

#: Boards the issue asks for, by tag name.
REQUIRED = (
    "amd/mi100",
    "amd/mi210",
    "amd/mi250",
    "amd/mi250x",
    "amd/mi300x",
    "amd/mi300a",
    "amd/mi325x",
    "amd/mi355x",
    "amd/radeon-rx-7900-xtx",
    "amd/radeon-pro-w7900",
    "amd/radeon-rx-9070-xt",
)


def test_required_boards_are_tags(reg: tcfg.Registry) -> None:
    assert set(REQUIRED) <= set(reg.list_tags("amd/"))
    assert set(reg.list_tags("amd/")) == set(BOARDS)


def test_every_board_cites_a_dated_source() -> None:
    data = boards()
    assert data["date"]
    for row in BOARDS.values():
        assert row["sources"] and all("retrieved" in data["sources"][key] for key in row["sources"])


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_tag_round_trips(reg: tcfg.Registry, name: str) -> None:
    t = tcfg.Target(name, registry=reg)
    assert t.tag == name
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_facts_agree_with_llvm(reg: tcfg.Registry, name: str) -> None:
    """AMD's table and LLVM's processor facts describe the same GPU.

    The table's wavefront sizes are those LLVM allows; its LDS is LLVM's per-workgroup
    limit on GCN/CDNA, and twice it on RDNA, where the table gives the LDS of a
    work-group processor (two compute units).
    """
    row = BOARDS[name]
    t = tcfg.Target(name, registry=reg)
    facts = processor(row["mcpu"])
    assert tuple(row["wavefront_sizes"]) == facts.wavefront_sizes
    assert t.features.wavefront_size == facts.default_wavefront_size
    per_wgp = 2 if 32 in facts.wavefront_sizes else 1
    assert row["lds_kib"] * 1024 == facts.lds_size * per_wgp
    assert t.attrs["multi_processor_count"] * row["devices_per_board"] == row["compute_units"]


def test_tag_overrides(reg: tcfg.Registry) -> None:
    t = tcfg.Target("amd/mi300x -max_threads_per_block=1024", registry=reg)
    assert t.attrs["max_threads_per_block"] == 1024 and t.attrs["mcpu"] == "gfx942"
    assert tcfg.Target("amd/mi250x", registry=reg).attrs["multi_processor_count"] == 110


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk: each kind's default target, every tag and variant, no PluginWarning."""
    check_plugin(tcfg_rocm.plugin)
