"""tcfg's hook markers and hook collection, against pluggy's (which tcfg does not import to run)."""

from __future__ import annotations

import types
import warnings
from typing import Any

import importlib_metadata
import pluggy
import pytest

import tcfg
from tcfg import hookspecs
from tcfg._builtin.plugin import LLVM
from tcfg._registry.hooks import collect, spec_table
from tcfg.plugin import TargetKind, hookimpl


def plugin_modules() -> list[types.ModuleType]:
    """The core's own plugin and every installed plugin's hook module."""
    from tcfg._builtin import plugin as _engine_builtin

    modules = [_engine_builtin]
    for ep in importlib_metadata.entry_points(group="tcfg"):
        obj = ep.load()
        assert isinstance(obj, types.ModuleType)
        modules.append(obj)
    return modules


def test_pluggy_accepts_the_hookspecs_and_every_plugin() -> None:
    pm = pluggy.PluginManager("tcfg")
    pm.add_hookspecs(hookspecs)
    for module in plugin_modules():
        pm.register(module)
    pm.check_pending()
    specs = spec_table(hookspecs)
    assert sorted(specs) == sorted(name for name in dir(pm.hook) if name.startswith("tcfg_"))
    for name, args in specs.items():
        assert getattr(pm.hook, name).spec.argnames == args
    firstresult = {name for name in specs if getattr(pm.hook, name).spec.opts["firstresult"]}
    assert firstresult == {"tcfg_codegen"}


def test_tcfg_collects_what_pluggy_collects() -> None:
    pm = pluggy.PluginManager("tcfg")
    pm.add_hookspecs(hookspecs)
    specs = spec_table(hookspecs)
    for module in plugin_modules():
        pm.register(module)
        ours = {(impl.hook, impl.function, impl.tryfirst, impl.trylast) for impl in collect(module, specs)}
        theirs = {
            (name, impl.function, impl.tryfirst, impl.trylast)
            for name in specs
            for impl in getattr(pm.hook, name).get_hookimpls()
            if impl.plugin is module
        }
        assert ours == theirs, module.__name__
        assert ours, f"{module.__name__} implements no hook"


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
        (Greedy(), "tcfg_register_kinds asks for ['target'], which tcfg_register_kinds does not pass"),
    ],
)
def test_invalid_hook_implementations_fail_their_plugin_only(plugin: object, reason: str) -> None:
    reg = tcfg.Registry(plugins=[plugin], autoload=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert reg.list_kinds() == ["c", "composite", "llvm"]
    record = next(r for r in reg.plugins() if r.name == plugin.tcfg_plugin_name)
    assert record.status == "failed"
    assert record.error is not None and f"invalid hook implementations: {reason}" in record.error
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
