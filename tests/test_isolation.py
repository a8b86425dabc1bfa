"""A misbehaving plugin fails alone: named once, the other plugins' answers unchanged (issue 25, item 6).

Every fake plugin is installed as a distribution (a ``*.dist-info`` folder written by
:func:`tcfg.testing.fake_distribution`) and found through its entry points by
``tcfg.Registry(path=[...])``, as pip-installed plugins are. Where what a plugin provides
decides when it loads, a test runs twice: ``lazy`` (its ``tcfg.provides`` manifest
written, so it is imported when a name it declares is needed) and ``eager`` (no manifest,
so it is imported by the first query).
"""

from __future__ import annotations

import itertools
import os
import pickle
import re
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import pytest

import tcfg
from tcfg.plugin import LLVMCodegen
from tcfg.testing import fake_distribution

# These registries scan only a test's directory, so an x86_64 triple gets the core's advice to
# install tcfg-plugin-x86: true, and not what these tests are about.
pytestmark = pytest.mark.filterwarnings(r"ignore:-mtriple=.*\(not installed\):tcfg.PluginWarning")

ATTR_TYPES = Path(__file__).parent / "fixtures" / "hostile_plugins" / "attr_types.py"


class Fake(NamedTuple):
    """A plugin to install: its entry-point name, its hook module's source, and what it declares it provides.

    ``provides`` are its ``tcfg.provides`` entries (``"kind.NAME"``); ``files`` are modules
    copied beside the hook module (its source imports them relatively).
    """

    name: str
    source: str
    provides: tuple[str, ...] = ()
    files: tuple[Path, ...] = ()


#: Numbers the fake plugins' packages, so that no two tests import the same module name.
_packages = itertools.count()


def _write(site: Path, fakes: Iterable[Fake], manifests: bool) -> None:
    """Install ``fakes`` into ``site``, each its own distribution and package (with its manifest if ``manifests``)."""
    for fake in fakes:
        package = f"tcfg_isolation_{next(_packages)}_" + re.sub(r"\W", "_", fake.name)
        hooks = f"{package}.plugin"
        groups = {"tcfg": {fake.name: hooks}}
        if manifests and fake.provides:
            groups["tcfg.provides"] = dict.fromkeys(fake.provides, hooks)
        modules: dict[str, str | Path] = {
            f"{package}/__init__.py": "",
            f"{package}/plugin.py": textwrap.dedent(fake.source),
        }
        modules.update({f"{package}/{file.name}": file for file in fake.files})
        fake_distribution(site, package.replace("_", "-"), groups, modules=modules)


class Install(Protocol):
    """The ``install`` fixture's function."""

    def __call__(self, *fakes: Fake, manifests: bool = True) -> tcfg.Registry: ...


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Install:
    """``install(*fakes, manifests=True)``: a registry of the core and ``fakes``, installed in a new directory.

    The registry reads no ``TCFG_*`` variable and finds no other installed plugin.
    """
    sites = itertools.count()

    def installed(*fakes: Fake, manifests: bool = True) -> tcfg.Registry:
        site = tmp_path / f"site{next(sites)}"
        _write(site, fakes, manifests)
        monkeypatch.syspath_prepend(str(site))
        return tcfg.Registry(path=[str(site)], environ={})

    return installed


#: Runs a test with the plugins' manifests (``lazy``) and without them (``eager``).
lazy_and_eager = pytest.mark.parametrize("manifests", [True, False], ids=["lazy", "eager"])


def _record(registry: tcfg.Registry, name: str) -> tcfg.PluginRecord:
    return next(r for r in registry.plugins() if r.name == name)


def _one_kind(name: str, kind: str) -> Fake:
    """A well-behaved plugin ``name`` that registers (and declares) the plain CPU kind ``kind``."""
    source = f"""
        from tcfg.plugin import TargetKind, hookimpl

        @hookimpl
        def tcfg_register_kinds(register):
            register(TargetKind({kind!r}, "cpu"))
    """
    return Fake(name, source, (f"kind.{kind}",))


def _one_tag(name: str, tag: str, config: dict[str, str]) -> Fake:
    """A plugin ``name`` that registers the tag ``tag`` as ``config`` (and declares the tag's vendor)."""
    source = f"""
        from tcfg.plugin import hookimpl

        @hookimpl
        def tcfg_register_tags(register):
            register({tag!r}, {config!r})
    """
    return Fake(name, source, (f"tag.{tag.partition('/')[0]}",))


