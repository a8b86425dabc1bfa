"""Hostile input and concurrency: deep nesting, huge text, odd JSON, look-alike names, threads."""

from __future__ import annotations

import itertools
import time
from types import MappingProxyType
from typing import Any

import pytest

import tcfg
from tcfg._base.grammar import MAX_TEXT
from tcfg._build.memo import MAX_DEPTH
from tests.fake_plugins import AccelPlugin, LabelPlugin, ToyCpuPlugin
from tests.threads import at_once


def nested(levels: int, key: str) -> dict[str, Any]:
    config: dict[str, Any] = {"kind": "c"}
    for _ in range(levels):
        config = {"kind": "composite", "devices": [config]} if key == "devices" else {"kind": "llvm", "host": config}
    return config


@pytest.mark.parametrize("key", ["host", "devices"])
def test_ten_thousand_levels_fail_fast_with_a_short_message(core: tcfg.Registry, key: str) -> None:
    start = time.perf_counter()
    with pytest.raises(tcfg.TargetError, match=f"nests more than {MAX_DEPTH} levels deep") as info:
        tcfg.Target(nested(10_000, key), registry=core)
    assert time.perf_counter() - start < 1.0
    assert len(str(info.value)) < 1000


def test_deep_json_text_and_megabyte_strings(core: tcfg.Registry) -> None:
    deep = '{"kind": "llvm", "host": ' * 3000 + '{"kind": "llvm"}' + "}" * 3000
    with pytest.raises(tcfg.TargetSyntaxError, match="longer than the limit"):
        tcfg.Target(deep, registry=core)
    with pytest.raises(tcfg.TargetSyntaxError, match=f"limit of {MAX_TEXT}"):
        tcfg.Target("llvm -model=" + "x" * 1_000_000, registry=core)
    brackets = "[" * 20_000 + "]" * 20_000
    with pytest.raises(tcfg.TargetError):
        tcfg.Target("{" + brackets[: MAX_TEXT - 2] + "}", registry=core)


@pytest.mark.parametrize(
    "text",
    [
        '{"kind": "llvm", "num-cores": NaN}',
        '{"kind": "llvm", "num-cores": Infinity}',
        '{"kind": "llvm", "num-cores": -Infinity}',
        '{"kind": "llvm", "num-cores": 4.0}',
        '{"kind": "llvm", "num-cores": 1e400}',
        '{"kind": "llvm", "num-cores": true}',
        '{"kind": "llvm", "mcpu": null}',
        '{"kind": "llvm", "mattr": "+neon"}',
        '{"kind": "llvm", "mattr": [1]}',
        '{"kind": ["llvm"]}',
        '{"kind": "llvm"} trailing',
        "{\"kind\": 'llvm'}",
        "[]",
    ],
)
def test_odd_json_is_refused(core: tcfg.Registry, text: str) -> None:
    with pytest.raises(tcfg.TargetError):
        tcfg.Target(text, registry=core)


def test_non_string_keys_and_odd_python_values(core: tcfg.Registry) -> None:
    for spec in (
        {1: "llvm"},
        {("kind",): "llvm"},
        {"kind": "llvm", "num-cores": float("nan")},
        object(),
        None,
        b"llvm",
    ):
        with pytest.raises(tcfg.TargetError):
            tcfg.Target(spec, registry=core)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("\uff4c\uff4c\uff56\uff4d -mtriple=x86_64", "did you mean 'llvm'"),  # fullwidth
        ("ll\u0432m", "did you mean 'llvm'"),  # Cyrillic ve
        ("llvm -mcpu=cortex\u2010a72", "non-ASCII character"),  # Unicode hyphen
        ("llvm -m\u0441pu=x", "not a valid option name"),  # Cyrillic es
    ],
)
def test_unicode_look_alikes_get_clear_errors(core: tcfg.Registry, text: str, hint: str) -> None:
    with pytest.raises(tcfg.TargetError, match=hint):
        tcfg.Target(text, registry=core)


def test_threads_building_while_plugins_load_see_identical_results() -> None:
    reg = tcfg.Registry(plugins=[AccelPlugin(), ToyCpuPlugin(), LabelPlugin()], autoload=False)
    specs = ["accel -gen=2", "acme/a2,board-1.0", "llvm -mtriple=riscv64 -mcpu=toy-v -model=m", "c -mcpu=toy-v"]
    results = at_once(8, lambda: [tcfg.Target(s, registry=reg).to_json() for s in specs * 25])
    assert len(results) == 8 and all(r == results[0] for r in results)
    assert [r.status for r in reg.plugins()] == ["loaded"] * 4


