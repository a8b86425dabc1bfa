"""Tag aliases: another name of a tag, resolving wherever the tag's name does."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest

import tcfg
from tcfg.cli import main
from tcfg.plugin import TagSpec
from tests.fake_plugins import plugin_with

X86 = {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "num-cores": 8}


def board_plugin(name: str = "boards", *specs: TagSpec) -> object:
    def register_tags(register: Any) -> None:
        for spec in specs or (TagSpec("vendor/box", X86, "a box", aliases=("other/box-8", "legacy-box")),):
            register(spec)

    return plugin_with(name, tcfg_register_tags=register_tags)


@pytest.fixture
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[board_plugin()], autoload=False)


@pytest.mark.parametrize(
    "spec",
    [
        "other/box-8",
        "legacy-box",
        {"tag": "other/box-8"},
        '{"tag": "legacy-box"}',
    ],
)
def test_an_alias_builds_the_tag_with_its_canonical_name(reg: tcfg.Registry, spec: Any) -> None:
    t = tcfg.Target(spec, registry=reg)
    assert t == tcfg.Target("vendor/box", registry=reg)
    assert t.tag == "vendor/box"
    assert "vendor/box" in str(t) and "other/box-8" not in str(t)
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t


def test_overrides_after_an_alias(reg: tcfg.Registry) -> None:
    t = tcfg.Target("other/box-8 -num-cores=4", registry=reg)
    assert t.attrs["num-cores"] == 4 and t.tag == "vendor/box"
    assert t == tcfg.Target({"tag": "legacy-box", "num-cores": 4}, registry=reg)
    assert t == tcfg.Target("vendor/box -num-cores=4", registry=reg)


def test_get_tag_and_tag_entry_accept_aliases(reg: tcfg.Registry) -> None:
    assert reg.get_tag("other/box-8") == reg.get_tag("vendor/box")
    entry = reg.tag_entry("legacy-box")
    assert entry.name == "vendor/box" and entry.aliases == ("other/box-8", "legacy-box")


def test_list_tags_lists_canonical_names_unless_aliases_are_asked(reg: tcfg.Registry) -> None:
    assert reg.list_tags() == ["vendor/box"]
    assert reg.list_tags(aliases=True) == ["legacy-box", "other/box-8", "vendor/box"]
    assert reg.list_tags("other/", aliases=True) == ["other/box-8"]
    assert reg.list_tags("other/") == []


def test_cli_tags_with_aliases(capsys: pytest.CaptureFixture[str], reg: tcfg.Registry) -> None:
    assert main(["tags"], registry=reg) == 0
    out = capsys.readouterr().out
    assert "vendor/box" in out and "other/box-8" not in out
    assert main(["tags", "--aliases"], registry=reg) == 0
    out = capsys.readouterr().out
    assert "other/box-8" in out and "alias of vendor/box" in out
    assert main(["tags", "--json"], registry=reg) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["name"] == "vendor/box" and entry["aliases"] == ["other/box-8", "legacy-box"]


def test_an_alias_clash_fails_the_newcomer_as_a_whole() -> None:
    first = board_plugin("first")
    second = board_plugin(
        "second",
        TagSpec("second/ok", X86, "fine"),
        TagSpec("second/box", X86, "clashes", aliases=("legacy-box",)),
    )
    reg = tcfg.Registry(plugins=[first, second], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match=r"'second'.*'legacy-box'.*'first'"):
        assert reg.list_tags() == ["vendor/box"]
    status = {r.name: r.status for r in reg.plugins()}
    assert status["first"] == "loaded" and status["second"] == "failed"
    assert tcfg.Target("legacy-box", registry=reg).tag == "vendor/box"
    with pytest.raises(tcfg.TargetError):
        tcfg.Target("second/ok", registry=reg)


def test_an_alias_may_not_be_another_plugins_tag_name() -> None:
    first = board_plugin("first")
    second = board_plugin("second", TagSpec("second/box", X86, aliases=("vendor/box",)))
    reg = tcfg.Registry(plugins=[first, second], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match=r"plugin 'second'.*'vendor/box'"):
        reg.list_tags()
    assert tcfg.Target("vendor/box", registry=reg).attrs["num-cores"] == 8


def test_strict_mode_makes_an_alias_clash_an_error() -> None:
    first = board_plugin("first")
    second = board_plugin("second", TagSpec("second/box", X86, aliases=("other/box-8",)))
    reg = tcfg.Registry(plugins=[first, second], autoload=False, strict=True)
    with pytest.raises(tcfg.PluginError, match="other/box-8"):
        reg.list_tags()


@pytest.mark.parametrize(
    ("aliases", "needle"),
    [
        (("has space",), "tag alias 'has space'"),
        (("llvm",), "already a kind"),
        (("vendor/box",), "its own name"),
        ("not-a-list", "list of names"),
        (("a:b",), "':'"),
    ],
)
def test_bad_aliases_fail_the_plugin(aliases: Any, needle: str) -> None:
    reg = tcfg.Registry(plugins=[board_plugin("bad", TagSpec("vendor/box", X86, aliases=aliases))], autoload=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert reg.list_tags() == []
    assert any(needle in str(w.message) for w in caught), [str(w.message) for w in caught]


def test_register_tag_with_aliases(reg: tcfg.Registry) -> None:
    reg.register_tag("mine/box", "llvm -mtriple=x86_64-linux-gnu -num-cores=2", aliases=["my-box"])
    assert tcfg.Target("my-box", registry=reg).tag == "mine/box"
    with pytest.raises(tcfg.TargetError, match="'legacy-box' is already a name of tag 'vendor/box'"):
        reg.register_tag("mine/other", "llvm", aliases=["legacy-box"])
    with pytest.raises(tcfg.TargetError, match="already a name of tag 'vendor/box'"):
        reg.register_tag("legacy-box", "llvm")
    assert "mine/other" not in reg.list_tags()
    # Replacing a tag replaces its aliases: the old ones stop resolving.
    reg.register_tag("mine/box", "llvm -mtriple=x86_64-linux-gnu -num-cores=3", override=True, aliases=["box3"])
    assert tcfg.Target("box3", registry=reg).attrs["num-cores"] == 3
    with pytest.raises(tcfg.UnknownKindError):
        tcfg.Target("my-box", registry=reg)


def test_a_failed_override_keeps_the_old_tag(reg: tcfg.Registry) -> None:
    reg.register_tag("mine/box", X86, aliases=["my-box"])
    with pytest.raises(tcfg.TargetError):
        reg.register_tag("mine/box", {"kind": "llvm", "num-cores": 0}, override=True, aliases=["box0"])
    assert tcfg.Target("my-box", registry=reg).tag == "mine/box"
    assert "box0" not in reg.list_tags(aliases=True)


def test_the_process_wide_functions_take_aliases(monkeypatch: pytest.MonkeyPatch, reg: tcfg.Registry) -> None:
    from tcfg._model import view

    monkeypatch.setattr(view, "default_registry", lambda: reg)
    monkeypatch.setattr(tcfg, "_default_registry", lambda: reg)
    tcfg.register_tag("proc/box", X86, aliases=["proc-box"])
    assert tcfg.list_tags(aliases=True) == ["legacy-box", "other/box-8", "proc-box", "proc/box", "vendor/box"]
    assert tcfg.get_tag("proc-box") == reg.get_tag("proc/box")
