"""A misbehaving plugin fails alone: named once, the other plugins' answers unchanged (issue 25, item 6)."""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tcfg
from tcfg._base.grammar import RawValue
from tcfg.plugin import (
    Attr,
    AttrType,
    Compiler,
    CpuParser,
    Derived,
    DeriveRequest,
    Feature,
    Library,
    String,
    TargetKind,
    hookimpl,
)
from tcfg.testing import fake_distribution, registry_with


def _plugin(name: str, **hooks: Callable[..., Any]) -> types.SimpleNamespace:
    return types.SimpleNamespace(tcfg_plugin_name=name, **{hook: hookimpl(f) for hook, f in hooks.items()})


def _record(registry: tcfg.Registry, name: str) -> tcfg.PluginRecord:
    return next(r for r in registry.plugins() if r.name == name)


def test_a_derive_hook_returning_an_undeclared_feature_fails_its_plugin_only() -> None:
    def tcfg_register_features(register: Callable[[Feature], None]) -> None:
        register(Feature("declared_one", "a feature it declares"))

    def tcfg_derive_target(request: DeriveRequest) -> Derived:
        return Derived(features={"declared_one": True, "nobody_declared_this": True})

    liar = _plugin("liar", tcfg_register_features=tcfg_register_features, tcfg_derive_target=tcfg_derive_target)
    registry = tcfg.Registry([liar], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match=r"'liar'.*\['nobody_declared_this'\], which it does not declare"):
        target = tcfg.Target("llvm -mcpu=generic", registry=registry)
    assert dict(target.features).get("declared_one") is not True  # none of the failed hook's answer is kept
    assert _record(registry, "liar").status == "failed"
    assert tcfg.Target("c", registry=registry).kind.name == "c"  # later targets build, without a warning


def test_under_warnings_as_errors_a_failing_plugin_raises_once_at_load() -> None:
    def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
        raise RuntimeError("boom")

    def good_kinds(register: Callable[[TargetKind], None]) -> None:
        register(TargetKind("goodkind", "cpu"))

    registry = tcfg.Registry(
        [_plugin("broken", tcfg_register_kinds=tcfg_register_kinds), _plugin("good", tcfg_register_kinds=good_kinds)],
        autoload=False,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(tcfg.PluginWarning, match=r"'broken'.*RuntimeError: boom"):
            registry.list_kinds()
        # Raised once: the registry is loaded without the broken plugin, and answers.
        assert registry.list_kinds() == ["c", "composite", "goodkind", "llvm"]
        assert tcfg.Target("goodkind", registry=registry).kind.name == "goodkind"
    assert _record(registry, "broken").status == "failed"


def test_a_target_of_another_registry_refuses_to_pickle() -> None:
    own = tcfg.Target("llvm -mcpu=generic", registry=tcfg.Registry(autoload=False))
    with pytest.raises(tcfg.TargetError, match="registry other than the process-wide one"):
        pickle.dumps(own)
    shared = tcfg.Target("llvm -mcpu=generic")
    assert pickle.loads(pickle.dumps(shared)) == shared


class _ExitingParser(CpuParser):
    """A CPU sub-parser whose claims_cpu exits the process."""

    name = "exiting"
    arches = ("loongarch64",)

    def claims_cpu(self, mcpu: str) -> bool:
        raise SystemExit(5)

    def cpu_names(self) -> list[str]:
        return []

    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        return Derived()


def test_a_cpu_parser_that_exits_is_blamed_by_name_and_the_process_goes_on() -> None:
    def register_parsers(register: Callable[[CpuParser], None]) -> None:
        register(_ExitingParser())

    registry = tcfg.Registry([_plugin("exiting", tcfg_register_cpu_parsers=register_parsers)], autoload=False)
    with pytest.raises(tcfg.PluginError, match=r"the CPU parser 'exiting' \(.*claims_cpu\) failed: SystemExit: 5"):
        tcfg.Target("llvm -mcpu=some-cpu", registry=registry)
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).kind.name == "llvm"


def test_a_raising_library_rule_is_blamed_on_the_library() -> None:
    def rule(request: DeriveRequest) -> str | None:
        raise RuntimeError("rule bug")

    def register_libraries(register: Callable[[Library], None]) -> None:
        register(Library("buggy", ("llvm",), rule=rule))
        register(Library("fine", ("llvm",)))

    registry = tcfg.Registry([_plugin("libs", tcfg_register_libraries=register_libraries)], autoload=False)
    with pytest.raises(tcfg.PluginError, match=r"the rule of library 'buggy' \(.*\) failed: RuntimeError: rule bug"):
        tcfg.Target("llvm -mtriple=x86_64-linux-gnu -libs=buggy", registry=registry)
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu -libs=fine", registry=registry).attrs["libs"] == ("fine",)


