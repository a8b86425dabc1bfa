"""Target kinds, BYOC compilers, ``-libs`` libraries and what their parsers derive."""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from tcfg._base.errors import (
    NOT_PLUGIN_FAULTS,
    AttributeValueError,
    PluginError,
    bounded_repr,
    describe_choices,
    plugin_code,
    plugin_failed,
    shorten,
)
from tcfg._base.grammar import NAME
from tcfg._model.attrs import (
    NOT_TYPE_FAULTS,
    Attr,
    Integer,
    IntegerChoice,
    String,
    StringList,
    TargetValue,
    attr_table,
)
from tcfg._model.features import Feature, FeatureValue
from tcfg._model.portable import Portable

if TYPE_CHECKING:
    from tcfg._model.registry_view import RegistryView

__all__ = [
    "COMMON_ATTRS",
    "DLPACK_DEVICES",
    "Compiler",
    "DeriveRequest",
    "Derived",
    "Library",
    "Parser",
    "Rule",
    "TargetKind",
    "attr_of",
    "attr_type_failed",
    "check_hashable",
    "check_libs",
]

_EMPTY: Mapping[str, Any] = MappingProxyType({})

#: DLPack's device type codes (``DLDeviceType`` in dlpack.h, as TVM 0.27 ships it) and their names.
DLPACK_DEVICES: Mapping[int, str] = MappingProxyType(
    {
        1: "cpu",
        2: "cuda",
        3: "cuda_host",
        4: "opencl",
        7: "vulkan",
        8: "metal",
        9: "vpi",
        10: "rocm",
        11: "rocm_host",
        12: "ext_dev",
        13: "cuda_managed",
        14: "oneapi",
        15: "webgpu",
        16: "hexagon",
        17: "maia",
        18: "trn",
    }
)