@lazy_and_eager
def test_a_derive_hook_returning_an_undeclared_feature_fails_its_plugin_only(install: Install, manifests: bool) -> None:
    liar = """
        from tcfg.plugin import Derived, Feature, hookimpl

        @hookimpl
        def tcfg_register_features(register):
            register(Feature("declared_one", "a feature it declares"))

        @hookimpl
        def tcfg_derive_target(request):
            return Derived(features={"declared_one": True, "nobody_declared_this": True})
    """
    registry = install(Fake("liar", liar, ("derive.llvm", "derive.c", "feature.declared_one")), manifests=manifests)
    with pytest.warns(tcfg.PluginWarning, match=r"'liar'.*\['nobody_declared_this'\], which it does not declare"):
        target = tcfg.Target("llvm -mcpu=generic", registry=registry)
    assert dict(target.features).get("declared_one") is not True  # none of the failed hook's answer is kept
    assert _record(registry, "liar").status == "failed"
    assert tcfg.Target("c", registry=registry).kind.name == "c"  # later targets build, without a warning


@lazy_and_eager
def test_under_warnings_as_errors_a_failing_plugin_raises_once_at_load(install: Install, manifests: bool) -> None:
    broken = """
        from tcfg.plugin import hookimpl

        @hookimpl
        def tcfg_register_kinds(register):
            raise RuntimeError("boom")
    """
    registry = install(Fake("broken", broken, ("kind.brokenkind",)), _one_kind("good", "goodkind"), manifests=manifests)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(tcfg.PluginWarning, match=r"'broken'.*RuntimeError: boom"):
            registry.list_kinds()
        # Raised once: the registry is loaded without the broken plugin, and answers.
        assert registry.list_kinds() == ["c", "composite", "goodkind", "llvm"]
        assert tcfg.Target("goodkind", registry=registry).kind.name == "goodkind"
    assert _record(registry, "broken").status == "failed"


def test_a_target_of_another_registry_refuses_to_pickle(install: Install) -> None:
    """Case 11 needs no misbehaving plugin: any registry but the process-wide one is refused,
    an empty one (``autoload=False``, the case as reported) or one holding an installed plugin."""
    for own in (
        tcfg.Target("llvm -mcpu=generic", registry=tcfg.Registry(autoload=False)),
        tcfg.Target("ownkind", registry=install(_one_kind("own", "ownkind"))),
    ):
        with pytest.raises(tcfg.TargetError, match="registry other than the process-wide one"):
            pickle.dumps(own)
    shared = tcfg.Target("llvm -mcpu=generic")
    assert pickle.loads(pickle.dumps(shared)) == shared


@lazy_and_eager
def test_a_cpu_parser_that_exits_is_blamed_by_name_and_the_process_goes_on(install: Install, manifests: bool) -> None:
    exiting = """
        from tcfg.plugin import CpuParser, Derived, hookimpl

        class ExitingParser(CpuParser):
            name = "exiting"
            arches = ("loongarch64",)

            def claims_cpu(self, mcpu):
                raise SystemExit(5)

            def cpu_names(self):
                return []

            def parse(self, request, arch):
                return Derived()

        @hookimpl
        def tcfg_register_cpu_parsers(register):
            register(ExitingParser())
    """
    registry = install(Fake("exiting", exiting, ("arch.loongarch64",)), manifests=manifests)
    with pytest.raises(tcfg.PluginError, match=r"the CPU parser 'exiting' \(.*claims_cpu\) failed: SystemExit: 5"):
        tcfg.Target("llvm -mcpu=some-cpu", registry=registry)
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).kind.name == "llvm"


@lazy_and_eager
def test_a_raising_library_rule_is_blamed_on_the_library(install: Install, manifests: bool) -> None:
    libs = """
        from tcfg.plugin import Library, hookimpl

        def rule(request):
            raise RuntimeError("rule bug")

        @hookimpl
        def tcfg_register_libraries(register):
            register(Library("buggy", ("llvm",), rule=rule))
            register(Library("fine", ("llvm",)))
    """
    registry = install(Fake("libs", libs, ("library.buggy", "library.fine")), manifests=manifests)
    with pytest.raises(tcfg.PluginError, match=r"the rule of library 'buggy' \(.*\) failed: RuntimeError: rule bug"):
        tcfg.Target("llvm -mtriple=x86_64-linux-gnu -libs=buggy", registry=registry)
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu -libs=fine", registry=registry).attrs["libs"] == ("fine",)