def test_a_feature_alias_clash_names_the_owner_and_the_fix() -> None:
    def first(register: Callable[[Feature], None]) -> None:
        register(Feature("fast_math_unit", "one plugin's feature", aliases=("has_fmu",)))

    def second(register: Callable[[Feature], None]) -> None:
        register(Feature("other_unit", "another plugin's feature", aliases=("has_fmu",)))

    registry = tcfg.Registry(
        [_plugin("first", tcfg_register_features=first), _plugin("second", tcfg_register_features=second)],
        autoload=False,
    )
    with pytest.warns(
        tcfg.PluginWarning, match=r"'has_fmu'.*already an alias of 'fast_math_unit' \(declared by first\)"
    ):
        registry.list_kinds()
    assert _record(registry, "first").status == "loaded"
    assert _record(registry, "second").status == "failed"


def test_a_derive_hook_refusing_other_plugins_targets_fails_alone_and_its_tags_still_load() -> None:
    """Cases 2 and 10: the refusing hook's plugin is named once; targets and its own tags still build."""

    def tcfg_derive_target(request: DeriveRequest) -> Derived:
        raise tcfg.TargetError("I refuse every target")

    def tcfg_register_tags(register: Any) -> None:
        register("refuser/box", {"kind": "llvm", "mtriple": "x86_64-linux-gnu"})

    refuser = _plugin("refuser", tcfg_derive_target=tcfg_derive_target, tcfg_register_tags=tcfg_register_tags)
    registry = tcfg.Registry([refuser], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match="'refuser'.*refused the target") as caught:
        target = tcfg.Target("c -mcpu=generic", registry=registry)
        tcfg.Target("llvm -mcpu=generic", registry=registry)
    assert len(caught) == 1 and target.kind.name == "c"
    assert tcfg.Target("refuser/box", registry=registry).tag == "refuser/box"  # its tags load after the failure
    assert _record(registry, "refuser").status == "failed"


def test_a_plugin_answering_codegen_for_every_kind_does_not_take_over_owned_kinds() -> None:
    """Case 8: the owners of what a target names are asked first, then the others in pluggy's order."""

    def tcfg_codegen(target: Any) -> Any:
        raise AssertionError("asked before the owner")

    def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
        register(TargetKind("gadget", "cpu"))

    greedy = _plugin("zz-greedy", tcfg_codegen=tcfg_codegen)
    registry = tcfg.Registry([greedy], autoload=False)
    codegen = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).codegen()
    assert codegen.triple == "x86_64-linux-gnu"  # the core's own LLVM codegen, which owns llvm
    assert _record(registry, "zz-greedy").status == "loaded"
    owner_less = tcfg.Registry([_plugin("kinds", tcfg_register_kinds=tcfg_register_kinds), greedy], autoload=False)
    with (
        pytest.warns(tcfg.PluginWarning, match="'zz-greedy'.*asked before the owner"),
        pytest.raises(tcfg.TargetError, match="no installed plugin generates code for kind 'gadget'"),
    ):
        tcfg.Target("gadget", registry=owner_less).codegen()


def test_while_a_failing_plugin_is_dropped_the_published_tables_stay_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Case 4: other threads read the tables without the lock, so they are rebuilt aside and put in place whole."""
    from tcfg._registry.tags import TagTable

    def steady_tags(register: Any) -> None:
        register("steady/box", {"kind": "llvm", "mtriple": "x86_64-linux-gnu"})

    def clashing_tags(register: Any) -> None:
        register("steady/box", {"kind": "c"})  # taken: this plugin is dropped, and the tables committed again

    registry = tcfg.Registry(
        [_plugin("steady", tcfg_register_tags=steady_tags), _plugin("clasher", tcfg_register_tags=clashing_tags)],
        autoload=False,
    )
    seen: list[bool] = []
    commit = TagTable.commit

    def watching(table: TagTable, *args: Any) -> list[str]:
        live = registry._loader.tags
        if table is not live and "steady/box" in live.declared:  # a commit from scratch, aside
            seen.append(registry.find_tag("steady/box") is not None)
        return commit(table, *args)

    monkeypatch.setattr(TagTable, "commit", watching)
    with pytest.warns(tcfg.PluginWarning, match="'clasher'"):
        assert registry.list_tags() == ["steady/box"]
    assert seen and all(seen)
    assert tcfg.Target("steady/box", registry=registry).kind.name == "llvm"


_RANKED_FIRST = """
from tcfg.plugin import Feature, hookimpl

