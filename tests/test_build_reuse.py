"""What the target builder reuses between targets, and that reuse never changes a result.

The builder remembers, per registry: the option words of target strings it has
converted, kind parses by the values of the attributes they read, the canonical order
of attribute-name sets, and the checked form of each parser result object. These
tests pin down when each may and may not answer.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import tcfg
from tcfg.plugin import Attr, Derived, Feature, Integer, String, TargetKind
from tests.fake_plugins import AccelPlugin, plugin_with


def registry_with(*kinds: TargetKind, features: tuple[Feature, ...] = ()) -> tcfg.Registry:
    def register_kinds(register: Any) -> None:
        for kind in kinds:
            register(kind)

    def register_features(register: Any) -> None:
        for feature in features:
            register(feature)

    plugin = plugin_with("p", tcfg_register_kinds=register_kinds, tcfg_register_features=register_features)
    return tcfg.Registry(plugins=[plugin], autoload=False)


def test_an_option_word_is_converted_per_kind() -> None:
    wide = TargetKind("wide", "cpu", attrs=(Attr("n", Integer()),))
    narrow = TargetKind("narrow", "cpu", attrs=(Attr("n", Integer(maximum=3)),))
    reg = registry_with(wide, narrow)
    assert tcfg.Target("wide -n=7", registry=reg).attrs["n"] == 7
    with pytest.raises(tcfg.AttributeValueError, match="-n expects an integer <= 3, got 7"):
        tcfg.Target("narrow -n=7 -model=a", registry=reg)
    assert tcfg.Target("wide -n=7 -model=a", registry=reg).attrs["n"] == 7


def test_a_remembered_word_repeated_is_still_an_error() -> None:
    reg = tcfg.Registry(plugins=[AccelPlugin()], autoload=False)
    tcfg.Target("accel -gen=2", registry=reg)
    with pytest.raises(tcfg.AttributeValueError, match="-gen is given twice"):
        tcfg.Target("accel -gen=2 -gen=2", registry=reg)
    with pytest.raises(tcfg.AttributeValueError, match="-gen is given twice"):
        tcfg.Target("accel -gen=2 -gen=3", registry=reg)


def test_target_valued_words_are_built_each_time() -> None:
    """A nested target is never taken from the word memo: its depth decides whether it is too deep."""
    reg = tcfg.Registry(plugins=[AccelPlugin()], autoload=False)
    first = tcfg.Target("accel -peer=accel -model=a", registry=reg)
    second = tcfg.Target("accel -peer=accel -model=b", registry=reg)
    assert first.attrs["peer"] == second.attrs["peer"]
    assert not any(word.startswith("-peer=") for word in reg.build_state.option_words["accel"])


def test_compiler_words_are_not_remembered() -> None:
    reg = tcfg.Registry(plugins=[AccelPlugin()], autoload=False)
    tcfg.Target("accel -gen=2 -compiler=turbo -turbo_level=2", registry=reg)
    words = set(reg.build_state.option_words["accel"])
    assert "-gen=2" in words
    assert not words & {"-compiler=turbo", "-turbo_level=2"}


def test_free_text_words_are_not_remembered() -> None:
    reg = tcfg.Registry(plugins=[AccelPlugin()], autoload=False)
    for label in ("a", "b"):
        assert tcfg.Target(f"accel -gen=2 -mode=fast -label={label}", registry=reg).attrs["label"] == label
    assert set(reg.build_state.option_words["accel"]) == {"-gen=2", "-mode=fast"}


def test_attribute_order_is_canonical_whatever_order_names_come_in() -> None:
    reg = tcfg.Registry(plugins=[AccelPlugin()], autoload=False)
    orders = {
        str(tcfg.Target(spec, registry=reg))
        for spec in (
            {"kind": "accel", "lanes": 4, "gen": 2, "label": "x"},
            {"kind": "accel", "label": "x", "gen": 2, "lanes": 4},
            "accel -label=x -lanes=4 -gen=2",
            "accel -gen=2 -label=x -lanes=4",
        )
    }
    assert orders == {"accel -gen=2 -lanes=4 -label=x"}


def test_a_memoised_parser_result_is_checked_once_and_reused() -> None:
    calls: list[str] = []
    result = Derived(keys=("fast", "fast"), features={"quick": True}, defaults={"n": 4})

    def parse(request: Any) -> Derived:
        calls.append(request.attrs.get("model", ""))
        return result

    kind = TargetKind("memo", "cpu", attrs=(Attr("n", Integer()),), parser=parse, features=(Feature("quick", "."),))
    reg = registry_with(kind)
    a = tcfg.Target({"kind": "memo", "model": "a"}, registry=reg)
    b = tcfg.Target({"kind": "memo", "model": "b", "n": 4}, registry=reg)
    assert calls == ["a", "b"]
    assert a.keys == b.keys == ("fast",)
    assert a.attrs["n"] == b.attrs["n"] == 4
    assert str(b) == "memo -model=b"  # a given value equal to an implied default is not configuration
    assert a.features.quick and b.features.quick


def test_a_parser_result_with_undeclared_features_fails_every_time() -> None:
    result = Derived(features={"secret": True})
    kind = TargetKind("sly", "cpu", parser=lambda request: result)
    reg = registry_with(kind)
    for _ in range(2):
        with pytest.raises(tcfg.PluginError, match=r"undeclared features \['secret'\]"):
            tcfg.Target("sly", registry=reg)


def test_a_parser_result_with_mistyped_defaults_fails_every_time() -> None:
    result = Derived(defaults={"n": "four"})
    kind = TargetKind("typo", "cpu", attrs=(Attr("n", Integer()),), parser=lambda request: result)
    reg = registry_with(kind)
    for _ in range(2):
        with pytest.raises(tcfg.PluginError, match="set 'n' to 'four', which expects an integer"):
            tcfg.Target("typo", registry=reg)


def test_a_parser_returning_something_else_is_a_plugin_error() -> None:
    kind = TargetKind("odd", "cpu", parser=lambda request: {"keys": ()})
    reg = registry_with(kind)
    with pytest.raises(tcfg.PluginError, match=re.escape("returned {'keys': ()}, not a Derived")):
        tcfg.Target("odd", registry=reg)


@pytest.mark.parametrize("name", ["two words", "", "-lead", "ünï", "a=b", "x,y"])
def test_attribute_names_must_be_writable_as_options(name: str) -> None:
    with pytest.raises(ValueError, match="must match"):
        TargetKind("k", "cpu", attrs=(Attr(name, String()),))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"kind": "llvm"} x', "Extra data at line 1 column 18"),
        ("{} {}", "Extra data at line 1 column 4"),
        ('{"kind":', "Expecting value at line 1 column 9"),
        ('{"kind": "llvm", "host": {"kind": "c", "kind": "c"}}', "the key 'kind' appears twice"),
        ('{"kind": "llvm", "model": "a:b", "model": "c"}', "the key 'model' appears twice"),
        ('{"kind": "llvm", "kind": "llvm"}', "the key 'kind' appears twice"),
        ('{"kind": "llvm", "model": NaN}', "NaN is not a valid value"),
        ('{"kind": "llvm", "libs": [-Infinity]}', "-Infinity is not a valid value"),
    ],
)
def test_json_text_errors_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(tcfg.TargetSyntaxError, match=message):
        tcfg.Target(text, registry=tcfg.Registry(autoload=False))


def test_targets_refuse_attribute_assignment() -> None:
    t = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=tcfg.Registry(autoload=False))
    for name in ("kind", "attrs", "config", "keys", "features", "host", "tag", "registry", "anything"):
        with pytest.raises(AttributeError):
            setattr(t, name, None)


def counting_kind(name: str, reads: tuple[str, ...]) -> tuple[TargetKind, list[dict[str, Any]]]:
    """A kind whose parser records each call and sets ``label`` to ``size`` upper-cased."""
    calls: list[dict[str, Any]] = []

    def parse(request: Any) -> Derived:
        calls.append(dict(request.attrs))
        size = request.attrs.get("size", "s")
        return Derived(attrs={**request.attrs, "label": size.upper()}, keys=(f"size_{size}",))

    attrs = (Attr("size", String()), Attr("label", String()))
    return TargetKind(name, "cpu", attrs=attrs, parser=parse, parse_reads=reads), calls


def test_parse_reads_runs_the_parser_once_per_combination() -> None:
    kind, calls = counting_kind("keyed", ("size",))
    reg = registry_with(kind)
    made = [tcfg.Target({"kind": "keyed", "size": size, "model": m}, registry=reg) for size in "sm" for m in "ab"]
    assert [c.get("model") for c in calls] == ["a", "a"]  # one call per size, the first model's
    assert [t.attrs["label"] for t in made] == ["S", "S", "M", "M"]
    assert [t.attrs["model"] for t in made] == ["a", "b", "a", "b"]
    assert str(made[3]) == "keyed -size=m -label=M -model=b"
    assert made[1].keys == ("size_s",)


def test_a_native_value_is_parsed_every_time() -> None:
    kind, calls = counting_kind("unkeyed", ("size",))
    reg = registry_with(kind)
    for model in "abc":
        tcfg.Target({"kind": "unkeyed", "size": "native", "model": model}, registry=reg)
    assert len(calls) == 3


def test_a_native_default_is_parsed_every_time() -> None:
    calls: list[str] = []

    def parse(request: Any) -> Derived:
        calls.append(request.attrs["model"])
        return Derived()

    kind = TargetKind(
        "here", "cpu", attrs=(Attr("size", String(), default="native"),), parser=parse, parse_reads=("size",)
    )
    reg = registry_with(kind)
    for model in "abc":
        tcfg.Target({"kind": "here", "model": model}, registry=reg)
    tcfg.Target({"kind": "here", "size": "big", "model": "d"}, registry=reg)
    tcfg.Target({"kind": "here", "size": "big", "model": "e"}, registry=reg)
    assert calls == ["a", "b", "c", "d"]


def test_parse_reads_must_name_attributes_of_the_kind() -> None:
    with pytest.raises(ValueError, match=r"parse_reads names \['sise'\], which are not its attributes"):
        TargetKind("typo", "cpu", attrs=(Attr("size", String()),), parse_reads=("size", "sise"))


def test_what_a_parser_implies_overrides_a_kind_default_but_not_a_given_value() -> None:
    implied = Derived(defaults={"n": 4})
    kind = TargetKind("impl", "cpu", attrs=(Attr("n", Integer(), default=1),), parser=lambda request: implied)
    reg = registry_with(kind)
    plain = tcfg.Target({"kind": "impl"}, registry=reg)
    assert plain.attrs["n"] == 4 and str(plain) == "impl"
    given = tcfg.Target({"kind": "impl", "n": 1}, registry=reg)
    assert given.attrs["n"] == 1 and str(given) == "impl -n=1"
    assert tcfg.Target(str(given), registry=reg) == given


def test_cpu_targets_differing_outside_the_cpu_attributes_parse_once() -> None:
    from tests.fake_plugins import ToyCpuParser, ToyCpuPlugin

    seen: list[str] = []

    class Counting(ToyCpuParser):
        def parse(self, request: Any, arch: str | None) -> Derived:
            seen.append(request.attrs.get("mcpu", ""))
            return super().parse(request, arch)

    class Plugin(ToyCpuPlugin):
        @tcfg.plugin.hookimpl
        def tcfg_register_cpu_parsers(self, register: Any) -> None:
            register(Counting())

    reg = tcfg.Registry(plugins=[Plugin()], autoload=False)
    a = tcfg.Target("llvm -mcpu=toy-v -num-cores=2", registry=reg)
    b = tcfg.Target("llvm -mcpu=toy-v -num-cores=4 -model=x", registry=reg)
    assert seen == ["toy-v"]
    assert a.attrs["mtriple"] == b.attrs["mtriple"] == "riscv64-unknown-linux-gnu"
    assert str(b) == "llvm -mtriple=riscv64-unknown-linux-gnu -mcpu=toy-v -num-cores=4 -model=x"


def test_a_parser_that_drops_an_attribute_is_a_plugin_error() -> None:
    def parse(request: Any) -> Derived:
        return Derived(attrs={k: v for k, v in request.attrs.items() if k != "model"})

    reg = registry_with(TargetKind("dropper", "cpu", parser=parse))
    with pytest.raises(tcfg.PluginError, match=r"dropped the attributes \['model'\]"):
        tcfg.Target("dropper -model=x", registry=reg)


def test_the_classes_the_builder_reads_keep_the_fast_attribute_path() -> None:
    """No class read on every build defines ``__getattr__``: CPython then skips its attribute cache for them.

    (``String`` once compiled its pattern lazily through ``__getattr__``, which cost
    each new target about 2,000 instructions.) ``Features`` has one on purpose: it is
    ``t.features.dsp``, read by users, not by the builder.
    """
    from tcfg._model import attrs as _model_schema
    from tcfg._model.kind import TargetKind as Kind
    from tcfg._registry.registry import Registry

    attr_types = [
        c for c in vars(_model_schema).values() if isinstance(c, type) and issubclass(c, _model_schema.AttrType)
    ]
    assert len(attr_types) >= 8
    for cls in [*attr_types, _model_schema.Attr, Kind, tcfg.Target, Registry]:
        assert not any("__getattr__" in vars(base) for base in cls.__mro__), cls


def test_a_pattern_is_compiled_when_first_used_and_checks_as_before() -> None:
    from tcfg.plugin import InvalidValue

    word = String(r"[a-z]+", "lower-case letters")
    assert word._regex is None
    assert word.json_schema() == {"type": "string", "pattern": "^(?:[a-z]+)$"}
    assert word._regex is None
    assert word.check("abc", None) == "abc"  # type: ignore[arg-type]
    assert word.pattern is not None and word.pattern.pattern == "[a-z]+"
    with pytest.raises(InvalidValue, match="lower-case letters"):
        word.check("ABC", None)  # type: ignore[arg-type]
    assert String().pattern is None


@pytest.mark.parametrize(
    "spec",
    [
        "llvm -mtriple=x86_64-linux-gnu -mattr=+avx2,-avx512f -model=m1",
        "llvm -keys=cpu,arm -libs=openblas -num-cores=4",
        "c -mcpu=cortex-m55 -workspace-byte-alignment=16 -mfloat-abi=hard",
    ],
)
def test_plain_key_value_strings_take_the_shortcut(spec: str) -> None:
    """Words of every plain type, lists included, are read by the shortcut, not handed to the full reader.

    (A core value type that failed in the shortcut would decline silently and cost the full
    reader's time on every common string; the results would still agree.)
    """
    from tcfg._build.pipeline import finish
    from tcfg._build.readers import _from_words
    from tcfg._registry.registry import Registry

    registry = Registry(autoload=False)
    given = _from_words(registry, spec.split(), spec, 0)
    assert given is not None
    assert finish(registry, given, 0) == tcfg.Target(spec, registry=registry)


def test_a_dict_seen_again_gives_its_target_while_it_is_unchanged() -> None:
    """The registry remembers a dict by its identity; any change in place is seen at the next call."""
    reg = registry_with()
    spec: dict[str, Any] = {"kind": "c", "keys": ["x"], "model": "m1", "from_device": 1}
    first = reg.target(spec)
    assert reg.target(spec) == first
    assert reg.target(spec) is reg.target(spec)  # from its third call on: the same object
    spec["model"] = "m2"
    assert reg.target(spec).attrs["model"] == "m2"
    spec["keys"].append("y")  # a list value changed in place
    assert reg.target(spec).keys[:2] == ("x", "y")
    spec["from_device"] = 2
    assert reg.target(spec).attrs["from_device"] == 2


def test_a_dict_value_swapped_for_an_equal_value_of_another_type_is_read_again() -> None:
    """``True == 1``, but a boolean is no integer: the dict is built anew, and refused."""
    reg = registry_with()
    spec: dict[str, Any] = {"kind": "c", "from_device": 1}
    reg.target(spec)
    reg.target(spec)
    spec["from_device"] = True
    with pytest.raises(tcfg.TargetError, match="from_device"):
        reg.target(spec)


def test_a_nested_dict_is_read_at_every_call() -> None:
    """A dict holding a dict (a host) is not remembered: a change inside it is seen."""
    reg = registry_with()
    host: dict[str, Any] = {"kind": "c", "model": "h1"}
    spec: dict[str, Any] = {"kind": "c", "host": host}
    for model in ("h1", "h2"):
        host["model"] = model
        reg.target(spec)
        assert reg.target(spec).attrs["host"].attrs["model"] == model
