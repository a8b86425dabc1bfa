"""Looking at hostile input at a cost bounded by the limits, not by the input.

Two tools, both safe on any value (deep, cyclic, huge, or whose ``repr`` raises):

* :func:`safe_repr`: a ``repr`` for error messages, bounded in depth, items and length,
  that never fails: an integer too long for Python to print (over 4,300 digits) is
  described by its size, a ``repr`` that raises by the type's name, and it reads at
  most a few items of each container (a dict of a million keys is not sorted or copied).
* :func:`over_limits`: walk a value (dicts, lists, tuples and what they hold) without
  recursion and say which limit it is past, or None: ``"text"``, more than ``max_text``
  characters (counted about as its JSON text would be: each string and its quotes, each
  number's digits, a separator per item); ``"depth"``, containers nested deeper than
  ``max_depth``; ``"cycle"``, a container that holds itself. The walk stops as soon
  as it has read past a limit, so refusing a 100 MB input costs what reading
  ``max_text`` characters of it costs.

Imports nothing of tcfg (the lowest layer).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import chain, islice
from typing import Any

__all__ = ["over_limits", "safe_repr", "safe_str"]

#: Digits an integer may have and still be printed (Python refuses over 4,300 by default).
_PRINTABLE_BITS = 4000 * 3  # about 3,600 digits
#: What :func:`safe_repr` shows of a value: levels, items per container, characters of text.
_LEVELS, _ITEMS, _CHARS = 3, 6, 60


def _int_repr(value: int) -> str:
    bits = value.bit_length()
    if bits <= _PRINTABLE_BITS:
        text = int.__repr__(value)
        return text if len(text) <= _CHARS else f"{text[: _CHARS // 2]}...{text[-8:]}"
    digits = int(bits * 0.30103) + 1
    return f"<{'-' if value < 0 else ''}int of about {digits} digits>"


def _opaque(value: object) -> str:
    return f"<{type(value).__name__} object>"


def _items(value: Any) -> Iterator[Any] | None:
    """The first few items of a container, or None for a non-container (or one that fails to iterate)."""
    try:
        if isinstance(value, Mapping):
            return iter(list(islice(value.items(), _ITEMS + 1)))
        if isinstance(value, (list, tuple, set, frozenset)):
            return iter(list(islice(value, _ITEMS + 1)))
    except Exception:
        return None
    return None


def safe_repr(value: Any, _level: int = 0) -> str:
    """``repr(value)`` for an error message: bounded, digit-safe and never raising."""
    kind = type(value)
    if kind is str:
        text: str = value
        return repr(text) if len(text) <= _CHARS else repr(text[:_CHARS]) + f"...({len(text)} characters)"
    if kind is int:
        return _int_repr(value)
    if kind in (bool, float) or value is None:
        return repr(value)
    if isinstance(value, (Mapping, list, tuple, set, frozenset)):
        opening, closing = (
            ("{", "}") if isinstance(value, (Mapping, set, frozenset)) else ("(", ")") if kind is tuple else ("[", "]")
        )
        if _level >= _LEVELS:
            return f"{opening}...{closing}"
        items = _items(value)
        if items is None:
            return _opaque(value)
        shown = list(items)
        more = ", ..." if len(shown) > _ITEMS else ""
        if isinstance(value, Mapping):
            parts = [f"{safe_repr(k, _level + 1)}: {safe_repr(v, _level + 1)}" for k, v in shown[:_ITEMS]]
        else:
            parts = [safe_repr(item, _level + 1) for item in shown[:_ITEMS]]
        return opening + ", ".join(parts) + more + closing
    try:
        text = repr(value)
    except Exception:
        return _opaque(value)
    if type(text) is not str:
        return _opaque(value)
    return text if len(text) <= _CHARS * 2 else text[: _CHARS * 2] + "..."


def safe_str(value: Any) -> str:
    """``str(value)`` for an error message (a target's text), or :func:`safe_repr` where that fails or is unbounded."""
    kind = type(value)
    if kind is str:
        text: str = value
        return text
    if kind is int or isinstance(value, (Mapping, list, tuple, set, frozenset)):
        return safe_repr(value)
    try:
        text = str(value)
    except Exception:
        return safe_repr(value)
    return text if type(text) is str else safe_repr(value)


def _size_of_leaf(value: Any) -> int:
    """About how many characters a non-container value takes as text (a target's text is kept once printed)."""
    kind = type(value)
    if kind is str:
        return len(value) + 3  # quotes and a separator
    if kind is int:
        bits: int = value.bit_length()
        return bits * 3 // 10 + 2
    if kind is bool or kind is float or value is None:
        return 6
    try:
        text = str(value)  # a Target prints once and keeps its text; other values are refused by their types
    except Exception:
        return 1
    return len(text) + 3 if type(text) is str else 1


def over_limits(value: Any, max_text: int, max_depth: int) -> str | None:
    """Which limit ``value`` is past (``"text"``, ``"depth"``, ``"cycle"``: see the module's docstring), or None.

    Containers are dicts (any ``Mapping``), lists and tuples; anything else is a leaf,
    measured by its text. A container that fails to iterate is left to its reader.
    """
    size = 0
    path: list[int] = [id(value)]  # the containers being read, outermost first
    stack: list[Iterator[Any]] = []
    first = _children(value)
    if first is None:
        size = _size_of_leaf(value)
        return None if size <= max_text else "text"
    stack.append(first)
    while stack:
        for child in stack[-1]:
            kind = type(child)
            if kind is str:  # the common leaf, inline
                size += len(child) + 4
                if size > max_text:
                    return "text"
                continue
            inner = _children(child)
            if inner is None:
                size += 1 + _size_of_leaf(child)
                if size > max_text:
                    return "text"
                continue
            size += 3
            if id(child) in path:
                return "cycle"
            if len(stack) >= max_depth:
                return "depth"
            if size > max_text:
                return "text"
            stack.append(inner)
            path.append(id(child))
            break
        else:
            stack.pop()
            path.pop()
    return None


def _children(value: Any) -> Iterator[Any] | None:
    """An iterator over a container's keys and values (or items), or None for a leaf."""
    kind = type(value)
    if kind is dict:  # keys and values in turn, read in C (a dict cannot fail to iterate)
        pairs: Iterator[Any] = chain.from_iterable(value.items())
        return pairs
    if kind is list or kind is tuple:
        items: Iterator[Any] = iter(value)
        return items
    try:
        if isinstance(value, Mapping):
            return _pairs(value)
        if isinstance(value, (list, tuple)):
            return iter(value)
    except Exception:
        return None
    return None


def _pairs(mapping: Mapping[Any, Any]) -> Iterator[Any]:
    try:
        for key, item in mapping.items():
            yield key
            yield item
    except Exception:
        return
