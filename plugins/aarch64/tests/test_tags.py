"""Device tags: each builds, cites a source, and says what the silicon lacks."""

from __future__ import annotations

import pytest

import tcfg_aarch64.plugin
from tcfg.testing import check_plugin
from tcfg_aarch64.facts import tag_table


def test_every_tag_builds_and_cites_a_source(make) -> None:
    for name, tag in tag_table().items():
        t = make(name)
        assert t.tag == name and t.keys == ("arm_cpu", "cpu")
        assert tag["source"] and tag["description"]


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("raspberry-pi/3b", {"neon": True, "crc": True, "aes": False, "sha2": False}),
        ("raspberry-pi/4b", {"neon": True, "aes": False, "arch_version": "8.0"}),
        ("raspberry-pi/5", {"aes": True, "dotprod": True, "arch_version": "8.2"}),
        ("aws/graviton2", {"dotprod": True, "sve": False, "lse": True}),
        ("aws/graviton3", {"sve": True, "bf16": True, "i8mm": True}),
        ("aws/graviton4", {"sve2": True, "arch_version": "9.0"}),
        ("ampere/altra", {"dotprod": True, "sve": False}),
        ("apple/m1", {"fullfp16": True, "sve": False, "sme": False}),
        ("apple/m4", {"sme": True, "sme2": True, "sve": False}),
        ("nvidia/grace-cpu", {"sve2": True}),
        ("st/nucleo-f446re", {"dsp": True, "fpu": "fpv4-sp-d16", "mve": False, "float_abi": "hard"}),
        ("st/stm32f746g-disco", {"fp64": False, "fpu": "fpv5-sp-d16"}),
        ("nordic/nrf5340-dk", {"dsp": True, "fpu": "fpv5-sp-d16"}),
        ("arm/mps3-an547", {"mve": True, "mve_fp": True}),
        ("renesas/ek-ra8m1", {"mve": True, "mve_fp": True, "pacbti": True}),
    ],
)
def test_tag_facts(make, tag: str, expected: dict[str, object]) -> None:
    f = make(tag).features
    assert {k: f[k] for k in expected} == expected


def test_apple_tags_use_macos_triples(make) -> None:
    for n in range(1, 5):
        t = make(f"apple/m{n}")
        assert t.attrs["mtriple"].startswith("arm64-apple-macos")
        assert t.codegen().to_dict()["triple"].startswith("arm64-apple-macos")


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk: each kind's default target, every tag and variant, no PluginWarning."""
    check_plugin(tcfg_aarch64.plugin)
