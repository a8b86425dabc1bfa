"""Strict JSON decoding of target text: a repeated key, NaN or Infinity is refused.

:func:`load_json` returns the decoded value or raises :class:`tcfg.TargetSyntaxError`
that quotes the text and says what is wrong (never ``json``'s own errors). Imports
``tcfg._base`` only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tcfg._base.errors import TargetSyntaxError, shorten

__all__ = ["load_json"]


class _JsonRefused(Exception):
    """A JSON value tcfg refuses (a repeated key, NaN or Infinity); the message says which."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _JsonRefused(f"the key {key!r} appears twice")
            seen.add(key)
    return out


def _no_constants(name: str) -> Any:
    raise _JsonRefused(f"{name} is not a valid value")


_JSON = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
#: The C scanners of two decoders: ``(value, end)`` of the JSON value at an index, without
#: the Python frames of ``decode``/``raw_decode`` (StopIteration if there is none). The
#: first keeps the last of repeated keys; the second (slower: it calls back per object)
#: refuses them.
_scan_json: Callable[[str, int], tuple[Any, int]] = vars(json.JSONDecoder(parse_constant=_no_constants))["scan_once"]
_scan_json_strictly: Callable[[str, int], tuple[Any, int]] = vars(_JSON)["scan_once"]


def load_json(text: str) -> Any:
    """The value of JSON ``text`` (stripped of surrounding whitespace).

    A flat object whose key count equals the text's colon count cannot repeat a key
    (each key takes one colon); other texts are decoded again, refusing repeats.
    """
    try:
        try:
            value, end = _scan_json(text, 0)
        except StopIteration:
            value, end = None, -1
        if end != len(text):  # no JSON value at the start, or more text after it
            return _JSON.decode(text)  # raises the decoder's own error
        if type(value) is not dict or len(value) != text.count(":"):
            value = _scan_json_strictly(text, 0)[0]
        return value
    except _JsonRefused as exc:
        raise TargetSyntaxError(f"JSON target {shorten(text)!r}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise TargetSyntaxError(
            f"JSON target {shorten(text)!r} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except ValueError:  # the one other ValueError of decoding: an integer past Python's limit on digits
        raise TargetSyntaxError(f"JSON target {shorten(text)!r} holds a number too long to read") from None
    except RecursionError:
        raise TargetSyntaxError(f"JSON target {shorten(text)!r} nests too deeply") from None
