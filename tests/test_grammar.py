"""The string grammar: words, quotes, escapes, options and printing values back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tcfg._base.errors import TargetSyntaxError
from tcfg._base.grammar import quote, quote_nested, split_options, tokenize


def words(text: str) -> list[str]:
    return [t.text for t in tokenize(text)]


def test_plain_words_split_on_any_whitespace() -> None:
    assert words("  llvm\t-mcpu=a72 \n -fast-math ") == ["llvm", "-mcpu=a72", "-fast-math"]


def test_quotes_group_whitespace_and_commas() -> None:
    tok = tokenize("-libs='a b',\"c,d\",e")[0]
    assert tok.text == "-libs=a b,c,d,e"
    assert tok.eq == 5
    assert [tok.text[c] for c in tok.commas] == [",", ","]
    assert tok.commas == (9, 13)


def test_backslash_escapes_inside_and_outside_quotes() -> None:
    assert words(r"a\ b 'it\'s' \"") == ["a b", "it's", '"']


def test_unclosed_quote_points_at_it() -> None:
    with pytest.raises(TargetSyntaxError, match="unclosed ' quote") as info:
        tokenize("llvm -mcpu='abc")
    assert "^^^^" in str(info.value)


def test_lone_backslash_is_an_error() -> None:
    with pytest.raises(TargetSyntaxError, match="lone backslash"):
        tokenize("llvm -mcpu=a\\")


def test_options_in_all_spellings() -> None:
    text = "-a=1 --b=2 -c 3 -flag -d=x=y -neg -1"
    options = split_options(text, tokenize(text), lambda key: key == "flag")
    values = {o.key: (o.value.text if o.value else None) for o in options}
    assert values == {"a": "1", "b": "2", "c": "3", "flag": None, "d": "x=y", "neg": "-1"}


def test_flag_takes_a_following_true_or_false() -> None:
    text = "-flag false -other=1"
    options = split_options(text, tokenize(text), lambda key: key == "flag")
    assert [(o.key, o.value.text if o.value else None) for o in options] == [
        ("flag", "false"),
        ("other", "1"),
    ]


def test_option_without_value_is_an_error() -> None:
    with pytest.raises(TargetSyntaxError, match="needs a value"):
        split_options("-a -b=1", tokenize("-a -b=1"), lambda key: False)


def test_quoted_dash_is_a_value_not_an_option() -> None:
    text = "-a '-b'"
    options = split_options(text, tokenize(text), lambda key: False)
    assert [(o.key, o.value.text if o.value else None) for o in options] == [("a", "-b")]


@pytest.mark.parametrize("bad", ["stray", "-", "--", "-=1", "-1abc=2"])
def test_malformed_options(bad: str) -> None:
    with pytest.raises(TargetSyntaxError):
        split_options(bad, tokenize(bad), lambda key: False)


def test_list_values_split_on_unquoted_commas_only() -> None:
    text = "-libs=a,'b,c',,d"
    (option,) = split_options(text, tokenize(text), lambda key: False)
    assert option.value is not None
    assert option.value.split() == ["a", "b,c", "", "d"]


def test_empty_value_is_an_empty_list_but_quoted_empty_is_one_item() -> None:
    for text, items in (("-l=", []), ("-l=''", [""])):
        (option,) = split_options(text, tokenize(text), lambda key: False)
        assert option.value is not None
        assert option.value.split() == items


@given(st.text())
def test_quote_round_trips_any_text(text: str) -> None:
    (token,) = tokenize(quote(text))
    assert token.text == text
    assert not token.commas


@given(st.lists(st.text(), min_size=1, max_size=4))
def test_quoted_words_stay_separate(texts: list[str]) -> None:
    assert words(" ".join(quote(t) for t in texts)) == texts


def test_a_parenthesised_value_is_taken_as_it_stands() -> None:
    (token,) = tokenize("-host=(llvm -model='a b' -host=(c -x=\\'y\\'))")
    assert token.text == "-host=llvm -model='a b' -host=(c -x=\\'y\\')"
    assert token.eq == 5 and token.quoted
    (options,) = split_options("", tokenize("-devices=(cuda -arch=sm_80),(c -mcpu=x,y),'llvm'"), lambda k: False)
    assert options.value is not None
    assert options.value.split() == ["cuda -arch=sm_80", "c -mcpu=x,y", "llvm"]


def test_a_parenthesis_inside_a_value_is_a_character() -> None:
    assert words("-model=f(1)") == ["-model=f(1)"]
    assert words("'(x)'") == ["(x)"]


def test_unclosed_parenthesis_points_at_it() -> None:
    with pytest.raises(TargetSyntaxError, match=r"unclosed \("):
        tokenize("llvm -host=(llvm -model='x)'")


@given(st.text())
def test_quote_nested_round_trips_any_text(text: str) -> None:
    """What quote_nested prints reads back as the text, whatever quotes and parentheses it holds,
    as long as parentheses outside quotes are balanced (as in every target that tcfg prints)."""
    inner = quote(text)  # a word of the grammar: its parentheses are inside quotes
    (token,) = tokenize(quote_nested(f"llvm -model={inner}"))
    assert token.text == f"llvm -model={inner}"