def test_a_feature_alias_clash_names_the_owner_and_the_fix(install: Install) -> None:
    """Features are in no manifest's space, so these plugins load on the first query either way
    (a clash over an alias with a lazily loaded plugin: the ranked test below)."""
    first = """
        from tcfg.plugin import Feature, hookimpl

        @hookimpl
        def tcfg_register_features(register):
            register(Feature("fast_math_unit", "one plugin's feature", aliases=("has_fmu",)))
    """
    second = """
        from tcfg.plugin import Feature, hookimpl

        @hookimpl
        def tcfg_register_features(register):
            register(Feature("other_unit", "another plugin's feature", aliases=("has_fmu",)))
    """
    registry = install(Fake("first", first), Fake("second", second))
    with pytest.warns(
        tcfg.PluginWarning, match=r"'has_fmu'.*already an alias of 'fast_math_unit' \(declared by first\)"
    ):
        registry.list_kinds()
    assert _record(registry, "first").status == "loaded"
    assert _record(registry, "second").status == "failed"


@lazy_and_eager
def test_a_derive_hook_refusing_other_plugins_targets_fails_alone_and_its_tags_still_load(
    install: Install, manifests: bool
) -> None:
    """Cases 2 and 10: the refusing hook's plugin is named once; targets and its own tags still build."""
    refuser = """
        from tcfg.plugin import TargetError, hookimpl

        @hookimpl
        def tcfg_derive_target(request):
            raise TargetError("I refuse every target")

        @hookimpl
        def tcfg_register_tags(register):
            register("refuser/box", {"kind": "llvm", "mtriple": "x86_64-linux-gnu"})
    """
    registry = install(Fake("refuser", refuser, ("derive.c", "derive.llvm", "tag.refuser")), manifests=manifests)
    with pytest.warns(tcfg.PluginWarning, match="'refuser'.*refused the target") as caught:
        target = tcfg.Target("c -mcpu=generic", registry=registry)
        tcfg.Target("llvm -mcpu=generic", registry=registry)
    assert len(caught) == 1 and target.kind.name == "c"
    assert tcfg.Target("refuser/box", registry=registry).tag == "refuser/box"  # its tags load after the failure
    assert _record(registry, "refuser").status == "failed"


@lazy_and_eager
def test_a_plugin_answering_codegen_for_every_kind_does_not_take_over_owned_kinds(
    install: Install, manifests: bool
) -> None:
    """Case 8: the owners of what a target names are asked first, then the others in pluggy's order.

    'zz-greedy' registers nothing a manifest could declare, so it loads on the first query either way.
    """
    greedy = Fake(
        "zz-greedy",
        """
        from tcfg.plugin import hookimpl

        @hookimpl
        def tcfg_codegen(target):
            raise AssertionError("asked before the owner")
        """,
    )
    registry = install(greedy, manifests=manifests)
    codegen = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).codegen()
    assert isinstance(codegen, LLVMCodegen) and codegen.triple == "x86_64-linux-gnu"  # the core's, which owns llvm
    assert _record(registry, "zz-greedy").status == "loaded"
    owner_less = install(_one_kind("kinds", "gadget"), greedy, manifests=manifests)
    with (
        pytest.warns(tcfg.PluginWarning, match="'zz-greedy'.*asked before the owner"),
        pytest.raises(tcfg.TargetError, match="no installed plugin generates code for kind 'gadget'"),
    ):
        tcfg.Target("gadget", registry=owner_less).codegen()


