"""Target kinds, BYOC compilers and what their parsers derive."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from tcfg._base_features import Feature, FeatureValue
from tcfg._base_grammar import NAME
from tcfg._model_schema import Attr, String, StringList, TargetValue, attr_table

if TYPE_CHECKING:
    from tcfg._engine_registry import Registry

__all__ = ["COMMON_ATTRS", "Compiler", "DeriveRequest", "Derived", "Parser", "TargetKind", "attr_of"]

_EMPTY: Mapping[str, Any] = MappingProxyType({})

#: The attributes every kind has.
COMMON_ATTRS: tuple[Attr, ...] = (
    Attr("keys", StringList(), doc="Dispatch keys given by the user; they come first in target.keys."),
    Attr("libs", StringList(), doc="External libraries the generated code may call (cublas, cudnn, ...)."),
    Attr("device", String(), doc="A device name, for runtimes that choose by name."),
    Attr("model", String(), doc="The device model, for information and dispatch."),
    Attr("compiler", String(), doc="A BYOC compiler registered for this kind by some plugin."),
    Attr("tag", String(), doc="The tag this target was built from."),
    Attr("host", TargetValue(), doc="The target that runs the host side of this target's code."),
)
_COMMON_TABLE = attr_table(COMMON_ATTRS)


class DeriveRequest(NamedTuple):
    """What a parser sees: the kind's name, the attributes (given plus defaults), the registry.

    ``features`` holds what earlier steps derived (a BYOC compiler sees the kind's features).
    """

    kind: str
    attrs: Mapping[str, Any]
    registry: Registry
    features: Mapping[str, FeatureValue] = _EMPTY


class Derived(NamedTuple):
    """What a parser derives from a target's attributes.

    ``attrs``: the attributes to use instead (a parser may fill or canonicalise them,
    not drop any; None keeps them). Parsing must be idempotent: parsing the returned attributes again
    returns them unchanged, so that ``str()``/``export()`` round-trip. ``keys``: dispatch
    keys in priority order. ``features``: canonical feature names (declared by the
    parser's owner) to values; absent means ``False``. ``why``: for a feature name, a
    sentence saying which option, CPU or version implied it. ``defaults``: values for
    attributes the user did not give that follow from those given (a GPU arch's
    register file): they fill ``target.attrs`` like a kind's defaults (overriding those) and, like them,
    are not printed by ``str()`` or ``export()``; a given value equal to one is dropped.
    """

    attrs: Mapping[str, Any] | None = None
    keys: tuple[str, ...] = ()
    features: Mapping[str, FeatureValue] = _EMPTY
    why: Mapping[str, str] = _EMPTY
    defaults: Mapping[str, Any] = _EMPTY


#: A kind's or compiler's parser: raises TargetError for attributes it refuses.
Parser = Callable[[DeriveRequest], Derived]


@dataclass(frozen=True)
class TargetKind:
    """A kind of target: its name, device type, attributes, default keys, parser and features.

    ``attrs`` are the kind's own attributes; the common ones (keys, libs, device,
    model, tag, host, compiler) are added. ``parser`` derives keys and features and
    may refuse attributes; ``features`` declares what it can derive.

    ``parse_reads``, if given, names the attributes whose values (given or default)
    determine everything the parser returns. The builder then runs the parser once
    per distinct combination of them (per registry) and reuses the result, and the
    attributes it changed, for every target that agrees on them: targets that differ
    only in ``model``, ``libs`` or ``host`` are parsed once. A target with the value
    ``native`` (this machine) in one of them is parsed every time. Each must be an
    attribute of the kind (a ``ValueError`` otherwise).
    """

    name: str
    device_type: str
    attrs: Sequence[Attr] = ()
    default_keys: tuple[str, ...] = ()
    parser: Parser | None = None
    features: Sequence[Feature] = ()
    doc: str = ""
    parse_reads: tuple[str, ...] = ()
    table: Mapping[str, Attr] = field(init=False, repr=False, compare=False)
    defaults: Mapping[str, Any] = field(init=False, repr=False, compare=False)
    # The target builder's lookups: plain dicts, which read faster than the proxies above.
    _table: dict[str, Attr] = field(init=False, repr=False, compare=False)
    _defaults: dict[str, Any] = field(init=False, repr=False, compare=False)
    _rank: dict[str, int] = field(init=False, repr=False, compare=False)  # position in canonical order

    def __post_init__(self) -> None:
        if not NAME.match(self.name):
            raise ValueError(f"kind name {self.name!r} must match {NAME.pattern}")
        own = attr_table(self.attrs)
        clash = sorted(set(own) & set(_COMMON_TABLE))
        if clash:
            raise ValueError(f"kind {self.name!r} redeclares common attributes {clash}")
        _set_tables(self, {**own, **_COMMON_TABLE})
        unread = [name for name in self.parse_reads if name not in self._table]
        if unread:
            raise ValueError(
                f"kind {self.name!r}: parse_reads names {unread}, which are not its attributes; "
                f"its attributes are {sorted(self._table)}"
            )

    def schema(self, registry: Registry | None = None) -> type[Any]:
        """A marshmallow schema class of this kind's attributes (nested targets use ``registry``)."""
        from tcfg._base_wiring import default_registry
        from tcfg._model_marshmallow import marshmallow_schema

        return marshmallow_schema(self, registry if registry is not None else default_registry())

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of this kind's dict/JSON form."""
        props: dict[str, Any] = {"kind": {"const": self.name}}
        props.update({name: attr.json_schema() for name, attr in sorted(self.table.items())})
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"tcfg target of kind {self.name!r}",
            "description": self.doc,
            "type": "object",
            "properties": props,
            "required": ["kind"],
            "additionalProperties": False,
            "$defs": {"target": {"type": "object", "required": ["kind"]}},
        }


