"""Typed attribute declarations: what values a kind's attributes take, from text and from JSON.

Each :class:`AttrType` converts the string grammar's text (:meth:`~AttrType.from_text`)
and checks already-typed dict/JSON values strictly (:meth:`~AttrType.check`: ``"4"`` is
not an int, ``1`` is not a string). It prints values back for ``str(target)``
(:meth:`~AttrType.to_text`) and ``export()`` (:meth:`~AttrType.to_json`), describes
itself as JSON Schema, and as a marshmallow field for :meth:`TargetKind.schema`.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from tcfg._base.errors import NOT_PLUGIN_FAULTS, bounded_repr
from tcfg._base.grammar import MAX_TEXT, OPTION_NAME, RawValue, quote, quote_item, quote_nested
from tcfg._base.memo import Memo

if TYPE_CHECKING:
    from tcfg._model.registry_view import RegistryView

__all__ = [
    "Attr",
    "AttrType",
    "Boolean",
    "Choice",
    "Integer",
    "IntegerChoice",
    "InvalidValue",
    "LongValue",
    "String",
    "StringList",
    "TargetList",
    "TargetValue",
    "BuildContext",
    "BuilderSignal",
    "FEW_ITEMS",
    "NOT_TYPE_FAULTS",
    "SHORT_TEXT",
    "hashable_values",
]


class BuildContext(Protocol):
    """What attribute types get from the target builder: nested targets and the registry.

    A context whose ``counts`` is true reads a dict at the outermost level: there a check
    raises :class:`LongValue` for a value longer than :meth:`AttrType.text_bound` allows.
    """

    @property
    def registry(self) -> RegistryView:
        """The registry nested targets are built with."""

    @property
    def counts(self) -> bool:
        """Whether this context reads a dict at the outermost level."""

    def __call__(self, spec: Any) -> Any:
        """The nested target for ``spec`` (one level deeper)."""


_INT_TEXT = re.compile(r"[+-]?[0-9]{1,19}\Z")
#: Integer attributes hold 64-bit signed values, as LLVM's and TVM's do.
_INT64 = range(-(2**63), 2**63)
#: Most values a :class:`String` remembers as matching its pattern (cleared whole when full).
_MATCHED_LIMIT = 1024


class InvalidValue(Exception):
    """A value the attribute type refuses; the builder adds the input and position."""


#: In a dict read at the outermost level, a string longer than this or a list of more items
#: counts as long: the builder then measures the target's canonical text (see LongValue).
SHORT_TEXT = 64
FEW_ITEMS = 16
#: The most characters one character of a value takes in canonical text: a control
#: character is six in JSON (``\u0001``).
_ESCAPED = 6


class BuilderSignal(Exception):
    """An exception the builder raises to itself through attribute types (:class:`LongValue`,
    nesting too deep): never an attribute type's failure."""


#: What an attribute type's method may raise without having failed (besides
#: :class:`InvalidValue`, its word on a value): see :data:`tcfg._base.errors.NOT_PLUGIN_FAULTS`.
#: A ``RecursionError`` is the nesting's, not the type's.
NOT_TYPE_FAULTS = (*NOT_PLUGIN_FAULTS, BuilderSignal, RecursionError)


class LongValue(BuilderSignal):
    """Raised by a check in a counting context (``build.counts``) for a value over its short bound.

    The builder then reads the dict again in an ordinary context and measures the whole
    target's canonical text against ``MAX_TEXT``: a dict, unlike a string, has no length
    of its own to hold to the limit, and measuring every target would cost more than
    building it.
    """


def _counts(build: object) -> bool:
    """Whether ``build`` is a counting context (plugins may check values with ``None``)."""
    return getattr(build, "counts", False) is True


def _type_name(value: object) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return f"the non-finite number {value!r}"
    return f"{type(value).__name__} {bounded_repr(value)}" if not isinstance(value, str) else bounded_repr(value)


