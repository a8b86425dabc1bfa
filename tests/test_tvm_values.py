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


def test_quoted_lists_of_real_attributes() -> None:
    t = tcfg.Target("llvm -mtriple=aarch64-linux-gnu -libs='openblas,acl' -cl-opt='-a:uint=1,-b:uint=3'")
    assert t.attrs["libs"] == ("openblas", "acl")
    assert t.attrs["cl-opt"] == ("-a:uint=1", "-b:uint=3")
    assert t == tcfg.Target("llvm -mtriple=aarch64-linux-gnu -libs=openblas,acl -cl-opt=-a:uint=1,-b:uint=3")


def test_a_string_attribute_keeps_its_commas() -> None:
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu -model='a,b'").attrs["model"] == "a,b"


def test_an_item_holding_a_comma_prints_escaped() -> None:
    t = tcfg.Target({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "keys": ["a,b", "c"]})
    assert "-keys=a\\,b,c" in str(t)
    assert tcfg.Target(str(t)) == t


@given(st.lists(st.text(alphabet="ab ,'\"\\()=-", max_size=6), min_size=1, max_size=4))
def test_any_list_round_trips_through_text(items: list[str]) -> None:
    text = "-l=" + ",".join(quote_item(i) for i in items)
    assert _items(text) == items


@pytest.mark.parametrize(("word", "value"), [("True", True), ("FALSE", False), ("tRuE", True), ("False", False)])
def test_booleans_in_any_case(word: str, value: bool) -> None:
    for spec in (f"vulkan -supports_float16={word}", f"vulkan -supports_float16 {word}"):
        assert tcfg.Target(spec).attrs["supports_float16"] is value


@pytest.mark.parametrize("word", ["yes", "truee", "T", "2"])
def test_other_words_are_not_booleans(word: str) -> None:
    with pytest.raises(tcfg.TargetError, match="supports_float16"):
        tcfg.Target(f"vulkan -supports_float16={word}")
