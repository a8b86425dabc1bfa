"""The registry: lazy loading, all-or-nothing registration, conflicts, strict mode, tags."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import pytest

import tcfg
from tcfg.plugin import Attr, Compiler, Feature, Integer, TargetKind, hookimpl
from tests.fake_plugins import AccelPlugin, LabelPlugin, ToyCpuPlugin, plugin_with


def records(reg: tcfg.Registry) -> dict[str, tcfg.PluginRecord]:
    return {r.name: r for r in reg.plugins()}


def load_quietly(reg: tcfg.Registry) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reg.list_kinds()
    return [str(w.message) for w in caught if issubclass(w.category, tcfg.PluginWarning)]


def test_import_tcfg_loads_nothing() -> None:
    code = (
        "import sys, tcfg\n"
        "heavy = {'pluggy', 'marshmallow', 'importlib.metadata', 'llvmlite',\n"
        "         'tcfg._registry.registry', 'tcfg._model.target'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_registry_loads_on_first_query_only() -> None:
    reg = tcfg.Registry(plugins=[AccelPlugin()], autoload=False)
    assert reg._loader.loaded is False
    assert reg.list_kinds() == ["accel", "c", "composite", "llvm"]
    assert reg._loader.loaded is True


def test_plugin_records_list_what_each_registered() -> None:
    reg = tcfg.Registry(plugins=[AccelPlugin(), ToyCpuPlugin(), LabelPlugin()], autoload=False)
    rec = records(reg)
    assert rec["accel"].to_dict() == {
        "name": "accel",
        "distribution": None,
        "version": None,
        "status": "loaded",
        "error": None,
        "registered": {
            "kinds": ["accel"],
            "compilers": ["accel:turbo"],
            "tags": ["acme/a2", "acme/a2,board-1.0"],
            "features": ["int8_dot", "turbo_ready", "vector_lanes"],
        },
    }
    assert rec["toy"].registered["cpu_parsers"] == ["toy"]
    assert reg.compilers("accel") == {"turbo": reg.compilers()["accel:turbo"]}


def test_plugin_that_raises_while_registering_is_dropped_whole() -> None:
    def kinds(register: Any) -> None:
        register(TargetKind("half", "cpu"))
        raise RuntimeError("boom")

    bad = plugin_with("bad", tcfg_register_kinds=kinds)
    reg = tcfg.Registry(plugins=[bad, AccelPlugin()], autoload=False)
    messages = load_quietly(reg)
    assert "half" not in reg.list_kinds() and "accel" in reg.list_kinds()
    assert records(reg)["bad"].status == "failed"
    assert "RuntimeError: boom" in (records(reg)["bad"].error or "")
    assert any("'bad'" in m and "boom" in m for m in messages)


def test_invalid_registrations_fail_the_plugin() -> None:
    cases = {
        "notkind": plugin_with("notkind", tcfg_register_kinds=lambda register: register("llvm2")),
        "badfeat": plugin_with(
            "badfeat",
            tcfg_register_features=lambda register: register(Feature("Bad-Name")),
        ),
        "tagname": plugin_with("tagname", tcfg_register_tags=lambda register: register("has space", {"kind": "llvm"})),
        "nokind": plugin_with(
            "nokind",
            tcfg_register_compilers=lambda register: register(Compiler("x", kinds=("nope",))),
        ),
    }
    for name, plugin in cases.items():
        reg = tcfg.Registry(plugins=[plugin], autoload=False)
        load_quietly(reg)
        assert records(reg)[name].status == "failed", name
        assert reg.list_tags() == [] and reg.list_kinds() == ["c", "composite", "llvm"], name


def test_a_plugin_tag_that_does_not_build_fails_at_lookup_naming_the_plugin() -> None:
    """Tags are built on first lookup: the plugin loads, its bad tag is its error, its good tag works."""
    plugin = plugin_with(
        "badtag",
        tcfg_register_tags=lambda register: [
            register("b/t", {"kind": "llvm", "num-cores": 0}),
            register("b/ok", {"kind": "llvm"}),
        ],
    )
    reg = tcfg.Registry(plugins=[plugin], autoload=False)
    assert reg.list_tags() == ["b/ok", "b/t"] and records(reg)["badtag"].status == "loaded"
    with pytest.raises(tcfg.PluginError, match=r"tag 'b/t' of plugin 'badtag' does not build: .*num-cores"):
        tcfg.Target("b/t", registry=reg)
    assert tcfg.Target("b/ok", registry=reg).tag == "b/ok"


def test_two_plugins_claiming_one_name_name_both_and_the_first_wins() -> None:
    first = plugin_with("first", tcfg_register_kinds=lambda register: register(TargetKind("dup", "cpu")))
    second = plugin_with(
        "second",
        tcfg_register_kinds=lambda register: register(TargetKind("dup", "gpu")),
        tcfg_register_tags=lambda register: register("second/tag", {"kind": "llvm"}),
    )
    reg = tcfg.Registry(plugins=[first, second], autoload=False)
    messages = load_quietly(reg)
    assert reg.get_kind("dup").device_type == "cpu"
    assert "second/tag" not in reg.list_tags()
    error = records(reg)["second"].error or ""
    assert "'second'" in error and "'first'" in error and "'dup'" in error
    assert messages


def test_tag_conflicts_and_cpu_arch_conflicts() -> None:
    a = plugin_with("a", tcfg_register_tags=lambda register: register("t/1", {"kind": "llvm"}))
    b = plugin_with("b", tcfg_register_tags=lambda register: register("t/1", {"kind": "c"}))
    reg = tcfg.Registry(plugins=[a, b], autoload=False)
    load_quietly(reg)
    assert reg.get_tag("t/1")["kind"] == "llvm" and records(reg)["b"].status == "failed"
    reg2 = tcfg.Registry(plugins=[ToyCpuPlugin(), ToyCpuPlugin()], autoload=False)
    load_quietly(reg2)
    assert [r.status for r in reg2.plugins()] == ["loaded", "loaded", "failed"]


def test_a_tag_on_a_failed_plugins_kind_fails_at_lookup_naming_its_own_plugin() -> None:
    kinds = plugin_with(
        "kinds",
        tcfg_register_kinds=lambda register: register(TargetKind("widget", "cpu")),
        tcfg_register_compilers=lambda register: register(Compiler("gizmo", kinds=("nowhere",))),
    )
    user = plugin_with("user", tcfg_register_tags=lambda register: register("w/1", {"kind": "widget"}))
    reg = tcfg.Registry(plugins=[kinds, user], autoload=False)
    load_quietly(reg)
    assert "widget" not in reg.list_kinds()
    assert records(reg)["kinds"].status == "failed" and records(reg)["user"].status == "loaded"
    with pytest.raises(tcfg.PluginError, match=r"tag 'w/1' of plugin 'user' does not build: .*'widget'"):
        tcfg.Target("w/1", registry=reg)


def test_strict_mode_raises_and_leaves_nothing_loaded() -> None:
    bad = plugin_with("bad", tcfg_register_kinds=lambda register: register("nonsense"))
    reg = tcfg.Registry(plugins=[bad], autoload=False, strict=True)
    with pytest.raises(tcfg.PluginError, match="'bad'"):
        reg.list_kinds()
    assert reg._loader.loaded is False and reg.kinds == {}
    env_strict = tcfg.Registry(plugins=[bad], autoload=False, environ={"TCFG_STRICT_PLUGINS": "1"})
    with pytest.raises(tcfg.PluginError):
        env_strict.list_tags()


def test_register_tag_validates_before_storing(core: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match="num-cores"):
        core.register_tag("bad/one", {"kind": "llvm", "num-cores": "4"})
    with pytest.raises(tcfg.TargetError, match="must be non-empty"):
        core.register_tag("", {"kind": "llvm"})
    with pytest.raises(tcfg.TargetError, match="already a kind"):
        core.register_tag("llvm", {"kind": "llvm"})
    assert core.list_tags() == []
    core.register_tag("good/one", "llvm -mtriple=x86_64-linux-gnu -num-cores=4")
    assert core.list_tags() == ["good/one"] and core.list_tags("good/") == ["good/one"]
    with pytest.raises(tcfg.TargetError, match="already registered"):
        core.register_tag("good/one", {"kind": "llvm"})
    assert core.get_tag("good/one")["num-cores"] == 4
    core.register_tag("good/one", "llvm -mtriple=x86_64-linux-gnu -num-cores=8", override=True)
    assert tcfg.Target("good/one", registry=core).attrs["num-cores"] == 8
    with pytest.raises(tcfg.UnknownTagError, match="did you mean 'good/one'"):
        core.get_tag("good/onw")


def test_get_tag_returns_a_copy(core: tcfg.Registry) -> None:
    core.register_tag("t/libs", {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "libs": ["a"]})
    core.get_tag("t/libs")["libs"].append("b")
    assert core.get_tag("t/libs")["libs"] == ["a"]


def test_get_kind_suggests_close_names(core: tcfg.Registry) -> None:
    with pytest.raises(tcfg.UnknownKindError, match="did you mean 'llvm'"):
        core.get_kind("lvm")


def test_derive_target_hook_adds_features_and_keys() -> None:
    reg = tcfg.Registry(plugins=[LabelPlugin()], autoload=False)
    t = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -model=m1", registry=reg)
    assert t.features.labelled is True and t.features.has_label is True
    assert t.keys == ("labelled", "cpu")
    plain = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=reg)
    assert plain.features.labelled is False


def test_parser_bugs_become_plugin_errors() -> None:
    def broken(request: Any) -> Any:
        raise KeyError("oops")

    kind = TargetKind("broken", "cpu", attrs=(Attr("n", Integer()),), parser=broken)
    reg = tcfg.Registry(plugins=[plugin_with("b", tcfg_register_kinds=lambda register: register(kind))], autoload=False)
    with pytest.raises(tcfg.PluginError, match="plugin 'b' failed: KeyError"):
        tcfg.Target("broken -n=1", registry=reg)


def test_undeclared_derived_features_are_refused() -> None:
    from tcfg.plugin import Derived

    kind = TargetKind("sly", "cpu", parser=lambda request: Derived(features={"secret": True}))
    reg = tcfg.Registry(plugins=[plugin_with("s", tcfg_register_kinds=lambda register: register(kind))], autoload=False)
    with pytest.raises(tcfg.PluginError, match="undeclared features"):
        tcfg.Target("sly", registry=reg)


def test_codegen_without_a_willing_plugin_says_so() -> None:
    reg = tcfg.Registry(plugins=[AccelPlugin()], autoload=False)
    with pytest.raises(tcfg.TargetError, match="no installed plugin generates code for kind 'accel'"):
        tcfg.Target("accel -gen=1", registry=reg).codegen()


def test_module_level_functions_use_the_default_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    from tcfg._registry import registry as registry_module

    monkeypatch.setattr(registry_module, "_default", tcfg.Registry(plugins=[AccelPlugin()], autoload=False))
    assert "accel" in tcfg.list_kinds()
    assert tcfg.get_kind("accel").device_type == "accel"
    assert tcfg.list_tags("acme/") == ["acme/a2", "acme/a2,board-1.0"]
    assert tcfg.get_tag("acme/a2") == {"kind": "accel", "gen": 2, "lanes": 16, "tag": "acme/a2"}
    tcfg.register_tag("mine/a3", {"tag": "acme/a2", "gen": 3})
    assert tcfg.Target("mine/a3").attrs["lanes"] == 16
    assert [r.name for r in tcfg.plugins()] == ["core", "accel"]


def test_building_from_a_kind_registers_no_tag() -> None:
    """Tags are registered on the first query that needs one, not when a kind's target is built."""
    calls: list[str] = []

    class Tagging:
        tcfg_plugin_name = "tagging"

        @hookimpl
        def tcfg_register_tags(self, register: Any) -> None:
            calls.append("tags")
            register("tagging/board", "llvm -mtriple=aarch64-linux-gnu")

    registry = tcfg.Registry(plugins=[Tagging()], autoload=False)
    tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=registry)
    tcfg.Target({"kind": "c"}, registry=registry)
    assert calls == []
    assert tcfg.Target("tagging/board", registry=registry).tag == "tagging/board"
    assert calls == ["tags"]
    assert registry.list_tags("tagging/") == ["tagging/board"]
    assert calls == ["tags"]