@pytest.mark.parametrize("digits", [20, 5000])
def test_integers_past_64_bits_are_attribute_errors_in_every_form(digits: int) -> None:
    """No ValueError from Python's digit limit, no value that cannot be printed back."""
    big = "9" * digits
    with pytest.raises(tcfg.AttributeValueError, match="64-bit"):
        tcfg.Target(f"llvm -num-cores={big}")
    with pytest.raises(tcfg.AttributeValueError, match="64-bit"):
        tcfg.Target({"kind": "llvm", "num-cores": int(big) if digits < 4000 else 2**70})
    with pytest.raises(tcfg.TargetError):
        tcfg.Target(f'{{"kind": "llvm", "num-cores": {big}}}')
    assert tcfg.Target(f"llvm -num-cores={2**63 - 1}").attrs["num-cores"] == 2**63 - 1


@pytest.mark.parametrize("name", ["board\x00x", "board\u200bx", "b" * 201])
def test_register_tag_refuses_names_that_are_not_printable_or_too_long(name: str) -> None:
    reg = tcfg.Registry(autoload=False)
    with pytest.raises(tcfg.TargetError, match="tag name"):
        reg.register_tag(name, "llvm")
    assert reg.list_tags() == []
    reg.register_tag("b" * 200, "llvm")
    assert reg.list_tags() == ["b" * 200]


def test_printing_is_linear_in_the_nesting_depth_and_reads_back() -> None:
    """Each level of hosts adds the same number of characters to str(t), to the deepest level allowed."""
    level = "llvm -mtriple=x86_64-linux-gnu -model='a b'"
    target = tcfg.Target(level)
    sizes = [len(str(target))]
    for _ in range(MAX_DEPTH):
        target = tcfg.Target(level, host=target)
        sizes.append(len(str(target)))
    steps = {b - a for a, b in itertools.pairwise(sizes[1:])}  # the first host is quoted, the rest in ()
    assert steps == {len(level) + len(" -host=()")}
    assert tcfg.Target(str(target)) == target
    assert tcfg.Target(target.to_json()) == target


@pytest.mark.parametrize("where", ["free text", "value", "kind", "attribute"])
def test_a_huge_input_is_refused_fast_with_a_short_message(where: str) -> None:
    """A dict is held to the text limit too: no value longer than a target string may be."""
    big = "x" * 5_000_000
    spec: dict[str, Any] = {
        "free text": {"kind": "llvm", "model": big},
        "value": {"kind": "llvm", "mcpu": big},
        "kind": {"kind": big},
        "attribute": {"kind": "llvm", big: 1},
    }[where]
    start = time.process_time()
    with pytest.raises(tcfg.TargetError) as caught:
        tcfg.Target(spec, registry=tcfg.Registry(autoload=False))
    assert time.process_time() - start < 1.0
    assert len(str(caught.value)) < 5000
    if where == "kind":  # the message quotes the name: cut, saying so (by the message's cut or the quoting's own)
        assert "characters cut" in str(caught.value) or f"({len(big)} characters)" in str(caught.value)


LONG = "x" * 40_000  # within the limit alone; two of them are not


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: tcfg.Target({"kind": "llvm", "model": LONG, "keys": [LONG]}), id="two long values"),
        pytest.param(lambda: tcfg.Target({"kind": "llvm", "keys": ["k"] * 40_000}), id="a list of many short items"),
        pytest.param(
            lambda: tcfg.Target(MappingProxyType({"kind": "llvm", "model": LONG, "keys": [LONG]})), id="a mapping"
        ),
        pytest.param(lambda: tcfg.Target({"kind": "llvm", "model": "\x01" * 20_000}), id="escapes grow in print"),
        pytest.param(
            lambda: tcfg.Target({"kind": "llvm", "model": LONG, "host": {"kind": "llvm", "model": LONG}}),
            id="a dict host",
        ),
        pytest.param(
            lambda: tcfg.Target({"kind": "llvm", "model": LONG}, host={"kind": "llvm", "model": LONG}),
            id="host= a dict",
        ),
        pytest.param(lambda: tcfg.Target(f"llvm -model={LONG}", host=f"llvm -model={LONG}"), id="host= a string"),
        pytest.param(
            lambda: tcfg.Target({"kind": "llvm", "model": LONG, "host": tcfg.Target(f"llvm -model={LONG}")}),
            id="a Target host",
        ),
    ],
)
def test_a_dict_or_host_is_held_to_the_text_limit_as_a_whole(make: Any) -> None:
    """Each value is within the limit; the target's text is not, so it would not read back: refused."""
    with pytest.raises(tcfg.TargetError, match=f"longer than the limit of {MAX_TEXT} that every target form shares"):
        make()