#: The attributes every kind has.
COMMON_ATTRS: tuple[Attr, ...] = (
    Attr("keys", StringList(), doc="Dispatch keys given by the user; they come first in target.keys."),
    Attr(
        "libs",
        StringList(),
        doc="External libraries the generated code may call (cublas, cudnn, ...); checked against the "
        "libraries plugins register for the kind, when any do.",
    ),
    Attr("device", String(), doc="A device name, for runtimes that choose by name."),
    Attr("model", String(), doc="The device model, for information and dispatch."),
    Attr(
        "from_device",
        Integer(minimum=0),
        doc="TVM's option: the index of a device of this kind whose properties the target describes "
        "(recorded as given; tcfg reads this machine's devices with -arch=native/-mcpu=native and tcfg detect).",
    ),
    Attr(
        "target_device_type",
        IntegerChoice(DLPACK_DEVICES),
        doc="TVM's option: the DLPack device type code of the device the generated code runs on.",
    ),
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
    registry: "RegistryView"
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
#: A library's or component's rule: None where it is valid, else why not (a sentence).
Rule = Callable[[DeriveRequest], "str | None"]


@dataclass(frozen=True)
class TargetKind:
    """A kind of target: its name, device type, attributes, default keys, parser and features.

    ``attrs`` are the kind's own attributes; the common ones (keys, libs, device,
    model, from_device, target_device_type, compiler, tag, host) are added. An
    attribute's ``aliases`` are accepted as its names in input and renamed by
    :meth:`canonical_names`. ``parser`` derives keys and features and may refuse
    attributes; ``features`` declares what it can derive.

    ``parse_reads``, if given, names the attributes whose values (given or default)
    determine everything the parser returns. The builder then runs the parser once
    per distinct combination of them (per registry) and reuses the result, and the
    attributes it changed, for every target that agrees on them: targets that differ
    only in ``model``, ``libs`` or ``host`` are parsed once. A target with the value
    ``native`` (this machine) in one of them is parsed every time. Each must be an
    attribute of the kind (a ``ValueError`` otherwise).

    ``portable`` answers the portable vocabulary (:mod:`tcfg._model.portable`) for a target
    of this kind: a mapping from every portable name to an ``Answer(value, why)``, ``why``
    naming the vendor fact the value comes from (or why it is None: truly unknown). Called
    at the first portable read of a target, never while building one.

    ``dlpack_device_type`` is the DLPack device type code (``DLDeviceType`` in dlpack.h, a key
    of :data:`DLPACK_DEVICES`) of the device the kind's code runs on: 1 (``kDLCPU``) for CPU
    kinds, 2 for CUDA, ... Every plugin sets it for its kinds (TVM's ``device_from_target``,
    ``get_target_device_type``); None only for a kind that names no device.
    """

    name: str
    device_type: str
    attrs: Sequence[Attr] = ()
    default_keys: tuple[str, ...] = ()
    parser: Parser | None = None
    features: Sequence[Feature] = ()
    doc: str = ""
    parse_reads: tuple[str, ...] = ()
    dlpack_device_type: int | None = None
    portable: Portable | None = field(default=None, compare=False)
    table: Mapping[str, Attr] = field(init=False, repr=False, compare=False)
    defaults: Mapping[str, Any] = field(init=False, repr=False, compare=False)
    # The target builder's lookups: plain dicts, which read faster than the proxies above.
    _table: dict[str, Attr] = field(init=False, repr=False, compare=False)  # aliases included
    _defaults: dict[str, Any] = field(init=False, repr=False, compare=False)
    _rank: dict[str, int] = field(init=False, repr=False, compare=False)  # position in canonical order
    _aliases: dict[str, str] = field(init=False, repr=False, compare=False)  # alias -> canonical name

    def __post_init__(self) -> None:
        if not NAME.match(self.name):
            raise ValueError(f"kind name {self.name!r} must match {NAME.pattern}")
        if self.dlpack_device_type is not None and self.dlpack_device_type not in DLPACK_DEVICES:
            raise ValueError(
                f"kind {self.name!r}: dlpack_device_type {self.dlpack_device_type!r} is not a DLPack device type; "
                f"valid: {', '.join(f'{code} ({name})' for code, name in DLPACK_DEVICES.items())}"
            )
        own = attr_table(self.attrs)
        aliases = {alias: attr.name for attr in self.attrs for alias in attr.aliases}
        clash = sorted((set(own) | set(aliases)) & set(_COMMON_TABLE))
        if clash:
            raise ValueError(f"kind {self.name!r} redeclares common attributes {clash}")
        _set_tables(self, {**own, **_COMMON_TABLE})
        if aliases:  # the builder's table reads an alias as its attribute; the public table does not list it
            _assign(self, _table={**self._table, **{a: own[n] for a, n in aliases.items()}})
        _assign(self, _aliases=aliases)
        unread = [name for name in self.parse_reads if name not in self._table]
        if unread:
            raise ValueError(
                f"kind {self.name!r}: parse_reads names {unread}, which are not its attributes; "
                f"its attributes are {sorted(self._table)}"
            )

    def canonical_names(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        """``attrs`` with every alias renamed to its attribute's name.

        An alias and its attribute (or two aliases of one attribute) given with different
        values is an :class:`~tcfg.AttributeValueError`; with equal values they are one.
        """
        out: dict[str, Any] = {}
        for key, value in attrs.items():
            name = self._aliases.get(key, key)
            if name in out and out[name] != value:
                given = [k for k in attrs if self._aliases.get(k, k) == name]
                raise AttributeValueError(
                    f"-{' and -'.join(given)} name the same attribute of kind {self.name!r} "
                    f"(-{name}; -{', -'.join(a for a, n in self._aliases.items() if n == name)} "
                    f"{'is its alias' if len(given) == 2 else 'are its aliases'}) but are given different values "
                    f"{out[name]!r} and {value!r}; give one"
                )
            out[name] = value
        return out

    def schema(self, registry: "RegistryView | None" = None) -> type[Any]:
        """A marshmallow schema class of this kind's attributes (nested targets use ``registry``)."""
        from tcfg._model import view

        schema: type[Any] = view.service("marshmallow_schema")(
            self, registry if registry is not None else view.default_registry()
        )
        return schema

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
        aliased = [attr.name for attr in self.attrs if attr.aliases]
        if aliased:
            raise ValueError(f"compiler {self.name!r}: only a kind's attributes may have aliases, not {aliased}")
        _set_tables(self, dict(attr_table(self.attrs)))


@dataclass(frozen=True)
class Library:
    """An external library a target of ``kinds`` may name in ``-libs`` (``cuda -libs=cudnn``).

    Plugins register libraries with the ``tcfg_register_libraries`` hook.
    Once any library is registered for a kind, every ``-libs`` name of a target of that
    kind must be one registered for it whose ``rule`` accepts the target; a kind for which
    none is registered takes any name. Several plugins may register the same name for a
    kind (OpenBLAS for x86 and for Arm): the target needs one whose rule accepts it.
    ``rule`` (None: valid on every target of the kinds) sees the target's attributes and
    its kind's features and returns None, or why the library cannot be used there. ``where``
    says in a few words where it is valid (for the error that lists the choices);
    ``source`` cites the facts the rule follows.
    """

    name: str
    kinds: tuple[str, ...]
    doc: str = ""
    rule: Rule | None = None
    where: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        if not NAME.match(self.name):
            raise ValueError(f"library name {self.name!r} must match {NAME.pattern}")


def check_libs(libs: Sequence[str], libraries: Sequence[Library], request: DeriveRequest) -> None:
    """Refuse a ``-libs`` name that no library of ``libraries`` (those of the target's kind) accepts.

    Nothing is checked when ``libraries`` is empty. The error names the library, why it
    does not fit (each registration's reason and where it is valid), and the libraries
    valid for this target.
    """
    if not libraries:
        return
    by_name: dict[str, list[Library]] = {}
    for library in libraries:
        by_name.setdefault(library.name, []).append(library)
    for lib in libs:
        found = by_name.get(lib)
        if found is None:
            raise AttributeValueError(
                f"-libs={lib}: no installed plugin registers the library {lib!r} for kind {request.kind!r}; "
                f"{describe_choices(lib, by_name)}; valid for this target: {_valid_here(by_name, request)}"
            )
        reasons = []
        for library in found:
            reason = _refusal(library, request)
            if reason is None:
                break
            reasons.append(f"{reason} (valid on {library.where})" if library.where else reason)
        else:
            raise AttributeValueError(
                f"-libs={lib}: {'; '.join(reasons)}; valid for this target: {_valid_here(by_name, request)}"
            )


def _refusal(library: Library, request: DeriveRequest) -> str | None:
    rule = library.rule
    if rule is None:
        return None
    return plugin_code(partial(_rule_name, library), partial(rule, request))


def _rule_name(library: Library) -> str:
    code = f"{getattr(library.rule, '__module__', '?')}.{getattr(library.rule, '__qualname__', '?')}"
    return f"the rule of library {library.name!r} ({code})"


def _valid_here(by_name: Mapping[str, Sequence[Library]], request: DeriveRequest) -> str:
    valid = [name for name, found in sorted(by_name.items()) if any(_refusal(x, request) is None for x in found)]
    return ", ".join(valid) if valid else "none"


def _set_tables(owner: TargetKind | Compiler, table: dict[str, Attr]) -> None:
    """Fill the derived fields of a kind or compiler from its attribute table."""
    defaults = {n: a.default for n, a in table.items() if a.default is not None}
    _assign(
        owner,
        table=MappingProxyType(table),
        defaults=MappingProxyType(defaults),
        _table=table,
        _defaults=defaults,
        _rank={name: i for i, name in enumerate(table)},
    )


def attr_of(kind: TargetKind, compiler: Compiler | None, name: str) -> Attr | None:
    """The attribute ``name`` of a target (an alias included): the kind's, else its BYOC compiler's, else None."""
    attr = kind._table.get(name)
    if attr is None and compiler is not None:
        attr = compiler._table.get(name)
    return attr


def _attr_blame(registry: "RegistryView", kind: TargetKind, compiler: Compiler | None, name: str, method: str) -> str:
    """``method`` of the type of attribute ``name``, the attribute, its kind and plugin (or compiler), for errors."""
    attr = attr_of(kind, compiler, name)
    if attr is None:  # not the builder's call: it checks every name first
        return f"the type of attribute {name!r} of kind {kind.name!r}"
    cls = type(attr.type)
    where = f"{cls.__module__}.{cls.__qualname__}{'.' if method else ''}{method}"
    if name in kind._table or compiler is None:
        return f"{where} of attribute {name!r} of kind {kind.name!r} (plugin {registry.owner('kind', kind.name)!r})"
    return f"{where} of attribute {name!r} of compiler {compiler.name!r} (kind {kind.name!r})"


def attr_type_failed(
    exc: BaseException,
    registry: "RegistryView",
    kind: TargetKind,
    compiler: Compiler | None,
    name: str,
    method: str,
    text: Any,
) -> NoReturn:
    """Raise the error for an attribute type's ``method`` that raised ``exc`` reading or printing
    ``text`` (call it in the ``except`` block, after handling ``InvalidValue`` and ``TargetError``).

    What is no type's fault (:data:`~tcfg._model.attrs.NOT_TYPE_FAULTS`) passes through; anything
    else, ``SystemExit`` included, is a :class:`PluginError` naming the type, the attribute, its
    kind and the plugin.
    """
    if isinstance(exc, NOT_TYPE_FAULTS):
        raise exc
    blamed = _attr_blame(registry, kind, compiler, name, method)
    raise plugin_failed(f"target {shorten(text)!r}: {blamed}", exc) from exc


def check_hashable(
    registry: "RegistryView",
    kind: TargetKind,
    compiler: Compiler | None,
    names: Sequence[str],
    values: Mapping[str, Any],
    text: Any,
) -> None:
    """Refuse a value of ``names`` in ``values`` that does not hash (every :class:`Target` hashes).

    For the types whose values are not hashable by construction
    (:func:`~tcfg._model.attrs.hashable_values`): a plugin's.
    """
    for name in names:
        if name not in values:
            continue
        value = values[name]
        try:
            hash(value)
        except NOT_PLUGIN_FAULTS:
            raise
        except BaseException as exc:
            raise PluginError(
                f"target {shorten(text)!r}: {_attr_blame(registry, kind, compiler, name, '')} gave the "
                f"unhashable value {bounded_repr(value)} ({type(exc).__name__}: {shorten(str(exc))}); attribute "
                "values must be hashable, as targets are (a tuple, not a list)"
            ) from None


def _assign(record: object, **values: Any) -> None:
    """Set the derived fields of a frozen record while it is made (in ``__post_init__``)."""
    for name, value in values.items():
        object.__setattr__(record, name, value)
