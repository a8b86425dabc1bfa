"""Property tests: targets generated from every registered kind's schema round-trip exactly,
and no input, however random, raises anything but TargetError."""

from __future__ import annotations

import contextlib
import importlib.util
import json
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import tcfg
from tcfg._model.attrs import AttrType, Boolean, Choice, Integer, String, StringList, TargetList, TargetValue
from tcfg._model.components import ComponentType
from tests.fake_plugins import AccelPlugin, LabelPlugin, ToyCpuPlugin

pytestmark = pytest.mark.slow  # property tests: run by the full suite, not by -m "not slow"

#: The toy CPU plugin claims riscv64, which the riscv plugin owns where it is installed: there
#: the riscv plugin answers (and is put to the laws) instead of failing to load beside the toy.
_TOY_CPU = [] if importlib.util.find_spec("tcfg_riscv") else [ToyCpuPlugin()]
REGISTRY = tcfg.Registry(plugins=[AccelPlugin(), *_TOY_CPU, LabelPlugin()])

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
NESTED = st.sampled_from(["llvm -mtriple=x86_64-linux-gnu", "c -mcpu=cortex-m4", "llvm -mtriple=riscv64 -libs='a b'"])


def values(kind_attr: AttrType, depth: int) -> st.SearchStrategy[Any]:
    if isinstance(kind_attr, Boolean):
        return st.booleans()
    if isinstance(kind_attr, Integer):
        return st.integers(min_value=kind_attr.minimum, max_value=kind_attr.maximum)
    if isinstance(kind_attr, Choice):
        return st.sampled_from(kind_attr.choices)
    if isinstance(kind_attr, String):
        if kind_attr.pattern is not None:
            return st.from_regex(kind_attr.pattern, fullmatch=True).filter(lambda s: len(s) < 40)
        return TEXT
    if isinstance(kind_attr, StringList):
        return st.lists(values(kind_attr.item, depth), max_size=3)
    if isinstance(kind_attr, TargetValue):
        if depth >= 2:
            return NESTED
        return NESTED | configs(depth + 1)
    if isinstance(kind_attr, TargetList):
        return st.lists(values(TargetValue(), depth), min_size=1, max_size=3)
    if isinstance(kind_attr, ComponentType):
        return st.sampled_from(sorted(REGISTRY.components(kind_attr.role))).flatmap(
            lambda name: component(kind_attr.role, name, depth)
        )
    raise AssertionError(f"no strategy for {kind_attr!r}")


def component(role: str, name: str, depth: int) -> st.SearchStrategy[Any]:
    spec = REGISTRY.components(role)[name]
    attrs = st.fixed_dictionaries({}, optional={k: values(a.type, depth) for k, a in spec.table.items()})
    return st.just(name) | attrs.map(lambda given: {"name": name, **given})


@st.composite
def configs(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    kind = REGISTRY.get_kind(draw(st.sampled_from(REGISTRY.list_kinds())))
    names = [n for n in kind.table if n not in ("compiler", "tag")]
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=5))
    config: dict[str, Any] = {"kind": kind.name}
    for name in chosen:
        config[name] = draw(values(kind.table[name].type, depth))
    return config


@given(configs())
def test_generated_targets_round_trip_through_text_json_and_export(config: dict[str, Any]) -> None:
    try:
        t = tcfg.Target(config, registry=REGISTRY)
    except tcfg.TargetError:
        assume(False)
        return
    for form in (str(t), t.to_json(), t.export()):
        again = tcfg.Target(form, registry=REGISTRY)
        assert again == t
        assert str(again) == str(t) and again.to_json() == t.to_json()
    assert json.loads(t.to_json()) == t.export()


#: The same plugins, with another history of builds: equal input must build alike there.
FRESH = REGISTRY.anew()


@given(configs())
def test_generated_targets_of_every_kind_obey_the_kind_parsers_laws(config: dict[str, Any]) -> None:
    """Issue 30, item 3: idempotent parsers, and equal input built alike in another registry,
    over generated targets of every kind installed (the shipped plugins' too)."""
    from tcfg._services.plugin_check import check_laws

    assert check_laws(REGISTRY, FRESH, [config]) == []


