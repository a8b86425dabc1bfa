"""The target string grammar: tokenizing ``kind -key=value ...`` and quoting values back.

Grammar (the classic TVM/clang form)::

    target  := head option*
    head    := word                      (a kind or a tag name)
    option  := ("-" | "--") key ["=" value | " " value]
    value   := word                      (lists split at unquoted commas)

Words are separated by whitespace. Inside a word, ``'...'`` and ``"..."`` quote
(whitespace, commas and ``=`` lose their meaning there) and ``\\`` escapes the next
character, inside quotes or not. :func:`quote` is the inverse used for printing.

A list value quoted as a whole (``-libs='openblas,acl'``) is a list, split at its commas,
as TVM reads it: :attr:`RawValue.whole` says a value was one quoted span. An item that
itself holds a comma is spelled with backslash escapes instead (``-keys=a\\,b``), which
:func:`quote_item` prints and this rule does not split.

A value (a whole word, or what follows its first ``=`` or an unquoted comma) that
starts with ``(`` runs to the matching ``)`` and is taken as it stands, quotes and
backslashes included: the form for nested targets, which nest any number of levels
without escaping (``-host=(llvm -host='llvm -mcpu=x')``). :func:`quote_nested` prints
it only where a nested target's text holds quotes itself, so printing stays linear in
the depth where re-escaping would double at every level.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

import re
from collections.abc import Callable
from typing import NamedTuple

from tcfg._base.errors import TargetSyntaxError

__all__ = [
    "MAX_TEXT",
    "NAME",
    "OPTION_NAME",
    "Option",
    "RawValue",
    "Token",
    "pointer",
    "quote",
    "quote_item",
    "quote_nested",
    "split_options",
    "tokenize",
]

_SPECIAL = frozenset("'\"\\(")
_NEEDS_QUOTES = re.compile(r"[\s'\"\\,()]")
_QUOTING = re.compile(r"['\"\\]")
_ESCAPED_ITEM = re.compile(r"[\s'\"\\,()]")
#: The longest text accepted anywhere: a target's string or JSON text, and one value's text in
#: any input form (so that a dict cannot smuggle in what a string could not hold).
MAX_TEXT = 65536
#: What an option name (an attribute name) looks like.
OPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")
#: A name that kinds, compilers, executors and runtimes must match.
NAME = re.compile(r"[a-z][a-z0-9_\-]*\Z")
_NUMBER = re.compile(r"-[0-9]")
_WORD = re.compile(r"\S+")


class Token(NamedTuple):
    """One whitespace-separated word of the input, quotes and escapes resolved.

    ``eq`` is the index of the first unquoted ``=`` (or -1), ``commas`` the indexes
    of unquoted commas, ``quoted`` whether any part was quoted or escaped,
    ``dash`` whether it starts with an unquoted ``-``, and ``start``/``end`` its
    span in the original text. ``whole`` is the index where a value that is one quoted
    span and nothing else begins: 0 for the whole word, ``eq + 1`` for the part after the
    ``=``; -1 for neither.
    """

    text: str
    eq: int
    commas: tuple[int, ...]
    quoted: bool
    dash: bool
    start: int
    end: int
    whole: int = -1

    @property
    def is_option(self) -> bool:
        """Whether this word starts an option (an unquoted ``-`` not followed by a digit)."""
        return self.dash and not _NUMBER.match(self.text)


class RawValue(NamedTuple):
    """The text of an option's value, with the unquoted commas that split list values.

    ``whole``: the value was one quoted span (``'a,b'``), which a list reads as its items.
    """

    text: str
    commas: tuple[int, ...]
    quoted: bool
    whole: bool = False

    def split(self) -> list[str]:
        """The comma-separated items; an empty unquoted value is the empty list."""
        if not self.text and not self.quoted:
            return []
        if not self.commas:
            return [self.text]
        items, last = [], 0
        for pos in self.commas:
            items.append(self.text[last:pos])
            last = pos + 1
        items.append(self.text[last:])
        return items

    def split_list(self) -> list[str]:
        """The items of a list value: :meth:`split`, except that a value quoted as a whole is
        split at each of its commas (TVM strips the quotes of ``-libs='a,b'``, then splits)."""
        if self.whole and not self.commas:
            return self.text.split(",")
        return self.split()


class Option(NamedTuple):
    """One ``-key[=value]`` option; ``value`` is None for a bare flag."""

    key: str
    value: RawValue | None
    token: Token


def pointer(text: str, start: int, end: int) -> str:
    """The input on one line and a caret line under ``text[start:end]``."""
    end = max(end, start + 1)
    return f"\n  {text}\n  {' ' * start}{'^' * (end - start)}"


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into words, resolving quotes and escapes."""
    if not _SPECIAL.intersection(text):
        return _tokenize_plain(text)
    return _tokenize_quoted(text)


def _tokenize_plain(text: str) -> list[Token]:
    tokens = []
    for match in _WORD.finditer(text):
        word = match.group()
        commas = tuple(i for i, c in enumerate(word) if c == ",") if "," in word else ()
        tokens.append(Token(word, word.find("="), commas, False, word[0] == "-", match.start(), match.end()))
    return tokens