@pytest.mark.parametrize("spec", [{"kind": "llvm", "model": "y" * 30_000, "keys": ["k"] * 1000}, {"kind": "llvm"}])
def test_a_dict_just_within_the_limit_builds_and_reads_back(spec: dict[str, Any]) -> None:
    target = tcfg.Target(spec)
    assert len(str(target)) <= MAX_TEXT and len(target.to_json()) <= MAX_TEXT
    assert tcfg.Target(str(target)) == target == tcfg.Target(target.to_json())


def many_strings_kind(count: int) -> tcfg.Registry:
    """A registry with kind ``wide``: ``count`` string attributes ``a0``, ``a1``, ..."""
    from tcfg.plugin import Attr, String, TargetKind
    from tests.fake_plugins import plugin_with

    wide = TargetKind("wide", "cpu", attrs=tuple(Attr(f"a{i}", String()) for i in range(count)))
    plugin = plugin_with("wide", tcfg_register_kinds=lambda register: register(wide))
    return tcfg.Registry(plugins=[plugin], autoload=False)


def test_many_short_values_are_measured_when_together_they_may_be_too_long() -> None:
    """No value counts as long, but 200 of them can print past the limit: the shape says measure."""
    registry = many_strings_kind(200)
    escaped = {"kind": "wide", **{f"a{i}": "\x01" * 60 for i in range(200)}}
    with pytest.raises(tcfg.TargetError, match="longer than the limit"):
        tcfg.Target(escaped, registry=registry)
    plain = {"kind": "wide", **{f"a{i}": "v" * 60 for i in range(200)}}
    assert tcfg.Target(str(tcfg.Target(plain, registry=registry)), registry=registry).attrs["a199"] == "v" * 60


def test_a_long_tag_with_short_overrides_is_measured() -> None:
    """A plugin's tag prints 60,000 characters; short overrides that print 6,000 more are too many."""
    from tests.fake_plugins import plugin_with

    def tags(register: Any) -> None:
        register("big/one", {"kind": "llvm", "model": "m" * 60_000}, description="long", source="test")

    registry = tcfg.Registry(plugins=[plugin_with("big", tcfg_register_tags=tags)], autoload=False)
    assert len(str(tcfg.Target({"tag": "big/one", "keys": ["k"]}, registry=registry))) > 60_000
    with pytest.raises(tcfg.TargetError, match="longer than the limit"):
        tcfg.Target({"tag": "big/one", "keys": ["\x01" * 64] * 16}, registry=registry)


def test_a_tag_registered_again_with_a_long_config_is_measured_again() -> None:
    """The builder remembers which tags print short, per tag target: a new registration is looked at anew."""
    registry = tcfg.Registry(autoload=False)
    registry.register_tag("my/board", {"kind": "llvm", "model": "short"})
    override = {"tag": "my/board", "keys": ["\x01" * 64] * 16}  # short values, 6,000 characters of JSON
    assert tcfg.Target(override, registry=registry).attrs["model"] == "short"
    registry.register_tag("my/board", {"kind": "llvm", "model": "m" * 60_000}, override=True)
    with pytest.raises(tcfg.TargetError, match="longer than the limit"):
        tcfg.Target(override, registry=registry)


def test_only_a_dict_that_may_be_too_long_is_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    """Measuring prints the target (more than building it costs): short dicts skip it."""
    from tcfg._build import pipeline

    measured: list[Any] = []
    real = pipeline.check_size

    def check_size(target: tcfg.Target, text: Any) -> None:
        measured.append(text)
        real(target, text)

    monkeypatch.setattr(pipeline, "check_size", check_size)
    registry = tcfg.Registry(autoload=False)
    short = {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mcpu": "cortex-a72", "keys": ["cpu"] * 16}
    tcfg.Target(short, registry=registry)
    assert measured == []
    for long in ({**short, "model": "m" * 65}, {**short, "keys": ["cpu"] * 17}, {**short, "host": "llvm"}):
        tcfg.Target(long, registry=registry)
        assert measured == [long]
        measured.clear()


def test_a_check_outside_the_builder_takes_long_values() -> None:
    """Plugins check values with their own context (or None): only the builder's counting one signals."""
    from tcfg.plugin import String, StringList

    assert String().check("s" * 1000, None) == "s" * 1000  # type: ignore[arg-type]
    assert StringList().check(["s"] * 100, None) == ("s",) * 100  # type: ignore[arg-type]