@lazy_and_eager
def test_while_a_failing_plugin_is_dropped_the_published_tables_stay_whole(
    install: Install, manifests: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Case 4: other threads read the tables without the lock, so they are rebuilt aside and put in place whole."""
    from tcfg._registry.tags import TagTable

    steady = _one_tag("steady", "steady/box", {"kind": "llvm", "mtriple": "x86_64-linux-gnu"})
    # Ranked after 'steady' (by name), which holds steady/box: this plugin is dropped, and the tables committed again.
    usurper = _one_tag("usurper", "steady/box", {"kind": "c"})
    registry = install(steady, usurper, manifests=manifests)
    seen: list[bool] = []
    commit = TagTable.commit

    def watching(table: TagTable, *args: Any) -> list[str]:
        live = registry._loader.tags
        if table is not live and "steady/box" in live.declared:  # a commit from scratch, aside
            seen.append(registry.find_tag("steady/box") is not None)
        return commit(table, *args)

    monkeypatch.setattr(TagTable, "commit", watching)
    with pytest.warns(tcfg.PluginWarning, match="'usurper'"):
        assert registry.list_tags() == ["steady/box"]
    assert seen and all(seen)
    assert tcfg.Target("steady/box", registry=registry).kind.name == "llvm"


def test_lazy_and_eager_loading_give_a_contested_name_to_the_first_plugin_by_rank(install: Install) -> None:
    """Case 6: a feature alias two manifests declare goes to the first by rank, whatever loads first.

    Both registries read the manifests: what differs is the query that loads each plugin.
    """
    first = """
        from tcfg.plugin import Feature, hookimpl

        @hookimpl
        def tcfg_register_features(register):
            register(Feature("first_unit", "the first plugin's feature", aliases=("has_unit",)))

        @hookimpl
        def tcfg_register_tags(register):
            register("first/box", {"kind": "llvm", "mtriple": "x86_64-linux-gnu"})
    """
    second = """
        from tcfg.plugin import Feature, TargetKind, hookimpl

        @hookimpl
        def tcfg_register_kinds(register):
            feature = Feature("second_unit", "its feature", aliases=("has_unit",))
            register(TargetKind("secondkind", "cpu", features=(feature,)))
    """
    ranked = (
        Fake("first", first, ("tag.first", "feature.first_unit", "feature.has_unit")),
        Fake("second", second, ("kind.secondkind", "feature.second_unit", "feature.has_unit")),
    )
    eager = install(*ranked)
    with pytest.warns(tcfg.PluginWarning, match="'second'"):
        eager.list_tags()
    lazy = install(*ranked)
    assert tcfg.Target("secondkind", registry=lazy).kind.name == "secondkind"  # loads 'second' alone
    with pytest.warns(tcfg.PluginWarning, match="'second'.*'first', ranked before it"):
        lazy.list_tags()  # loads 'first', which takes the alias back
    for registry in (eager, lazy):
        assert [(r.name, r.status) for r in registry.plugins()][1:] == [("first", "loaded"), ("second", "failed")]
        assert registry.features.aliases["has_unit"] == "first_unit"


# -- case 3: a kind's or a compiler's parser that exits the process ------------------------------

EXITER = Fake(
    "exiter",
    """
    import sys

    from tcfg.plugin import TargetKind, hookimpl

    def parse(request):
        sys.exit(5)

    @hookimpl
    def tcfg_register_kinds(register):
        register(TargetKind("exitkind", "cpu", parser=parse))
    """,
    ("kind.exitkind",),
)


@lazy_and_eager
def test_a_kind_parser_that_exits_is_blamed_on_its_plugin_and_the_process_goes_on(
    install: Install, manifests: bool
) -> None:
    registry = install(EXITER, manifests=manifests)
    exited = r"target 'exitkind': the parser of plugin 'exiter' failed: SystemExit: 5"
    with pytest.raises(tcfg.PluginError, match=exited):
        tcfg.Target("exitkind", registry=registry)
    with pytest.raises(tcfg.PluginError, match="'exiter' failed: SystemExit"):
        tcfg.Target({"kind": "exitkind"}, registry=registry)
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).kind.name == "llvm"


@lazy_and_eager
def test_a_compiler_parser_that_exits_is_blamed_on_the_compiler(install: Install, manifests: bool) -> None:
    exiter = """
        import sys

        from tcfg.plugin import Compiler, hookimpl

        def parse(request):
            sys.exit(5)

        @hookimpl
        def tcfg_register_compilers(register):
            register(Compiler("exitcc", ("llvm",), parser=parse))
    """
    registry = install(Fake("exiter", exiter, ("compiler.exitcc",)), manifests=manifests)
    spec = "llvm -mtriple=x86_64-linux-gnu -compiler=exitcc"
    exited = rf"target '{spec}': the parser of compiler 'exitcc' \(kind 'llvm'\) failed: SystemExit: 5"
    with pytest.raises(tcfg.PluginError, match=exited):
        tcfg.Target(spec, registry=registry)
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).kind.name == "llvm"


@lazy_and_eager
def test_a_parser_interrupted_by_the_user_is_not_blamed(install: Install, manifests: bool) -> None:
    stopper = """
        from tcfg.plugin import Compiler, TargetKind, hookimpl

        def parse(request):
            raise KeyboardInterrupt

        @hookimpl
        def tcfg_register_kinds(register):
            register(TargetKind("stopkind", "cpu", parser=parse))

        @hookimpl
        def tcfg_register_compilers(register):
            register(Compiler("stopcc", ("llvm",), parser=parse))
    """
    registry = install(Fake("stopper", stopper, ("kind.stopkind", "compiler.stopcc")), manifests=manifests)
    with pytest.raises(KeyboardInterrupt):
        tcfg.Target("stopkind", registry=registry)
    with pytest.raises(KeyboardInterrupt):
        tcfg.Target("llvm -compiler=stopcc", registry=registry)


def test_an_installed_plugin_whose_parser_exits_gets_an_error_from_the_cli_not_a_silent_exit(tmp_path: Path) -> None:
    _write(tmp_path, [EXITER], manifests=True)
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


def _typer(attrs: str, parser: str = "None") -> Fake:
    """Plugin 'typer', registering kind 'typed' with ``attrs`` and ``parser`` (Python source text,
    which may use the types and the parser maker of ``fixtures/hostile_plugins/attr_types.py``)."""
    source = f"""
        from tcfg.plugin import Attr, String, TargetKind, hookimpl

        from .attr_types import Broken, Listing, setting

        @hookimpl
        def tcfg_register_kinds(register):
            register(TargetKind("typed", "cpu", attrs=({attrs},), parser={parser}))
    """
    return Fake("typer", source, ("kind.typed",), (ATTR_TYPES,))


_BLAME = r"attr_types\.Broken\.{method} of attribute 'odd' of kind 'typed' \(plugin 'typer'\) failed: {error}"


@lazy_and_eager
@pytest.mark.parametrize(("error", "shown"), [("KeyError('k')", "KeyError: 'k'"), ("SystemExit(3)", "SystemExit: 3")])
def test_an_attribute_type_that_raises_reading_is_blamed_by_name(
    install: Install, manifests: bool, error: str, shown: str
) -> None:
    attrs = f"Attr('odd', Broken('from_text', {error})), Attr('even', Broken('check', {error}))"
    registry = install(_typer(attrs), manifests=manifests)
    for spec in ("typed -odd=1", "typed -odd='1'"):  # the text shortcut and the full reader
        blamed = f"target {re.escape(repr(spec))}: [\\w.]*" + _BLAME.format(method="from_text", error=shown)
        with pytest.raises(tcfg.PluginError, match=blamed):
            tcfg.Target(spec, registry=registry)
    checked = r"attr_types\.Broken\.check of attribute 'even' of kind 'typed' \(plugin 'typer'\)"
    with pytest.raises(tcfg.PluginError, match=checked):
        tcfg.Target({"kind": "typed", "even": "1"}, registry=registry)
    with pytest.raises(tcfg.PluginError, match=r"Broken\.check of attribute 'even'"):
        tcfg.Target('{"kind": "typed", "even": "1"}', registry=registry)
    assert str(tcfg.Target({"kind": "typed", "odd": "1"}, registry=registry)) == "typed -odd=1"
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry).kind.name == "llvm"


@lazy_and_eager
def test_an_attribute_type_that_raises_printing_is_blamed_by_name(install: Install, manifests: bool) -> None:
    attrs = "Attr('odd', Broken('to_text', TypeError('no text'))), Attr('even', Broken('to_json', KeyError('j')))"
    registry = install(_typer(attrs), manifests=manifests)
    target = tcfg.Target("typed -odd=1", registry=registry)
    with pytest.raises(tcfg.PluginError, match=_BLAME.format(method="to_text", error="TypeError: no text")):
        str(target)
    with pytest.raises(tcfg.PluginError, match=r"Broken\.to_json of attribute 'even' of kind 'typed'.*KeyError: 'j'"):
        tcfg.Target("typed -even=2", registry=registry).export()
    assert hash(target) == hash(tcfg.Target({"kind": "typed", "odd": "1"}, registry=registry))
    measured = install(_typer("Attr('odd', Broken('to_text', TypeError('no text'), bound=None))"), manifests=manifests)
    with pytest.raises(tcfg.PluginError, match=_BLAME.format(method="to_text", error="TypeError: no text")):
        tcfg.Target("typed -odd=1", registry=measured)  # its text is measured as it is built


@lazy_and_eager
def test_an_attribute_type_check_that_raises_on_a_parsers_value_is_blamed_by_name(
    install: Install, manifests: bool
) -> None:
    typer = _typer("Attr('odd', Broken('check', KeyError('p')))", parser="setting('odd', 'set')")
    registry = install(typer, manifests=manifests)
    with pytest.raises(tcfg.PluginError, match=_BLAME.format(method="check", error="KeyError: 'p'")):
        tcfg.Target("typed", registry=registry)


@lazy_and_eager
def test_an_attribute_type_that_raises_keyboard_interrupt_is_not_blamed(install: Install, manifests: bool) -> None:
    registry = install(_typer("Attr('odd', Broken('check', KeyboardInterrupt()))"), manifests=manifests)
    with pytest.raises(KeyboardInterrupt):
        tcfg.Target({"kind": "typed", "odd": "1"}, registry=registry)


@lazy_and_eager
def test_an_unhashable_attribute_value_is_refused_when_the_target_is_built(install: Install, manifests: bool) -> None:
    registry = install(_typer("Attr('items', Listing()), Attr('plain', String())"), manifests=manifests)
    refused = (
        r"attr_types\.Listing of attribute 'items' of kind 'typed' \(plugin 'typer'\) "
        r"gave the unhashable value \['a', 'b'\]"
    )
    for spec in ("typed -items=a,b", "typed -items='a,b'", {"kind": "typed", "items": ["a", "b"]}):
        with pytest.raises(tcfg.PluginError, match=refused):
            tcfg.Target(spec, registry=registry)
    assert hash(tcfg.Target("typed -plain=x", registry=registry))  # other attributes of the kind build


@lazy_and_eager
def test_an_unhashable_value_a_parser_sets_is_refused(install: Install, manifests: bool) -> None:
    registry = install(_typer("Attr('items', Listing())", parser="setting('items', ['set'])"), manifests=manifests)
    refused = r"Listing of attribute 'items' of kind 'typed'.*unhashable value \['set'\]"
    with pytest.raises(tcfg.PluginError, match=refused):
        tcfg.Target("typed", registry=registry)


@lazy_and_eager
def test_a_runs_on_hook_that_raises_or_answers_junk_fails_its_plugin_alone(install: Install, manifests: bool) -> None:
    """Case 12: ``tcfg_runs_on`` fails its plugin alone, like the other per-target hooks; the owner answers."""
    crasher = Fake(
        "crasher",
        """
        from tcfg.plugin import TargetKind, hookimpl

        @hookimpl
        def tcfg_register_kinds(register):
            register(TargetKind("gizmo", "cpu"))

        @hookimpl
        def tcfg_runs_on(code, machine):
            if code.kind.name == "gizmo":
                return "yes"
            raise RuntimeError("runs_on broke")
        """,
        ("kind.gizmo",),
    )
    registry = install(crasher, manifests=manifests)
    gizmo = tcfg.Target("gizmo", registry=registry)
    with (
        pytest.warns(tcfg.PluginWarning, match="'crasher'.*tcfg_runs_on returned 'yes', not a bool or None"),
        pytest.raises(tcfg.TargetError, match="none answers runs_on for kind 'gizmo'"),
    ):
        gizmo.runs_on(gizmo)
    assert _record(registry, "crasher").status == "failed"
    composite = tcfg.Target({"kind": "composite", "devices": ["llvm -mtriple=x86_64-linux-gnu"]}, registry=registry)
    with pytest.raises(tcfg.TargetError, match="none answers runs_on for kind 'llvm'"):
        composite.runs_on(composite)  # the core answers for the composite, and asks about its device


@lazy_and_eager
def test_a_plugin_answering_runs_on_for_every_kind_does_not_take_over_owned_kinds(
    install: Install, manifests: bool
) -> None:
    """Case 13: the owner of a target's kind answers runs_on before a plugin that answers for every kind."""
    greedy = Fake(
        "zz-greedy",
        """
        from tcfg.plugin import hookimpl

        @hookimpl
        def tcfg_runs_on(code, machine):
            if code.kind.name == "composite":
                raise AssertionError("asked before the owner")
            return True
        """,
    )
    registry = install(greedy, manifests=manifests)
    one = tcfg.Target({"kind": "composite", "devices": ["llvm -mtriple=x86_64-linux-gnu"]}, registry=registry)
    two = tcfg.Target({"kind": "composite", "devices": ["c -mtriple=x86_64-linux-gnu"]}, registry=registry)
    assert one.runs_on(two)  # the core's composite rule, then zz-greedy's answer for the llvm device (no owner answers)
    assert not one.runs_on(tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry))  # device types differ
    assert _record(registry, "zz-greedy").status == "loaded"
