"""tcfg's hooks are pluggy's: its markers, its PluginManager, its calling order, tcfg's stricter checks."""

from __future__ import annotations

import subprocess
import sys
import types
import warnings
from typing import Any

import importlib_metadata
import pluggy
import pytest

import tcfg
from tcfg import hookspecs
from tcfg._builtin.plugin import LLVM
from tcfg._registry.manager import InvalidPlugin, Manager, hook_names
from tcfg.plugin import TargetKind, hookimpl


def plugin_modules() -> list[types.ModuleType]:
    """The core's own plugin and every installed plugin's hook module."""
    from tcfg._builtin import plugin as builtin_plugin

    modules = [builtin_plugin]
    for ep in importlib_metadata.entry_points(group="tcfg"):
        obj = ep.load()
        assert isinstance(obj, types.ModuleType)
        modules.append(obj)
    return modules


def test_the_markers_are_pluggys() -> None:
    assert isinstance(hookimpl, pluggy.HookimplMarker) and hookimpl.project_name == "tcfg"
    assert isinstance(hookspecs.hookspec, pluggy.HookspecMarker) and hookspecs.hookspec.project_name == "tcfg"


def test_pluggy_accepts_the_hookspecs_and_every_plugin() -> None:
    pm = pluggy.PluginManager("tcfg")
    pm.add_hookspecs(hookspecs)
    for module in plugin_modules():
        pm.register(module)
    pm.check_pending()
    assert sorted(hook_names()) == sorted(name for name in dir(pm.hook) if name.startswith("tcfg_"))
    firstresult = {name for name in hook_names() if getattr(pm.hook, name).spec.opts["firstresult"]}
    assert firstresult == {"tcfg_codegen", "tcfg_runs_on"}


def _kind_plugin(kind: str) -> types.SimpleNamespace:
    @hookimpl
    def tcfg_register_kinds(register: Any) -> None:
        register(TargetKind(kind, "cpu"))

    return types.SimpleNamespace(tcfg_register_kinds=tcfg_register_kinds)


def test_the_manager_calls_in_rank_order_whatever_the_load_order() -> None:
    """pluggy calls the plugin registered last first; the manager registers by rank, so load order does not matter."""
    manager = Manager()
    for name, rank in [("c", 3), ("a", 1), ("b", 2)]:  # loaded lazily, out of order
        manager.add(name, _kind_plugin(name), rank)
    assert manager.implementers("tcfg_register_kinds") == ["c", "b", "a"]
    kinds: list[str] = []
    assert manager.call("b", "tcfg_register_kinds", register=lambda k: kinds.append(k.name)) == []
    assert kinds == ["b"]
    manager.remove("c")
    assert manager.implementers("tcfg_register_kinds") == ["b", "a"]


def test_a_blocked_or_duplicate_plugin_is_refused_by_name() -> None:
    manager = Manager()
    manager.block("nope")
    with pytest.raises(InvalidPlugin, match="'nope' is blocked"):
        manager.add("nope", _kind_plugin("x"), 0)
    plugin = _kind_plugin("y")
    manager.add("one", plugin, 1)
    with pytest.raises(InvalidPlugin, match="already registered"):
        manager.add("two", plugin, 2)
    assert manager.implementers("tcfg_register_kinds") == ["one"]


def test_tracing_shows_every_hook_call() -> None:
    code = "import tcfg; tcfg.Target('llvm -mcpu=generic'); print(tcfg.list_kinds())"
    env = {"TCFG_TRACE_PLUGINS": "1", "TCFG_DISABLE_PLUGIN_AUTOLOAD": "1", "PATH": ""}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "tcfg: tcfg_register_kinds of core (register)" in done.stderr
    assert "tcfg: tcfg_register_kinds -> []" in done.stderr


def test_a_plugin_marked_with_pluggys_own_marker_loads() -> None:
    mark = pluggy.HookimplMarker("tcfg")
    plugin = types.SimpleNamespace()

    @mark
    def tcfg_register_kinds(register: Any) -> None:
        register(TargetKind("pluggykind", "cpu"))

    plugin.tcfg_register_kinds = tcfg_register_kinds
    reg = tcfg.Registry(plugins=[plugin], autoload=False)
    assert "pluggykind" in reg.list_kinds()


class Misnamed:
    tcfg_plugin_name = "misnamed"

    @hookimpl
    def tcfg_register_kind(self, register: Any) -> None:
        register(LLVM)


class Wrapper:
    tcfg_plugin_name = "wrapper"

    @pluggy.HookimplMarker("tcfg")(wrapper=True)
    def tcfg_register_kinds(self, register: Any) -> Any:
        yield


class Greedy:
    tcfg_plugin_name = "greedy"

    @hookimpl
    def tcfg_register_kinds(self, register: Any, target: Any) -> None:
        pass


@pytest.mark.parametrize(
    ("plugin", "reason"),
    [
        (Misnamed(), "tcfg_register_kind implements 'tcfg_register_kind', which is not a tcfg hook"),
        (Wrapper(), "tcfg_register_kinds is a hook wrapper; tcfg calls plain hook implementations only"),
        (Greedy(), "Argument(s) {'target'} are declared in the hookimpl but can not be found in the hookspec"),
    ],
)
def test_invalid_hook_implementations_fail_their_plugin_only(plugin: object, reason: str) -> None:
    reg = tcfg.Registry(plugins=[plugin], autoload=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert reg.list_kinds() == ["c", "composite", "llvm"]
    record = next(r for r in reg.plugins() if r.name == plugin.tcfg_plugin_name)
    assert record.status == "failed"
    assert record.error is not None and reason in record.error
    assert any(reason in str(w.message) for w in caught)


def test_optional_hooks_and_specname() -> None:
    class Plugin:
        tcfg_plugin_name = "named"

        @hookimpl(optionalhook=True)
        def tcfg_some_future_hook(self) -> None:
            raise AssertionError("never called")

        @hookimpl(specname="tcfg_register_kinds")
        def kinds(self, register: Any) -> None:
            register(TargetKind("speckind", "cpu"))

    reg = tcfg.Registry(plugins=[Plugin()], autoload=False)
    assert "speckind" in reg.list_kinds()
    assert next(r for r in reg.plugins() if r.name == "named").status == "loaded"