def test_a_cpu_parser_whose_features_raise_fails_only_its_plugin() -> None:
    """A parser computes its declared features at load (from its tables); if that raises, its plugin fails."""
    from tcfg.plugin import CpuParser

    class Broken(CpuParser):
        name = "broken"
        arches = ("mips",)
        claims_cpu = cpu_names = parse = None  # type: ignore[assignment]

        @property
        def features(self) -> Any:  # type: ignore[override]
            raise KeyError("extensions")

    class BrokenPlugin:
        tcfg_plugin_name = "broken"

        @hookimpl
        def tcfg_register_cpu_parsers(self, register: Any) -> None:
            register(Broken())

    with pytest.warns(tcfg.PluginWarning, match=r"'broken'.*CpuParser.features raised KeyError: 'extensions'"):
        reg = tcfg.Registry(plugins=[BrokenPlugin(), ToyCpuPlugin()], autoload=False)
        assert "toy" in [r.name for r in reg.plugins() if r.status == "loaded"]
    assert [r.status for r in reg.plugins() if r.name == "broken"] == ["failed"]
    assert tcfg.Target("llvm -mtriple=mips-linux-gnu", registry=reg).keys == ("cpu",)
    assert tcfg.Target("llvm -mtriple=riscv64", registry=reg).keys == ("toy_cpu", "cpu")