@hookimpl
def tcfg_register_features(register):
    register(Feature("first_unit", "the first plugin's feature", aliases=("has_unit",)))

@hookimpl
def tcfg_register_tags(register):
    register("first/box", {"kind": "llvm", "mtriple": "x86_64-linux-gnu"})
"""
_RANKED_SECOND = """
from tcfg.plugin import Feature, TargetKind, hookimpl

@hookimpl
def tcfg_register_kinds(register):
    register(TargetKind("secondkind", "cpu", features=(Feature("second_unit", "its feature", aliases=("has_unit",)),)))
"""


def _two_ranked_plugins(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> tcfg.Registry:
    """Installed plugins 'first' and 'second' (ranked in that order) that both claim the feature alias has_unit."""
    from tcfg.testing import fake_distribution

    provides = {
        "first": {
            "tag.first": "tcfg_rank_first.plugin",
            "feature.first_unit": "tcfg_rank_first.plugin",
            "feature.has_unit": "tcfg_rank_first.plugin",
        },
        "second": {
            "kind.secondkind": "tcfg_rank_second.plugin",
            "feature.second_unit": "tcfg_rank_second.plugin",
            "feature.has_unit": "tcfg_rank_second.plugin",
        },
    }
    for name, source in (("first", _RANKED_FIRST), ("second", _RANKED_SECOND)):
        fake_distribution(
            tmp_path,
            f"tcfg-rank-{name}",
            {"tcfg": {name: f"tcfg_rank_{name}.plugin"}, "tcfg.provides": provides[name]},
            modules={f"tcfg_rank_{name}/__init__.py": "", f"tcfg_rank_{name}/plugin.py": source},
        )
    monkeypatch.syspath_prepend(str(tmp_path))
    return tcfg.Registry(path=[str(tmp_path)], environ={})


def test_lazy_and_eager_loading_give_a_contested_name_to_the_first_plugin_by_rank(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Case 6: a name no manifest declares (a feature alias) goes to the first by rank, whatever loads first."""
    eager = _two_ranked_plugins(tmp_path, monkeypatch)
    with pytest.warns(tcfg.PluginWarning, match="'second'"):
        eager.list_tags()
    lazy = _two_ranked_plugins(tmp_path, monkeypatch)
    assert tcfg.Target("secondkind", registry=lazy).kind.name == "secondkind"  # loads 'second' alone
    with pytest.warns(tcfg.PluginWarning, match="'second'.*'first', ranked before it"):
        lazy.list_tags()  # loads 'first', which takes the alias back
    for registry in (eager, lazy):
        assert [(r.name, r.status) for r in registry.plugins()][1:] == [("first", "loaded"), ("second", "failed")]
        assert registry.features.aliases["has_unit"] == "first_unit"


# -- case 3: a kind's or a compiler's parser that exits the process ------------------------------


def _exit(request: DeriveRequest) -> Derived:
    sys.exit(5)


def _interrupt(request: DeriveRequest) -> Derived:
    raise KeyboardInterrupt


def test_a_kind_parser_that_exits_is_blamed_on_its_plugin_and_the_process_goes_on() -> None:
    def register_kinds(register: Callable[[TargetKind], None]) -> None:
        register(TargetKind("exitkind", "cpu", parser=_exit))

    registry = registry_with(_plugin("exiter", tcfg_register_kinds=register_kinds))
    exited = r"target 'exitkind': the parser of plugin 'exiter' failed: SystemExit: 5"
    with pytest.raises(tcfg.PluginError, match=exited):
        tcfg.Target("exitkind", registry=registry)
    with pytest.raises(tcfg.PluginError, match="'exiter' failed: SystemExit"):
        tcfg.Target({"kind": "exitkind"}, registry=registry)
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).kind.name == "llvm"


def test_a_compiler_parser_that_exits_is_blamed_on_the_compiler() -> None:
    def register_compilers(register: Callable[[Compiler], None]) -> None:
        register(Compiler("exitcc", ("llvm",), parser=_exit))

    registry = registry_with(_plugin("exiter", tcfg_register_compilers=register_compilers))
    spec = "llvm -mtriple=x86_64-linux-gnu -compiler=exitcc"
    exited = rf"target '{spec}': the parser of compiler 'exitcc' \(kind 'llvm'\) failed: SystemExit: 5"
    with pytest.raises(tcfg.PluginError, match=exited):
        tcfg.Target(spec, registry=registry)
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).kind.name == "llvm"


