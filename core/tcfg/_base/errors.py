"""The exception hierarchy: every error caused by user input is a :class:`TargetError`."""

from __future__ import annotations

#: ``typing.TYPE_CHECKING`` without importing :mod:`typing`: ``import tcfg`` loads this
#: module and must not pay for it (docs/performance.md); type checkers treat any
#: ``TYPE_CHECKING`` name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, TypeVar

    T = TypeVar("T")

__all__ = [
    "NOT_PLUGIN_FAULTS",
    "plugin_code",
    "plugin_failed",
    "AttributeValueError",
    "PluginError",
    "PluginWarning",
    "TargetError",
    "TargetSyntaxError",
    "UnknownAttributeError",
    "UnknownKindError",
    "UnknownTagError",
    "bounded_repr",
    "closest",
    "describe_choices",
    "shorten",
]


#: The longest error message kept whole; a longer one (a huge value quoted in it) keeps
#: its start and its end, and says how much was cut.
MAX_MESSAGE = 4096


class TargetError(ValueError):
    """A target, tag, kind or plugin configuration that tcfg refuses.

    The message quotes the input, names the offending token or field and lists
    the valid choices or the closest ones. It is at most about :data:`MAX_MESSAGE`
    characters, whatever the input's size.
    """

    def __init__(self, message: object = "", *args: object) -> None:
        text = str(message)
        if len(text) > MAX_MESSAGE:
            head, tail = MAX_MESSAGE * 3 // 4, MAX_MESSAGE // 8
            text = f"{text[:head]} ... [{len(text) - head - tail} characters cut] ... {text[-tail:]}"
        super().__init__(text, *args)


class TargetSyntaxError(TargetError):
    """The text of a target string or JSON document is malformed."""


class UnknownKindError(TargetError):
    """The first token or ``kind`` field names no registered kind or tag."""


class UnknownTagError(TargetError):
    """A ``tag`` names no registered tag."""


class UnknownAttributeError(TargetError):
    """An attribute that the target's kind (and compiler) does not declare."""


class AttributeValueError(TargetError):
    """An attribute value of the wrong type, or outside what the schema allows."""


class PluginError(TargetError):
    """A plugin failed to load or register (raised in strict mode)."""


class PluginWarning(UserWarning):
    """A plugin failed to load or register and was skipped; the others still work."""


# Users meet these as ``tcfg.TargetError`` and so on (tracebacks print the module), and
# pickling finds them there: the module they are defined in is private.
for _error in (
    TargetError,
    TargetSyntaxError,
    UnknownKindError,
    UnknownTagError,
    UnknownAttributeError,
    AttributeValueError,
    PluginError,
    PluginWarning,
):
    _error.__module__ = "tcfg"


#: No name (kind, tag, attribute, CPU, feature) is longer; a longer word gets no suggestions.
MAX_NAME = 256


#: What code a plugin supplied may raise without having failed: its word on the input
#: (a :class:`TargetError`) and what the user or the interpreter asked for.
NOT_PLUGIN_FAULTS = (TargetError, KeyboardInterrupt, GeneratorExit)


def plugin_code(what: Callable[[], str], call: Callable[[], T]) -> T:
    """``call()``, code a plugin supplied (a rule, a CPU parser's method), blamed on ``what()`` if it breaks.

    A :class:`TargetError` (the plugin's word on the input) and ``KeyboardInterrupt`` pass
    through; any other exception, ``SystemExit`` included, becomes a :class:`PluginError`
    naming ``what()`` (made only then: this wraps per-target calls), so that the error
    names the code at fault and never exits the process.
    """
    try:
        return call()
    except NOT_PLUGIN_FAULTS:
        raise
    except BaseException as exc:
        raise plugin_failed(what(), exc) from exc


def plugin_failed(what: str, exc: BaseException) -> PluginError:
    """The error for code a plugin supplied that raised ``exc`` (none of :data:`NOT_PLUGIN_FAULTS`),
    blamed on ``what``; raise it ``from exc``. ``SystemExit`` is such a failure: plugin code never
    exits the process."""
    return PluginError(f"{what} failed: {type(exc).__name__}: {shorten(exc)}")


def closest(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The up-to-``n`` names in ``choices`` that look most like ``word`` (none for a word too long to be a name)."""
    if len(word) > MAX_NAME:
        return []
    import difflib
    import unicodedata

    pool = list(choices)
    plain = unicodedata.normalize("NFKC", word)
    if plain != word and plain in pool:
        return [plain]
    found = difflib.get_close_matches(word, pool, n=n, cutoff=0.6)
    if not found:
        lowered = word.lower()
        found = [c for c in pool if lowered and (lowered in c.lower() or c.lower() in lowered)][:n]
    return found


def describe_choices(word: str, choices: Iterable[str], *, limit: int = 12) -> str:
    """A sentence offering the closest names to ``word``, or the valid ones if few."""
    pool = sorted(set(choices))
    near = closest(word, pool)
    if near:
        return "did you mean " + ", ".join(repr(c) for c in near) + "?"
    if not pool:
        return "there are none"
    if len(pool) <= limit:
        return "valid choices: " + ", ".join(repr(c) for c in pool)
    return f"valid choices include: {', '.join(repr(c) for c in pool[:limit])} (and {len(pool) - limit} more)"


def bounded_repr(value: Any) -> str:
    """``repr(value)`` bounded in depth, items and string length, digit-safe and never raising
    (:func:`tcfg._base.bounded.safe_repr`, imported on first use)."""
    from tcfg._base.bounded import safe_repr

    return safe_repr(value)


def shorten(value: Any, limit: int = 200) -> str:
    """``value`` for an error message, cut at ``limit``: a string or a target as its text, anything
    else as a repr bounded in depth and size (so a huge or deep input costs nothing to quote, and
    an integer too long to print or a value whose ``str`` fails is described instead)."""
    if type(value) is str:
        text = value
    else:
        from tcfg._base.bounded import safe_str

        text = safe_str(value)
    return text if len(text) <= limit else text[:limit] + "..."
