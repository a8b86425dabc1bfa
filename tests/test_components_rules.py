"""Registered -libs libraries and the rules of libraries and components, with in-process plugins only."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import tcfg
from tcfg.plugin import Attr, Choice, Compiler, Component, DeriveRequest, Library, TagRegistrar, TargetKind, hookimpl


def _needs_gen(minimum: int) -> Callable[[DeriveRequest], str | None]:
    def rule(request: DeriveRequest) -> str | None:
        gen = request.attrs.get("gen")
        return None if gen is not None and int(gen) >= minimum else f"needs gen {minimum} or newer (-gen={gen})"

    return rule


class NpuPlugin:
    """A kind whose plugin registers libraries (two registrations of one name) and a runtime with a rule."""

    tcfg_plugin_name = "npu"

    @hookimpl
    def tcfg_register_kinds(self, register: Callable[[TargetKind], None]) -> None:
        register(TargetKind("npu", "npu", attrs=(Attr("gen", Choice(("1", "2", "3"))),), default_keys=("npu",)))

    @hookimpl
    def tcfg_register_libraries(self, register: Callable[[object], None]) -> None:
        register(Library("npublas", ("npu",), "BLAS", where="every NPU"))
        register(Library("npudnn", ("npu",), "DNN", rule=_needs_gen(3), where="gen 3 NPUs"))
        register(Library("npudnn", ("npu",), "DNN, older build", rule=_needs_gen(2), where="gen 2 NPUs"))

    @hookimpl
    def tcfg_register_runtimes(self, register: Callable[[Component], None]) -> None:
        def needs_npu(request: DeriveRequest) -> str | None:
            if any(d.kind.name == "npu" for d in request.attrs["devices"]):
                return None
            return "it drives NPUs, and the composite has none"

        register(Component("npu-rt", doc="NPU runtime.", rule=needs_npu))


class LateLibrary:
    """A plugin registering a library for a kind nobody provides: the whole plugin fails."""

    tcfg_plugin_name = "late"

    @hookimpl
    def tcfg_register_compilers(self, register: Callable[[object], None]) -> None:
        register(Compiler("fine", ("c",)))

    @hookimpl
    def tcfg_register_libraries(self, register: Callable[[object], None]) -> None:
        register(Library("ghostlib", ("ghost",)))


@pytest.fixture
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[NpuPlugin()], autoload=False)


def test_libs_are_checked_against_registered_libraries(reg: tcfg.Registry) -> None:
    t = tcfg.Target("npu -gen=3 -libs=npublas,npudnn", registry=reg)
    assert t.attrs["libs"] == ("npublas", "npudnn")
    for form in (str(t), t.export(), t.to_json()):
        assert tcfg.Target(form, registry=reg) == t
    assert tcfg.Target("npu -gen=2 -libs=npudnn", registry=reg).attrs["libs"] == ("npudnn",)  # the second one


def test_an_unknown_library_gets_did_you_mean_and_the_valid_list(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.AttributeValueError) as info:
        tcfg.Target({"kind": "npu", "gen": "1", "libs": ["npudn"]}, registry=reg)
    message = str(info.value)
    assert "'npudn'" in message and "did you mean 'npudnn'" in message and "valid for this target: npublas" in message


def test_a_library_every_registration_refuses_says_why(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.AttributeValueError) as info:
        tcfg.Target("npu -gen=1 -libs=npudnn", registry=reg)
    message = str(info.value)
    assert "npu -gen=1 -libs=npudnn" in message
    assert "needs gen 3 or newer (-gen=1) (valid on gen 3 NPUs)" in message
    assert "needs gen 2 or newer (-gen=1) (valid on gen 2 NPUs)" in message


def test_kinds_without_registered_libraries_take_any_name(reg: tcfg.Registry) -> None:
    assert tcfg.Target("c -libs=anything", registry=reg).attrs["libs"] == ("anything",)
    assert not reg.libraries("c") and [lib.name for lib in reg.libraries("npu")] == ["npublas", "npudnn", "npudnn"]


def test_tags_with_bad_libs_fail_their_plugin(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match="npudnn"):
        reg.register_tag("bad/npu", "npu -gen=1 -libs=npudnn")
    assert "bad/npu" not in reg.list_tags()


def test_a_component_rule_refuses_the_composite(reg: tcfg.Registry) -> None:
    ok = tcfg.Target({"kind": "composite", "devices": ["npu -gen=2"], "runtime": "npu-rt"}, registry=reg)
    assert ok.attrs["runtime"].name == "npu-rt"
    with pytest.raises(tcfg.AttributeValueError, match="-runtime=npu-rt: it drives NPUs, and the composite has none"):
        tcfg.Target("composite -devices=c -runtime=npu-rt", registry=reg)
    with pytest.raises(tcfg.TargetError, match="drives NPUs"):
        tcfg.CompilationConfig(["c"], runtime="npu-rt", registry=reg)


def test_a_library_for_a_missing_kind_fails_the_whole_plugin() -> None:
    reg = tcfg.Registry(plugins=[LateLibrary()], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match="library 'ghostlib' for the kind 'ghost'"):
        reg.list_kinds()
    assert "fine" not in reg.compilers("c") and not reg.libraries("ghost")
    record = next(r for r in reg.plugins() if r.name == "late")
    assert record.status == "failed" and record.registered == {}


def test_tvm_executors_and_runtimes_have_tvms_options(reg: tcfg.Registry) -> None:
    executors, runtimes = reg.components("executor"), reg.components("runtime")
    assert set(executors["graph"].table) == {"link-params"}
    assert set(executors["aot"].table) == {
        "interface-api",
        "unpacked-api",
        "link-params",
        "workspace-byte-alignment",
        "constant-byte-alignment",
    }
    assert set(executors["vm"].table) == set()
    assert set(runtimes["crt"].table) == {"system-lib"} and "cpp" in runtimes


def test_a_tag_may_name_a_library_of_a_plugin_that_loads_after_it() -> None:
    """Every plugin's compilers and libraries are registered before any tag is checked."""

    class Board:
        tcfg_plugin_name = "aaa-board"

        @hookimpl
        def tcfg_register_tags(self, register: TagRegistrar) -> None:
            register("aaa/board", "llvm -mtriple=x86_64-linux-gnu -libs=zlib")

    class Zlib:
        tcfg_plugin_name = "zzz-zlib"

        @hookimpl
        def tcfg_register_libraries(self, register: Callable[[object], None]) -> None:
            register(Library("zlib", ("llvm",), "zlib"))

    reg = tcfg.Registry(plugins=[Board(), Zlib()], autoload=False, strict=True)
    assert tcfg.Target("aaa/board", registry=reg).attrs["libs"] == ("zlib",)
    assert {r.name: r.registered.get("libraries") for r in reg.plugins()}["zzz-zlib"] == ["llvm:zlib"]