def _tokenize_quoted(text: str) -> list[Token]:
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        start, chars, commas, eq, quoted, quote_char = i, [], [], -1, False, ""
        quote_start, dash = -1, text[i] == "-"
        value_start = True  # at the start of the word, or just after its first '=' or a comma
        whole, closed = -1, False  # the piece where a value's lone quoted span began; whether it ended
        while i < n:
            c = text[i]
            if closed and not c.isspace():
                whole, closed = -1, False  # more follows the quoted span: not quoted as a whole
            if c == "(" and value_start and not quote_char:
                end = _closing_paren(text, i)
                chars.append(text[i + 1 : end])
                quoted, value_start = True, False
                i = end + 1
                continue
            at_value = value_start and (not chars or (eq >= 0 and len(chars) == eq + 1))
            value_start = False
            if c == "\\":
                if i + 1 >= n:
                    raise TargetSyntaxError(f"target {text!r} ends with a lone backslash" + pointer(text, i, i + 1))
                chars.append(text[i + 1])
                quoted = True
                i += 2
                continue
            if quote_char:
                if c == quote_char:
                    quote_char = ""
                    closed = whole >= 0
                else:
                    chars.append(c)
                i += 1
                continue
            if c in "'\"":
                quote_char, quote_start, quoted = c, i, True
                if at_value:
                    whole = len(chars)
                i += 1
                continue
            if c.isspace():
                break
            if c == ",":
                commas.append(len(chars))
                value_start = True
            elif c == "=" and eq < 0:
                eq = len(chars)
                value_start = True
            chars.append(c)
            i += 1
        if quote_char:
            raise TargetSyntaxError(
                f"target {text!r} has an unclosed {quote_char} quote" + pointer(text, quote_start, n)
            )
        text_of_word = "".join(chars)
        if whole >= 0 and not closed:
            whole = -1
        if commas or eq >= 0 or whole > 0:  # positions counted pieces; a parenthesised value is one piece
            eq, commas, whole = _positions(chars, eq, commas, whole)
        tokens.append(Token(text_of_word, eq, tuple(commas), quoted, dash, start, i, whole))
    return tokens


def _positions(pieces: list[str], eq: int, commas: list[int], whole: int) -> tuple[int, list[int], int]:
    """``eq``, ``commas`` and ``whole``, counted in pieces of ``pieces``, as indexes into their joined text."""
    offsets, total = [], 0
    for piece in pieces:
        offsets.append(total)
        total += len(piece)
    offsets.append(total)  # a lone quoted span may be empty and end the word
    at = [offsets[eq] if eq >= 0 else -1, offsets[whole] if whole >= 0 else -1]
    return at[0], [offsets[c] for c in commas], at[1]


def _closing_paren(text: str, start: int) -> int:
    """The index of the ``)`` that closes the ``(`` at ``start``, skipping quoted parts and escapes."""
    depth, quote_char, i, n = 0, "", start, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if quote_char:
            if c == quote_char:
                quote_char = ""
        elif c in "'\"":
            quote_char = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise TargetSyntaxError(f"target {text!r} has an unclosed (" + pointer(text, start, n))


def split_options(text: str, tokens: list[Token], is_flag: Callable[[str], bool]) -> list[Option]:
    """Read ``tokens`` (the words after the head) as options.

    ``is_flag(key)`` says whether ``key`` is a boolean attribute, which may stand
    alone (``-flag``) or take ``true``/``false`` as the next word.
    """
    options: list[Option] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if not tok.dash or tok.text in ("-", "--"):
            raise TargetSyntaxError(
                f"target {text!r}: expected an option like -key=value, found {tok.text!r}"
                + pointer(text, tok.start, tok.end)
            )
        body_start = 2 if tok.text.startswith("--") else 1
        key_end = tok.eq if tok.eq >= 0 else len(tok.text)
        key = tok.text[body_start:key_end]
        if not OPTION_NAME.match(key):
            raise TargetSyntaxError(
                f"target {text!r}: {tok.text[:key_end]!r} is not a valid option name"
                + pointer(text, tok.start, tok.end)
            )
        i += 1
        if tok.eq >= 0:
            off = tok.eq + 1
            commas = tuple(c - off for c in tok.commas if c > tok.eq) if tok.commas else ()
            options.append(Option(key, RawValue(tok.text[off:], commas, tok.quoted, tok.whole == off), tok))
            continue
        if is_flag(key):
            if i < n and tokens[i].text.lower() in ("true", "false") and not tokens[i].quoted:
                options.append(Option(key, RawValue(tokens[i].text, (), False), tok))
                i += 1
            else:
                options.append(Option(key, None, tok))
            continue
        if i >= n or tokens[i].is_option:
            raise TargetSyntaxError(
                f"target {text!r}: option -{key} needs a value (-{key}=VALUE or -{key} VALUE)"
                + pointer(text, tok.start, tok.end)
            )
        nxt = tokens[i]
        options.append(Option(key, RawValue(nxt.text, nxt.commas, nxt.quoted, nxt.whole == 0 and nxt.eq < 0), tok))
        i += 1
    return options


def quote(text: str) -> str:
    """``text`` as one word of the grammar: bare when safe, else single-quoted with escapes."""
    if text and not _NEEDS_QUOTES.search(text):
        return text
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def quote_item(text: str) -> str:
    """``text`` as one item of a list value: :func:`quote`, except that an item holding a comma is
    spelled with backslash escapes, since a list value quoted as a whole is split at its commas."""
    if "," not in text:
        return quote(text) if text else "''"
    return _ESCAPED_ITEM.sub(r"\\\g<0>", text)


def quote_nested(text: str) -> str:
    """A nested target's (or component's) text as one value: bare when safe, single-quoted when
    that needs no escapes, else in parentheses, which need none (the text, printed by this
    grammar, has its parentheses balanced outside quotes)."""
    if text and not _NEEDS_QUOTES.search(text):
        return text
    if not _QUOTING.search(text):
        return f"'{text}'"
    return f"({text})"
