"""Values as TVM reads them in the string grammar: a list quoted as a whole, ``True``/``False``.

TVM strips the quotes of ``-libs='openblas,acl'`` and then splits at the commas; tcfg does the
same for list attributes. An item that itself holds a comma prints with backslash escapes
(``-keys=a\\,b``), which that rule does not split, so ``str()`` still round-trips exactly.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tcfg
from tcfg._base.grammar import quote_item, split_options, tokenize


def _items(text: str) -> list[str]:
    (option,) = split_options(text, tokenize(text), lambda key: False)
    assert option.value is not None
    return option.value.split_list()


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("-l='a,b'", ["a", "b"]),
        ('-l="a,b,c"', ["a", "b", "c"]),
        ("-l='-unroll-threshold:uint=100,-count:uint=3'", ["-unroll-threshold:uint=100", "-count:uint=3"]),
        ("-l='a,b',c", ["a,b", "c"]),  # quoted in part: the quotes hold the comma
        ("-l=a,'b,c'", ["a", "b,c"]),
        ("-l='a'b", ["ab"]),
        ("-l=a\\,b", ["a,b"]),
        ("-l=''", [""]),
        ("-l=", []),
    ],
)
def test_a_value_quoted_as_a_whole_is_split_at_its_commas(text: str, items: list[str]) -> None:
    assert _items(text) == items


def test_a_separate_quoted_value_is_split_too() -> None:
    text = "-l 'a,b'"
    (option,) = split_options(text, tokenize(text), lambda key: False)
    assert option.value is not None and option.value.split_list() == ["a", "b"]


def test_quoted_lists_of_real_attributes(core: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -keys='a,b' -cl-opt='-a:uint=1,-b:uint=3'", registry=core)
    assert t.attrs["keys"] == ("a", "b")
    assert t.attrs["cl-opt"] == ("-a:uint=1", "-b:uint=3")
    assert t == tcfg.Target("llvm -mtriple=x86_64-linux-gnu -keys=a,b -cl-opt=-a:uint=1,-b:uint=3", registry=core)


def test_a_string_attribute_keeps_its_commas(core: tcfg.Registry) -> None:
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu -model='a,b'", registry=core).attrs["model"] == "a,b"


def test_an_item_holding_a_comma_prints_escaped(core: tcfg.Registry) -> None:
    t = tcfg.Target({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "keys": ["a,b", "c"]}, registry=core)
    assert "-keys=a\\,b,c" in str(t)
    assert tcfg.Target(str(t), registry=core) == t


@given(st.lists(st.text(alphabet="ab ,'\"\\()=-", max_size=6), min_size=1, max_size=4))
def test_any_list_round_trips_through_text(items: list[str]) -> None:
    text = "-l=" + ",".join(quote_item(i) for i in items)
    assert _items(text) == items


PLAIN = "llvm -mtriple=x86_64-linux-gnu"


@pytest.mark.parametrize(("word", "value"), [("True", True), ("FALSE", False), ("tRuE", True), ("False", False)])
def test_booleans_in_any_case(core: tcfg.Registry, word: str, value: bool) -> None:
    for spec in (f"{PLAIN} -fast-math-nnan={word}", f"{PLAIN} -fast-math-nnan {word}"):
        assert tcfg.Target(spec, registry=core).attrs["fast-math-nnan"] is value


@pytest.mark.parametrize("word", ["yes", "truee", "T", "2"])
def test_other_words_are_not_booleans(core: tcfg.Registry, word: str) -> None:
    with pytest.raises(tcfg.TargetError, match="fast-math-nnan"):
        tcfg.Target(f"{PLAIN} -fast-math-nnan={word}", registry=core)


@pytest.mark.parametrize("extra", ["-tag=''", "-keys=", "-keys=''", "-keys=,", "-keys=cpu"])
def test_empty_tags_and_keys_and_keys_that_change_nothing_normalise_away(core: tcfg.Registry, extra: str) -> None:
    plain = tcfg.Target(PLAIN, registry=core)
    target = tcfg.Target(f"{PLAIN} {extra}", registry=core)
    assert target == plain and str(target) == str(plain) and target.keys == plain.keys
    assert tcfg.Target({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "tag": "", "keys": [""]}, registry=core) == plain


def test_keys_that_change_the_order_stay(core: tcfg.Registry) -> None:
    target = tcfg.Target(f"{PLAIN} -keys=mine,,cpu", registry=core)
    assert target.keys[0] == "mine" and target.attrs["keys"] == ("mine", "cpu")


def test_a_tag_must_be_one_the_target_was_built_from(core: tcfg.Registry) -> None:
    core.register_tag("test/board", {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "num-cores": 4})
    with pytest.raises(tcfg.TargetError, match="not built from"):
        tcfg.Target("llvm -mtriple=aarch64-linux-gnu -tag=test/board", registry=core)
    with pytest.raises(tcfg.TargetError, match="not built from"):
        tcfg.Target("c -mtriple=aarch64-linux-gnu -tag=test/board", registry=core)
    with pytest.raises(tcfg.UnknownTagError, match="test/boardx"):
        tcfg.Target("llvm -mtriple=aarch64-linux-gnu -num-cores=4 -tag=test/boardx", registry=core)
    built = tcfg.Target("test/board -num-cores=2", registry=core)  # a tag with overrides keeps its name
    assert built.tag == "test/board" and tcfg.Target(str(built), registry=core) == built
    assert (
        tcfg.Target("llvm -mtriple=aarch64-linux-gnu -num-cores=4 -tag=test/board", registry=core).tag == "test/board"
    )