def _status(reg: tcfg.Registry, name: str) -> tuple[str, str | None]:
    record = next(r for r in reg.plugins() if r.name == name)
    return record.status, record.error


def test_a_raising_derive_hook_fails_only_its_plugin() -> None:
    def explode(request: Any) -> Any:
        raise RuntimeError("boom")

    bad = plugin_with("bad", tcfg_derive_target=explode)
    reg = tcfg.Registry(plugins=[LabelPlugin(), bad], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match=r"plugin 'bad' \(in-process\) failed: tcfg_derive_target raised"):
        t = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -model=m1", registry=reg)
    assert t.features.labelled is True  # the other plugin's hook still ran
    assert _status(reg, "bad") == (
        "failed",
        "tcfg_derive_target raised RuntimeError: boom; its per-target hooks are no longer called",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu -model=m2", registry=reg).features.labelled is True
    strict = tcfg.Registry(plugins=[bad], autoload=False, strict=True)
    with pytest.raises(tcfg.PluginError, match="tcfg_derive_target raised RuntimeError: boom"):
        tcfg.Target("llvm", registry=strict)


def test_hooks_returning_the_wrong_type_fail_their_plugin() -> None:
    junk = plugin_with("junk", tcfg_derive_target=lambda request: 42, tcfg_codegen=lambda target: "flags")
    reg = tcfg.Registry(plugins=[junk], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match="tcfg_derive_target returned 42, not a Derived or None"):
        target = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=reg)
    assert target.codegen().triple == "x86_64-linux-gnu"  # junk's hooks are off: the core's codegen answers
    coder = plugin_with(
        "coder",
        tcfg_register_kinds=lambda register: register(TargetKind("gizmo", "cpu")),
        tcfg_codegen=lambda target: "flags",
    )
    reg = tcfg.Registry(plugins=[coder], autoload=False)
    with (
        pytest.warns(tcfg.PluginWarning, match="tcfg_codegen returned 'flags', not a Codegen or None"),
        pytest.raises(tcfg.TargetError, match="no installed plugin generates code for kind 'gizmo'"),
    ):
        tcfg.Target("gizmo", registry=reg).codegen()


