"""A misbehaving plugin fails alone: named once, the other plugins' answers unchanged (issue 25, item 6)."""

from __future__ import annotations

import pickle
import types
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import tcfg
from tcfg.plugin import CpuParser, Derived, DeriveRequest, Feature, Library, TargetKind, hookimpl


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
        "first": {"tag.first": "tcfg_rank_first.plugin"},
        "second": {"kind.secondkind": "tcfg_rank_second.plugin"},
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
