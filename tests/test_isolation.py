"""A misbehaving plugin fails alone: named once, the other plugins' answers unchanged (issue 25, item 6)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tcfg
from tcfg.plugin import (
    Compiler,
    CpuParser,
    Derived,
    DeriveRequest,
    Feature,
    Library,
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
    assert (other.returncode, other.stderr) == (0, "")