@dataclass(frozen=True)
class Compiler:
    """A BYOC compiler that plugins offer for some kinds (``-compiler=tensorrt``).

    Its ``attrs`` become valid on targets that name it, and its ``parser`` (if any)
    runs after the kind's, seeing the kind's features; it may refuse the target.
    """

    name: str
    kinds: tuple[str, ...]
    attrs: Sequence[Attr] = ()
    parser: Parser | None = None
    features: Sequence[Feature] = ()
    doc: str = ""
    table: Mapping[str, Attr] = field(init=False, repr=False, compare=False)
    defaults: Mapping[str, Any] = field(init=False, repr=False, compare=False)
    _table: dict[str, Attr] = field(init=False, repr=False, compare=False)
    _defaults: dict[str, Any] = field(init=False, repr=False, compare=False)
    _rank: dict[str, int] = field(init=False, repr=False, compare=False)  # after all of the kind's

    def __post_init__(self) -> None:
        if not NAME.match(self.name):
            raise ValueError(f"compiler name {self.name!r} must match {NAME.pattern}")
        _set_tables(self, dict(attr_table(self.attrs)))


def _set_tables(owner: TargetKind | Compiler, table: dict[str, Attr]) -> None:
    """Fill the derived fields of a kind or compiler from its attribute table."""
    defaults = {n: a.default for n, a in table.items() if a.default is not None}
    object.__setattr__(owner, "table", MappingProxyType(table))
    object.__setattr__(owner, "defaults", MappingProxyType(defaults))
    object.__setattr__(owner, "_table", table)
    object.__setattr__(owner, "_defaults", defaults)
    object.__setattr__(owner, "_rank", {name: i for i, name in enumerate(table)})


def attr_of(kind: TargetKind, compiler: Compiler | None, name: str) -> Attr | None:
    """The attribute ``name`` of a target: the kind's, else its BYOC compiler's, else None."""
    attr = kind._table.get(name)
    if attr is None and compiler is not None:
        attr = compiler._table.get(name)
    return attr