def test_a_raising_detect_hook_leaves_the_others() -> None:
    def crash() -> Any:
        raise SystemExit(3)

    reg = tcfg.Registry(
        plugins=[
            plugin_with("crash", tcfg_detect=crash),
            plugin_with("fine", tcfg_detect=lambda: ["c -mcpu=cortex-m4"]),
        ],
        autoload=False,
    )
    with pytest.warns(tcfg.PluginWarning, match="'crash'.*tcfg_detect raised SystemExit: 3"):
        assert [str(t) for t in reg.detect()] == ["c -mcpu=cortex-m4"]


def test_sys_exit_at_registration_fails_only_that_plugin() -> None:
    def leave(register: Any) -> None:
        raise SystemExit(3)

    with pytest.warns(tcfg.PluginWarning, match="'quitter'.*tcfg_register_kinds raised SystemExit: 3"):
        reg = tcfg.Registry(plugins=[plugin_with("quitter", tcfg_register_kinds=leave), ToyCpuPlugin()], autoload=False)
        assert _status(reg, "toy") == ("loaded", None)
    assert _status(reg, "quitter")[0] == "failed"


def test_package_json_reads_a_data_file_of_an_imported_package(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tcfg.plugin import package_json

    package = tmp_path / "tablepkg"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "data" / "t.json").write_text('{"a": [1, 2]}', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import tablepkg  # noqa: F401

    assert package_json("tablepkg", "data/t.json") == {"a": [1, 2]}
    with pytest.raises(FileNotFoundError):
        package_json("tablepkg", "data/missing.json")


def test_package_json_reads_a_data_file_of_a_package_in_a_zip_file(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import zipfile

    from tcfg.plugin import package_json

    archive = tmp_path / "tables.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zippedtables/__init__.py", "")
        zipped.writestr("zippedtables/data/t.json", '{"b": {"c": true}}')
    monkeypatch.syspath_prepend(str(archive))
    monkeypatch.delitem(sys.modules, "zippedtables", raising=False)

    assert package_json("zippedtables", "data/t.json") == {"b": {"c": True}}
    assert sys.modules["zippedtables"].__spec__.loader.__class__.__name__ == "zipimporter"
    with pytest.raises(FileNotFoundError):
        package_json("zippedtables", "data/missing.json")