class AttrType(ABC):
    """How one attribute's values are read, checked and printed."""

    #: A phrase for error messages, e.g. "an integer".
    description: str = ""
    #: Whether values are targets, built through the :class:`BuildContext`. Values of
    #: other types must depend only on the input (and the registry): the builder reuses
    #: them for equal input text.
    holds_targets: bool = False
    #: Whether every text is a valid value, as itself (a :class:`String` without a
    #: pattern): such words are not worth remembering, converting them costs nothing.
    free_text: bool = False

    @abstractmethod
    def from_text(self, raw: RawValue, build: BuildContext) -> Any:
        """The value of ``raw`` (text from the string grammar)."""

    @abstractmethod
    def check(self, value: Any, build: BuildContext) -> Any:
        """``value`` (from a dict or JSON) in canonical form, or :class:`InvalidValue`."""

    def to_text(self, value: Any) -> str:
        """``value`` as it appears after ``-key=`` in ``str(target)``."""
        return quote(str(value))

    def to_json(self, value: Any) -> Any:
        """``value`` as it appears in ``export()``."""
        return value

    @abstractmethod
    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of this type's JSON form."""

    def text_bound(self) -> int | None:
        """The most characters a value takes in canonical text (``str`` or JSON) when :meth:`check`
        accepted it in a counting context without :class:`LongValue`; None: no bound (the
        builder measures every outermost target that has such a value)."""
        return None

    @property
    def is_flag(self) -> bool:
        """Whether the string grammar accepts a bare ``-key`` for this type."""
        return False


class String(AttrType):
    """Any text, optionally matching ``pattern`` (described by ``what`` in errors)."""

    def __init__(self, pattern: str | None = None, what: str = "") -> None:
        self._source = pattern or None
        self._regex: re.Pattern[str] | None = None  # compiled on first use: most kinds' never are
        self.description = f"a string ({what})" if what else "a string"
        self.free_text = self._source is None
        self._matched: Memo[str, bool] = Memo(_MATCHED_LIMIT)  # values the pattern accepted

    @property
    def pattern(self) -> re.Pattern[str] | None:
        """The compiled pattern, or None for any text."""
        return None if self._source is None else self._regex or self._compile(self._source)

    def _compile(self, source: str) -> re.Pattern[str]:
        regex = self._regex = re.compile(source)
        return regex

    def from_text(self, raw: RawValue, build: BuildContext) -> str:
        return self.check(raw.text, build)

    def check(self, value: Any, build: BuildContext) -> str:
        # Attribute reads only, no __getattr__ (a class with one loses CPython's fast attribute path).
        if type(value) is not str and not isinstance(value, str):
            raise InvalidValue(f"expects {self.description}, got {_type_name(value)}")
        if len(value) > SHORT_TEXT:
            if len(value) > MAX_TEXT:
                raise InvalidValue(f"expects {self.description} of at most {MAX_TEXT} characters, got {len(value)}")
            if _counts(build):
                raise LongValue
        source = self._source
        if source is not None and value not in self._matched:
            if not (self._regex or self._compile(source)).fullmatch(value):
                raise InvalidValue(self._mismatch(value))
            self._matched.put(value, True)
        return value

    def _mismatch(self, value: str) -> str:
        """Why ``value`` does not match the pattern."""
        odd = next((c for c in value if not c.isascii()), None)
        note = f" (it contains the non-ASCII character {odd!r}, U+{ord(odd):04X})" if odd else ""
        return f"expects {self.description}, got {value!r}{note}"

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string"}
        if self._source is not None:
            schema["pattern"] = f"^(?:{self._source})$"
        return schema

    def text_bound(self) -> int:
        return _ESCAPED * SHORT_TEXT + 2


class Integer(AttrType):
    """A whole number within ``[minimum, maximum]`` (JSON booleans are not numbers)."""

    def __init__(self, minimum: int | None = None, maximum: int | None = None) -> None:
        self.minimum, self.maximum = minimum, maximum
        bounds = []
        if minimum is not None:
            bounds.append(f">= {minimum}")
        if maximum is not None:
            bounds.append(f"<= {maximum}")
        self.description = "an integer" + (f" {' and '.join(bounds)}" if bounds else "")

    def from_text(self, raw: RawValue, build: BuildContext) -> int:
        if not _INT_TEXT.match(raw.text):
            shown = raw.text if len(raw.text) <= 40 else f"{raw.text[:20]}... ({len(raw.text)} characters)"
            raise InvalidValue(f"expects {self.description} (64-bit), got {shown!r}")
        return self.check(int(raw.text), build)

    def check(self, value: Any, build: BuildContext) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidValue(f"expects {self.description}, got {_type_name(value)}")
        if value not in _INT64:
            raise InvalidValue(f"expects {self.description} (64-bit), got an integer of {value.bit_length()} bits")
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise InvalidValue(f"expects {self.description}, got {value}")
        return value

    def to_text(self, value: Any) -> str:
        return str(value)

    def text_bound(self) -> int:
        return len(str(_INT64.start))

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "integer"}
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        return schema