def test_a_parser_interrupted_by_the_user_is_not_blamed() -> None:
    def register_kinds(register: Callable[[TargetKind], None]) -> None:
        register(TargetKind("stopkind", "cpu", parser=_interrupt))

    def register_compilers(register: Callable[[Compiler], None]) -> None:
        register(Compiler("stopcc", ("llvm",), parser=_interrupt))

    registry = registry_with(
        _plugin("stopper", tcfg_register_kinds=register_kinds, tcfg_register_compilers=register_compilers)
    )
    with pytest.raises(KeyboardInterrupt):
        tcfg.Target("stopkind", registry=registry)
    with pytest.raises(KeyboardInterrupt):
        tcfg.Target("llvm -compiler=stopcc", registry=registry)


_EXITING_PLUGIN = """
import sys

from tcfg.plugin import TargetKind, hookimpl


def _parse(request):
    sys.exit(5)


@hookimpl
def tcfg_register_kinds(register):
    register(TargetKind("exitkind", "cpu", parser=_parse))
"""


def test_an_installed_plugin_whose_parser_exits_gets_an_error_from_the_cli_not_a_silent_exit(tmp_path: Path) -> None:
    fake_distribution(
        tmp_path,
        "tcfg-test-exiter",
        {"tcfg": {"exiter": "tcfg_test_exiter"}, "tcfg.provides": {"kind.exitkind": "tcfg_test_exiter"}},
        modules={"tcfg_test_exiter/__init__.py": _EXITING_PLUGIN},
    )
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TCFG_")}
    environ["PYTHONPATH"] = os.pathsep.join([str(tmp_path), environ.get("PYTHONPATH", "")])
    environ["TCFG_LOAD_PLUGINS"] = "exiter"
    done = subprocess.run(
        [sys.executable, "-m", "tcfg", "show", "exitkind"], capture_output=True, text=True, env=environ, timeout=120
    )
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.startswith(
        "tcfg: error: target 'exitkind': the parser of plugin 'exiter' failed: SystemExit: 5"
    ), done.stderr
    other = subprocess.run(
        [sys.executable, "-m", "tcfg", "show", "llvm -mtriple=x86_64-linux-gnu"],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )
    assert other.returncode == 0 and "exiter" not in other.stderr, other.stderr


# -- case 9: a plugin's attribute type that raises, or whose values do not hash -----------------


class _Broken(AttrType):
    """An attribute type whose method ``fails`` raises ``error`` (otherwise: one string, held as a 1-tuple)."""

    description = "a broken string"

    def __init__(self, fails: str, error: BaseException) -> None:
        self.fails, self.error = fails, error

    def _maybe_fail(self, method: str) -> None:
        if self.fails == method:
            raise self.error

    def from_text(self, raw: RawValue, build: Any) -> Any:
        self._maybe_fail("from_text")
        return (raw.text,)

    def check(self, value: Any, build: Any) -> Any:
        self._maybe_fail("check")
        return (value,)

    def to_text(self, value: Any) -> str:
        self._maybe_fail("to_text")
        return str(value[0])

    def to_json(self, value: Any) -> Any:
        self._maybe_fail("to_json")
        return value[0]

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string"}

    def text_bound(self) -> int | None:
        return 64  # printed on demand only (a type without a bound is printed when built, to be measured)


class _Listing(AttrType):
    """An attribute type that holds its values as lists (which do not hash)."""

    description = "a list"

    def from_text(self, raw: RawValue, build: Any) -> Any:
        return raw.text.split(",")

    def check(self, value: Any, build: Any) -> Any:
        return list(value)

    def to_text(self, value: Any) -> str:
        return ",".join(value)

    def json_schema(self) -> dict[str, Any]:
        return {"type": "array"}


def _kind_plugin(*attrs: Attr, parser: Any = None) -> types.SimpleNamespace:
    def register_kinds(register: Callable[[TargetKind], None]) -> None:
        register(TargetKind("typed", "cpu", attrs=attrs, parser=parser))

    return _plugin("typer", tcfg_register_kinds=register_kinds)


_BLAME = r"test_isolation\._Broken\.{method} of attribute 'odd' of kind 'typed' \(plugin 'typer'\) failed: {error}"


