"""Name squatting: the first plugin to register a name keeps it, and the newcomer is the one named.

Plugins load in order of their entry names (the core first), so a plugin whose name sorts
first can claim a kind or a tag that a later, real plugin also registers. The registry
never replaces the owner; the newcomer fails whole, and its warning names both plugins,
the name, the rule and how to hand the name over (``TCFG_DISABLED_PLUGINS=<owner>``).
"""

from __future__ import annotations

import types
from collections.abc import Callable

import pytest

import tcfg
from tcfg.plugin import TagRegistrar, TargetKind, hookimpl


def plugin(name: str, kind_doc: str, tag_cores: int) -> types.SimpleNamespace:
    def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
        register(TargetKind("npu", device_type="npu", doc=kind_doc))

    def tcfg_register_tags(register: TagRegistrar) -> None:
        register("acme/npu-1", {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "num-cores": tag_cores})

    return types.SimpleNamespace(
        tcfg_plugin_name=name,
        tcfg_register_kinds=hookimpl(tcfg_register_kinds),
        tcfg_register_tags=hookimpl(tcfg_register_tags),
    )


def test_the_owner_keeps_its_names_and_the_newcomer_is_named() -> None:
    squatter, real = plugin("aaa", "squatter's", 1), plugin("acme", "acme's", 8)
    reg = tcfg.Registry(plugins=[squatter, real], autoload=False)
    with pytest.warns(tcfg.PluginWarning) as warned:
        assert reg.get_kind("npu").doc == "squatter's"
        assert tcfg.Target("acme/npu-1", registry=reg).attrs["num-cores"] == 1
    message = " ".join(str(w.message) for w in warned)
    assert "plugin 'acme' registers the kind 'npu', which plugin 'aaa' already owns" in message
    assert "the first plugin to register a name keeps it" in message
    assert "TCFG_DISABLED_PLUGINS=aaa" in message
    status = {r.name: r.status for r in reg.plugins()}
    assert status == {"core": "loaded", "aaa": "loaded", "acme": "failed"}


def test_a_tag_clash_alone_fails_the_newcomer_and_keeps_the_owners_tag() -> None:
    first = types.SimpleNamespace(
        tcfg_plugin_name="first",
        tcfg_register_tags=hookimpl(lambda register: register("board/x", "llvm -mtriple=aarch64-linux-gnu")),
    )
    second = types.SimpleNamespace(
        tcfg_plugin_name="second",
        tcfg_register_tags=hookimpl(lambda register: register("board/x", "llvm -mtriple=x86_64-linux-gnu")),
    )
    reg = tcfg.Registry(plugins=[first, second], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match="plugin 'second' registers the tag 'board/x', which plugin 'first'"):
        assert tcfg.Target("board/x", registry=reg).attrs["mtriple"] == "aarch64-linux-gnu"
    assert reg.get_tag("board/x")["mtriple"] == "aarch64-linux-gnu"


def test_strict_mode_makes_the_clash_an_error() -> None:
    reg = tcfg.Registry(plugins=[plugin("aaa", "a", 1), plugin("acme", "b", 2)], autoload=False, strict=True)
    with pytest.raises(tcfg.PluginError, match="'acme' registers the kind 'npu'"):
        reg.list_kinds()


def test_the_cores_names_cannot_be_taken_and_no_remedy_is_offered() -> None:
    vm = types.SimpleNamespace(
        tcfg_plugin_name="vm2",
        tcfg_register_kinds=hookimpl(lambda register: register(TargetKind("llvm", device_type="cpu"))),
    )
    reg = tcfg.Registry(plugins=[vm], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match=r"which plugin 'core' already owns \(the first plugin") as warned:
        reg.list_kinds()
    assert "TCFG_DISABLED_PLUGINS" not in str(warned[0].message)
