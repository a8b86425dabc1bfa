"""Tag variants: ``NAME:VARIANT`` builds a configuration the tag defines (a board's AOT composite...)."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest

import tcfg
from tcfg.cli import main
from tcfg.plugin import TagSpec
from tests.fake_plugins import plugin_with

MCU = {"kind": "c", "mtriple": "thumbv7em-none-eabihf", "mcpu": "cortex-m7"}
AOT = {"name": "aot", "unpacked-api": True, "interface-api": "c"}
VARIANTS: dict[str, Any] = {
    "aot": {
        "kind": "composite",
        "host": {"tag": "vendor/board"},
        "devices": [{"tag": "vendor/board"}],
        "executor": AOT,
        "runtime": "crt",
    },
    "graph": "composite -host=vendor/board -devices=vendor/board -executor=graph",
}


def board_plugin(name: str = "boards", *specs: TagSpec) -> object:
    def register_tags(register: Any) -> None:
        for spec in specs or (TagSpec("vendor/board", MCU, "a board", aliases=("board",), variants=VARIANTS),):
            register(spec)

    return plugin_with(name, tcfg_register_tags=register_tags)


@pytest.fixture
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[board_plugin()], autoload=False)


def test_a_variant_is_the_configuration_the_tag_defines(reg: tcfg.Registry) -> None:
    t = tcfg.Target("vendor/board:aot", registry=reg)
    assert t.kind.name == "composite" and t.tag == "vendor/board:aot"
    assert t.attrs["executor"].export() == AOT
    assert t.attrs["runtime"].export() == "crt"
    assert t.host == tcfg.Target("vendor/board", registry=reg)
    assert [d.tag for d in t.attrs["devices"]] == ["vendor/board"]


@pytest.mark.parametrize("spec", ["vendor/board:aot", {"tag": "board:aot"}, '{"tag": "vendor/board:aot"}', "board:aot"])
def test_variants_resolve_by_name_alias_dict_and_json_and_round_trip(reg: tcfg.Registry, spec: Any) -> None:
    t = tcfg.Target(spec, registry=reg)
    assert t.tag == "vendor/board:aot"
    assert "-tag=vendor/board:aot" in str(t)
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t


def test_a_string_variant_config_and_overrides(reg: tcfg.Registry) -> None:
    t = tcfg.Target("vendor/board:graph -executor=vm", registry=reg)
    assert t.attrs["executor"].name == "vm" and t.tag == "vendor/board:graph"
    assert reg.get_tag("vendor/board:graph")["executor"] == "graph"


def test_an_unknown_variant_lists_the_variants(reg: tcfg.Registry) -> None:
    for spec in ("vendor/board:aott", {"tag": "vendor/board:aott"}, "board:aott -executor=vm"):
        with pytest.raises(tcfg.UnknownTagError, match=r"tag 'vendor/board' has no variant 'aott'; did you mean 'aot'"):
            tcfg.Target(spec, registry=reg)
    with pytest.raises(tcfg.UnknownTagError, match=r"has no variant 'zzz'; valid choices: 'aot', 'graph'"):
        tcfg.Target("vendor/board:zzz", registry=reg)
    with pytest.raises(tcfg.UnknownTagError, match="has no variant"):
        reg.get_tag("vendor/board:zzz")


def test_a_tag_without_variants_says_so() -> None:
    reg = tcfg.Registry(plugins=[board_plugin("plain", TagSpec("vendor/plain", MCU))], autoload=False)
    with pytest.raises(tcfg.UnknownTagError, match="'vendor/plain' has no variant 'aot'; it has no variants"):
        tcfg.Target("vendor/plain:aot", registry=reg)


def test_list_tags_and_the_cli_show_variants(capsys: pytest.CaptureFixture[str], reg: tcfg.Registry) -> None:
    assert reg.list_tags() == ["vendor/board"]
    assert reg.tag_entry("vendor/board").variants == ("aot", "graph")
    assert main(["tags"], registry=reg) == 0
    out = capsys.readouterr().out
    assert "vendor/board:aot" in out and "vendor/board:graph" in out
    assert main(["tags", "--json"], registry=reg) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert sorted(entry["variants"]) == ["aot", "graph"]
    aot = tcfg.Target("vendor/board:aot", registry=reg)
    assert tcfg.Target(entry["variants"]["aot"]["target"], registry=reg) == aot
    assert tcfg.Target(entry["variants"]["aot"]["config"], registry=reg) == aot


@pytest.mark.parametrize(
    ("variants", "needle"),
    [
        ({"bad name": MCU}, "variant name 'bad name'"),
        ({"": MCU}, "variant name ''"),
        (["aot"], "must be a mapping"),
    ],
)
def test_a_badly_named_variant_fails_the_plugin(variants: Any, needle: str) -> None:
    good = TagSpec("vendor/fine", MCU)
    bad = TagSpec("vendor/board", MCU, variants=variants)
    reg = tcfg.Registry(plugins=[board_plugin("bad", good, bad)], autoload=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert reg.list_tags() == []  # nothing half-registered: not even the plugin's good tag
    assert any(needle in str(w.message) for w in caught), [str(w.message) for w in caught]
    with pytest.raises(tcfg.TargetError):
        tcfg.Target("vendor/board", registry=reg)


@pytest.mark.parametrize(
    ("variants", "needle"),
    [
        ({"aot": {"kind": "composite", "host": {"tag": "vendor/board"}}}, "at least one target in -devices"),
        ({"aot": {"kind": "nope"}}, "unknown kind 'nope'"),
    ],
)
def test_a_variant_that_does_not_build_is_the_plugins_error_when_looked_up(variants: Any, needle: str) -> None:
    """Tags are built on first lookup: the tag and its good sibling work, the bad variant names its plugin."""
    good = TagSpec("vendor/fine", MCU)
    bad = TagSpec("vendor/board", MCU, variants=variants)
    reg = tcfg.Registry(plugins=[board_plugin("bad", good, bad)], autoload=False)
    assert reg.list_tags() == ["vendor/board", "vendor/fine"]
    assert tcfg.Target("vendor/board", registry=reg).tag == "vendor/board"
    with pytest.raises(tcfg.PluginError, match=rf"tag 'vendor/board:aot' of plugin 'bad' does not build: .*{needle}"):
        tcfg.Target("vendor/board:aot", registry=reg)


def test_register_tag_takes_variants(reg: tcfg.Registry) -> None:
    reg.register_tag("mine/board", MCU, variants={"graph": "composite -host=mine/board -devices=mine/board"})
    assert tcfg.Target("mine/board:graph", registry=reg).tag == "mine/board:graph"
    with pytest.raises(tcfg.TargetError, match="variant 'mine/other:x'"):
        reg.register_tag("mine/other", MCU, variants={"x": {"kind": "llvm", "num-cores": 0}})
    assert "mine/other" not in reg.list_tags()
    with pytest.raises(tcfg.UnknownKindError):
        tcfg.Target("mine/other", registry=reg)
    reg.register_tag("mine/board", MCU, override=True)
    with pytest.raises(tcfg.UnknownTagError, match="it has no variants"):
        tcfg.Target("mine/board:graph", registry=reg)


def test_tag_names_may_not_hold_the_variant_separator(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match="':'"):
        reg.register_tag("a:b", MCU)