@given(st.text(max_size=80))
def test_random_text_raises_only_target_errors(text: str) -> None:
    with contextlib.suppress(tcfg.TargetError):
        tcfg.Target(text, registry=REGISTRY)


GRAMMAR_WORDS = st.sampled_from(
    [
        "llvm",
        "c",
        "accel",
        "acme/a2",
        "-mcpu=",
        "-gen=",
        "-host=",
        "'",
        '"',
        "\\",
        ",",
        "=",
        "-",
        "--",
        " ",
        "-libs=a,b",
        "-fast-math",
        "true",
        "{",
        "}",
        "-keys",
        "x86_64",
        "toy-v",
        "-mtriple=riscv64",
    ]
)


@given(st.lists(GRAMMAR_WORDS | TEXT, max_size=10).map("".join))
def test_grammar_shaped_text_raises_only_target_errors(text: str) -> None:
    try:
        t = tcfg.Target(text, registry=REGISTRY)
    except tcfg.TargetError:
        return
    assert tcfg.Target(str(t), registry=REGISTRY) == t


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=10,
)


@given(
    st.dictionaries(
        st.sampled_from(["kind", "tag", "gen", "mcpu", "host", "libs", "mattr", "x"]) | TEXT,
        JSON_VALUES | st.sampled_from(["llvm", "accel", "acme/a2"]),
        max_size=5,
    )
)
def test_random_dicts_raise_only_target_errors(data: dict[str, Any]) -> None:
    with contextlib.suppress(tcfg.TargetError):
        tcfg.Target(data, registry=REGISTRY)
    with contextlib.suppress(tcfg.TargetError):
        tcfg.Target(json.dumps(data), registry=REGISTRY)


def _outcome(build: Any) -> tuple[Any, ...]:
    try:
        made = build()
    except tcfg.TargetError as exc:
        return ("error", type(exc), str(exc))
    if made is None:
        return ("declined",)
    return ("target", str(made), made.to_json(), dict(made.attrs), made.keys, dict(made.features))


OPTION_NAMES = ("gen", "lanes", "mode", "ecc", "units", "label", "peer", "compiler", "turbo_level", "keys")
OPTION_VALUES = ("1", "2", "3", "5", "0", "-1", "fast", "exact", "true", "false", "", "a,b", ",", "turbo")
OPTION_WORDS = st.tuples(
    st.sampled_from(["-"] * 8 + ["--", ""]),
    st.sampled_from([*OPTION_NAMES, "libs", "host", "mcpu", "mtriple", "mattr", "model", "tag", "x", "1"]),
    st.sampled_from(["="] * 8 + [""]),
    st.sampled_from([*OPTION_VALUES, "nope", "llvm", "x86_64-linux-gnu", "riscv64", "toy-v2", "cortex-a72"])
    | st.sampled_from(["+neon,-sve", "acme/a2", "c", "accel=1"]),
).map("".join)
SHORTCUT_TEXT = st.tuples(
    st.sampled_from(["llvm", "c", "accel", "acme/a2", "acme/a2,board-1.0", "nope", "-gen=1"]),
    st.lists(OPTION_WORDS, max_size=5) | st.lists(OPTION_WORDS | GRAMMAR_WORDS, max_size=5),
    st.sampled_from([" ", "  ", "\t", " \n "]),
).map(lambda parts: parts[2].join([parts[0], *parts[1]]))


@given(SHORTCUT_TEXT | st.lists(GRAMMAR_WORDS | TEXT, max_size=10).map("".join))
def test_the_unquoted_shortcut_agrees_with_the_full_reader(text: str) -> None:
    from tcfg._build import readers as build
    from tcfg._build.pipeline import Given, finish

    def finished(given: Given | None) -> tcfg.Target | None:
        return None if given is None else finish(REGISTRY, given, 0)

    stripped = text.strip()
    assume(stripped and stripped[0] != "{" and not any(c in text for c in "'\"\\"))
    assume(len(text) <= build.MAX_TEXT)
    for _ in range(2):  # the second time, words seen before come from the registry's memo
        shortcut = _outcome(lambda: finished(build._from_words(REGISTRY, stripped.split(), text, 0)))
        if shortcut != ("declined",):
            assert shortcut == _outcome(lambda: finished(build._from_tokens(REGISTRY, text, 0)))