@pytest.mark.parametrize(("error", "shown"), [(KeyError("k"), "KeyError: 'k'"), (SystemExit(3), "SystemExit: 3")])
def test_an_attribute_type_that_raises_reading_is_blamed_by_name(error: BaseException, shown: str) -> None:
    attrs = Attr("odd", _Broken("from_text", error)), Attr("even", _Broken("check", error))
    registry = registry_with(_kind_plugin(*attrs))
    for spec in ("typed -odd=1", "typed -odd='1'"):  # the text shortcut and the full reader
        blamed = f"target {re.escape(repr(spec))}: [\\w.]*" + _BLAME.format(method="from_text", error=shown)
        with pytest.raises(tcfg.PluginError, match=blamed):
            tcfg.Target(spec, registry=registry)
    checked = r"_Broken\.check of attribute 'even' of kind 'typed' \(plugin 'typer'\)"
    with pytest.raises(tcfg.PluginError, match=checked):
        tcfg.Target({"kind": "typed", "even": "1"}, registry=registry)
    with pytest.raises(tcfg.PluginError, match=r"_Broken\.check of attribute 'even'"):
        tcfg.Target('{"kind": "typed", "even": "1"}', registry=registry)
    assert str(tcfg.Target({"kind": "typed", "odd": "1"}, registry=registry)) == "typed -odd=1"
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).kind.name == "llvm"


def test_an_attribute_type_that_raises_printing_is_blamed_by_name() -> None:
    attrs = Attr("odd", _Broken("to_text", TypeError("no text"))), Attr("even", _Broken("to_json", KeyError("j")))
    registry = registry_with(_kind_plugin(*attrs))
    target = tcfg.Target("typed -odd=1", registry=registry)
    with pytest.raises(tcfg.PluginError, match=_BLAME.format(method="to_text", error="TypeError: no text")):
        str(target)
    with pytest.raises(tcfg.PluginError, match=r"_Broken\.to_json of attribute 'even' of kind 'typed'.*KeyError: 'j'"):
        tcfg.Target("typed -even=2", registry=registry).export()
    assert hash(target) == hash(tcfg.Target({"kind": "typed", "odd": "1"}, registry=registry))
    unbounded = _Broken("to_text", TypeError("no text"))
    unbounded.text_bound = lambda: None  # type: ignore[method-assign]
    measured = registry_with(_kind_plugin(Attr("odd", unbounded)))
    with pytest.raises(tcfg.PluginError, match=_BLAME.format(method="to_text", error="TypeError: no text")):
        tcfg.Target("typed -odd=1", registry=measured)  # its text is measured as it is built


def test_an_attribute_type_check_that_raises_on_a_parsers_value_is_blamed_by_name() -> None:
    def parser(request: DeriveRequest) -> Derived:
        return Derived(attrs={**request.attrs, "odd": "set"})

    registry = registry_with(_kind_plugin(Attr("odd", _Broken("check", KeyError("p"))), parser=parser))
    with pytest.raises(tcfg.PluginError, match=_BLAME.format(method="check", error="KeyError: 'p'")):
        tcfg.Target("typed", registry=registry)


def test_an_attribute_type_that_raises_keyboard_interrupt_is_not_blamed() -> None:
    registry = registry_with(_kind_plugin(Attr("odd", _Broken("check", KeyboardInterrupt()))))
    with pytest.raises(KeyboardInterrupt):
        tcfg.Target({"kind": "typed", "odd": "1"}, registry=registry)


def test_an_unhashable_attribute_value_is_refused_when_the_target_is_built() -> None:
    registry = registry_with(_kind_plugin(Attr("items", _Listing()), Attr("plain", String())))
    refused = (
        r"test_isolation\._Listing of attribute 'items' of kind 'typed' \(plugin 'typer'\) "
        r"gave the unhashable value \['a', 'b'\]"
    )
    for spec in ("typed -items=a,b", "typed -items='a,b'", {"kind": "typed", "items": ["a", "b"]}):
        with pytest.raises(tcfg.PluginError, match=refused):
            tcfg.Target(spec, registry=registry)
    assert hash(tcfg.Target("typed -plain=x", registry=registry))  # other attributes of the kind build


def test_an_unhashable_value_a_parser_sets_is_refused() -> None:
    def parser(request: DeriveRequest) -> Derived:
        return Derived(attrs={**request.attrs, "items": ["set"]})

    registry = registry_with(_kind_plugin(Attr("items", _Listing()), parser=parser))
    refused = r"_Listing of attribute 'items' of kind 'typed'.*unhashable value \['set'\]"
    with pytest.raises(tcfg.PluginError, match=refused):
        tcfg.Target("typed", registry=registry)