#: The string grammar's spellings of booleans (after lower-casing, as TVM reads ``True``): tcfg's and TVM's ``1``/``0``.
_BOOL_TEXT = {"true": True, "false": False, "1": True, "0": False}


class Boolean(AttrType):
    """``true``/``false`` in any case (``True``, as TVM reads it), or TVM's ``1``/``0`` in text; a bare
    ``-flag`` in the string grammar means true."""

    description = "a boolean (true or false)"

    def from_text(self, raw: RawValue, build: BuildContext) -> bool:
        value = _BOOL_TEXT.get(raw.text)
        if value is None and len(raw.text) <= len("false"):
            value = _BOOL_TEXT.get(raw.text.lower())
        if value is None:
            raise InvalidValue(f"expects {self.description}, got {raw.text!r}")
        return value

    def check(self, value: Any, build: BuildContext) -> bool:
        if not isinstance(value, bool):
            raise InvalidValue(f"expects {self.description}, got {_type_name(value)}")
        return value

    def to_text(self, value: Any) -> str:
        return "true" if value else "false"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}

    def text_bound(self) -> int:
        return len("false")

    @property
    def is_flag(self) -> bool:
        return True


class Choice(AttrType):
    """One of a fixed set of strings."""

    def __init__(self, choices: Sequence[str]) -> None:
        self.choices = tuple(choices)
        self.description = "one of " + ", ".join(repr(c) for c in self.choices)

    def from_text(self, raw: RawValue, build: BuildContext) -> str:
        return self.check(raw.text, build)

    def check(self, value: Any, build: BuildContext) -> str:
        if not isinstance(value, str) or value not in self.choices:
            raise InvalidValue(f"expects {self.description}, got {_type_name(value)}")
        return value

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.choices)}

    def text_bound(self) -> int:
        return _ESCAPED * max(map(len, self.choices), default=0) + 2


class IntegerChoice(Integer):
    """One of a fixed set of integers, each with a name shown in errors (DLPack's device type codes)."""

    def __init__(self, choices: Mapping[int, str]) -> None:
        super().__init__(min(choices), max(choices))
        self.choices = dict(choices)
        self.description = "one of " + ", ".join(f"{code} ({name})" for code, name in self.choices.items())

    def check(self, value: Any, build: BuildContext) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value in self.choices:
            return value
        raise InvalidValue(f"expects {self.description}, got {_type_name(value)}")

    def json_schema(self) -> dict[str, Any]:
        return {"type": "integer", "enum": list(self.choices)}


class StringList(AttrType):
    """A list of strings, comma-separated in the string grammar; held as a tuple."""

    def __init__(self, item: String | Choice | None = None) -> None:
        self.item = item if item is not None else String()
        self.description = f"a list of {self.item.description.removeprefix('a ').removeprefix('an ')}"
        if isinstance(self.item, Choice):
            self.description = f"a list, each {self.item.description}"

    def from_text(self, raw: RawValue, build: BuildContext) -> tuple[str, ...]:
        return tuple(self.item.check(part, build) for part in raw.split_list())

    def check(self, value: Any, build: BuildContext) -> tuple[str, ...]:
        if not isinstance(value, (list, tuple)):
            raise InvalidValue(f"expects {self.description}, got {_type_name(value)}")
        if len(value) > FEW_ITEMS and _counts(build):
            raise LongValue
        check = self.item.check
        try:
            return tuple([check(part, build) for part in value])  # a list is built faster than a generator runs
        except InvalidValue as exc:
            raise InvalidValue(f"expects {self.description}: an item {exc}") from None

    def to_text(self, value: Any) -> str:
        return ",".join(quote_item(v) for v in value)

    def to_json(self, value: Any) -> list[str]:
        return list(value)

    def json_schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.item.json_schema()}

    def text_bound(self) -> int:
        return FEW_ITEMS * (self.item.text_bound() + len(", ")) + 2


