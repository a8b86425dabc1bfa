"""The one size limit every target form shares: :data:`MAX_TEXT` characters of text.

A target string is held to it as given (:func:`check_length`); every target, whatever
form it came in, is held to it as canonical text (:func:`check_size`), so that whatever
builds also reads back from its own text. Measuring prints the target, which costs more
than building it: callers measure only what may be long (:func:`long_text` says whether
a tag's target is).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcfg._base.errors import TargetError, TargetSyntaxError, shorten
from tcfg._base.grammar import MAX_TEXT

if TYPE_CHECKING:
    from tcfg._model.target import Target

__all__ = ["check_length", "check_size", "long_text"]


def check_length(text: str) -> None:
    if len(text) > MAX_TEXT:
        raise TargetSyntaxError(
            f"target text of {len(text)} characters is longer than the limit of {MAX_TEXT}: {shorten(text, 60)!r}"
        )


def _text_size(target: Target) -> int:
    """The length of ``target``'s longer canonical text, ``str(t)`` or ``to_json()`` (each printed once, then kept)."""
    return max(len(str(target)), len(target.to_json()))


def long_text(target: Target) -> bool:
    """Whether ``target``'s canonical text is over half of :data:`MAX_TEXT`."""
    return _text_size(target) > MAX_TEXT // 2


def check_size(target: Target, text: Any) -> None:
    """Refuse a target whose canonical text (``str(t)`` or ``to_json()``) is longer than MAX_TEXT.

    Every input form is held to the one limit that text input has, so that whatever
    builds also reads back from its own text: a dict of 3,000 devices builds no more
    than the same target written as a string does.
    """
    size = _text_size(target)
    if size > MAX_TEXT:
        raise TargetError(
            f"target {shorten(text, 80)!r} is {size} characters as text, longer than the limit of {MAX_TEXT} "
            "that every target form shares (so that each reads back from its own text)"
        )