class TargetValue(AttrType):
    """A nested target (``-host='llvm -mcpu=...'``, or a dict/JSON/Target in dict input)."""

    description = "a target (a string, a dict or a Target)"
    holds_targets = True

    def from_text(self, raw: RawValue, build: BuildContext) -> Any:
        return build(raw.text)

    def check(self, value: Any, build: BuildContext) -> Any:
        if _counts(build):  # the nested target's size is known only once it is printed
            raise LongValue
        return build(value)

    def to_text(self, value: Any) -> str:
        return quote_nested(str(value))

    def to_json(self, value: Any) -> dict[str, Any]:
        exported: dict[str, Any] = value.export()
        return exported

    def json_schema(self) -> dict[str, Any]:
        return {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/target"}]}

    def text_bound(self) -> int:
        return 0  # never accepted in a counting context


class TargetList(AttrType):
    """A list of nested targets: comma-separated quoted target strings in the string grammar."""

    description = "a list of targets"
    holds_targets = True

    def from_text(self, raw: RawValue, build: BuildContext) -> tuple[Any, ...]:
        return tuple(build(part) for part in raw.split())

    def check(self, value: Any, build: BuildContext) -> tuple[Any, ...]:
        if not isinstance(value, (list, tuple)):
            raise InvalidValue(f"expects {self.description}, got {_type_name(value)}")
        if _counts(build):
            raise LongValue
        return tuple(build(part) for part in value)

    def to_text(self, value: Any) -> str:
        return ",".join(quote_nested(str(t)) for t in value)

    def to_json(self, value: Any) -> list[dict[str, Any]]:
        return [t.export() for t in value]

    def json_schema(self) -> dict[str, Any]:
        return {"type": "array", "items": TargetValue().json_schema()}

    def text_bound(self) -> int:
        return 0  # never accepted in a counting context


#: The core's types whose every value is hashable by construction (exactly these classes:
#: a subclass may return anything).
_HASHABLE_TYPES = frozenset({String, Integer, Boolean, Choice, IntegerChoice, TargetValue, TargetList})


def hashable_values(attr_type: AttrType) -> bool:
    """Whether every value ``attr_type`` gives is hashable by construction (the core's types); the
    builder checks the values of any other type (a plugin's), since a :class:`Target` must hash."""
    if type(attr_type) is StringList:
        return type(attr_type.item) in _HASHABLE_TYPES
    return type(attr_type) in _HASHABLE_TYPES


@dataclass(frozen=True)
class Attr:
    """One declared attribute of a kind or BYOC compiler.

    ``default`` is None when the attribute is absent unless given; a default is
    filled into ``target.attrs`` and never printed by ``str()`` or ``export()``.
    ``aliases`` are other names accepted for it in string, dict and JSON input (TVM's
    ``cuda -mcpu`` for ``-arch``); a target holds and prints the canonical ``name`` only,
    and giving two of its names with different values is an error. Only a kind's own
    attributes may have aliases.
    """

    name: str
    type: AttrType
    default: Any = None
    doc: str = ""
    aliases: tuple[str, ...] = ()

    def json_schema(self) -> dict[str, Any]:
        """This attribute's JSON Schema, with its doc and default."""
        schema = dict(self.type.json_schema())
        if self.doc:
            schema["description"] = self.doc
        if self.default is not None:
            schema["default"] = self.type.to_json(self.default)
        return schema


def attr_table(attrs: Sequence[Attr]) -> Mapping[str, Attr]:
    """``attrs`` by name, refusing duplicates and names the string grammar cannot write as ``-name``.

    Aliases are checked the same way (none may repeat a name) but are not keys of the table.
    """
    table: dict[str, Attr] = {}
    taken: set[str] = set()
    for attr in attrs:
        for name in (attr.name, *attr.aliases):
            if not isinstance(name, str) or not OPTION_NAME.match(name):
                raise ValueError(f"attribute name {name!r} must match {OPTION_NAME.pattern}")
            if name in taken:
                raise ValueError(f"attribute {name!r} is declared twice")
            taken.add(name)
        table[attr.name] = attr
    return table
