"""Finishing a target: from a kind and checked attributes to the immutable :class:`Target`.

:func:`finish` is the one tail of every reader: each reader (text, JSON and dict,
``tcfg._build.readers``) produces one :class:`Given` record, finished here once; a tag's
values go over its configuration first. It renames attribute aliases, checks the
compiler and the names (unless the reader did), fills the kind's and the compiler's
defaults, runs the parsers (``tcfg._build.derive``), orders the keys, checks ``-libs``
and, at the outermost level, measures what may print longer than ``MAX_TEXT``. The view
of each set of attribute names (a :class:`~tcfg._build.memo.Shape`) is made once.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from tcfg._base.errors import TargetError, shorten
from tcfg._base.grammar import MAX_TEXT
from tcfg._build.derive import MISSING, merged, more_derived, parse, unique, vet_features
from tcfg._build.lookup import attribute_named, compiler_named
from tcfg._build.memo import NOTHING, Shape
from tcfg._build.normal import check_tag, keys_change, without_empty
from tcfg._build.size import check_size
from tcfg._model.attrs import TargetList, hashable_values
from tcfg._model.features import FeatureValue
from tcfg._model.kind import Compiler, DeriveRequest, TargetKind, check_hashable, check_libs
from tcfg._model.target import Target

if TYPE_CHECKING:
    from tcfg._build.tables import Tables

__all__ = ["Given", "finish"]


class Given(NamedTuple):
    """What a reader read: the kind, the tag configuration the values go over (or None),
    the given values (each checked by its attribute type), and the input (for messages)."""

    kind: TargetKind
    base: Mapping[str, Any] | None
    values: dict[str, Any]
    text: Any


def finish(registry: "Tables", read: Given, depth: int, long_values: bool = False, checked: bool = True) -> Target:
    """The target of a reader's :class:`Given` at nesting ``depth``: defaults, parsers, the Target.

    Over a tag, the given values go over the tag's configuration. The reader checked every
    name and value (``checked``), so they need no second check, unless a given compiler
    replaces a tag's (whose attributes the tag's configuration may hold); a ``tag`` the
    values give is checked (:func:`~tcfg._build.normal.check_tag`), the tag a target is
    built from is not.

    At the outermost level (``depth`` 0) the canonical text of a target is measured
    against :data:`MAX_TEXT` when its input had ``long_values`` (see :func:`tcfg._build.entry.from_dict`) or
    its shape says its text may be long (see :func:`_new_shape`).
    """
    kind, base, attrs, text = read
    own_tag = False
    if base:
        checked = checked and ("compiler" not in attrs or attrs["compiler"] == base.get("compiler"))
        own_tag = "tag" not in attrs  # built from the tag it names
        attrs = {**base, **attrs}
    if kind._aliases and not kind._aliases.keys().isdisjoint(attrs):
        attrs = _canonical_names(kind, attrs, text)
    if "tag" in attrs or "keys" in attrs:
        attrs = without_empty(attrs)
    compiler = None if "compiler" not in attrs else compiler_named(registry, kind, attrs["compiler"], text)
    if not checked:
        _check_names(registry, kind, compiler, attrs, text)
    defaults = kind._defaults
    compiler_name = None
    if compiler is not None:
        compiler_name = compiler.name
        if compiler._defaults:
            defaults = {**defaults, **compiler._defaults}
    shape_key = (kind.name, compiler_name, *attrs)
    state = registry.build_state
    shape = state.shapes.get(shape_key) or _new_shape(registry, shape_key, kind, compiler, attrs)
    if shape.unsure:  # before the values are hashed as a parse-memo key
        check_hashable(registry, kind, compiler, shape.unsure, attrs, text)
    order = shape.order
    given = attrs  # what overrides the defaults in the target's attributes
    if kind.parser is None:
        derived, keys = NOTHING, kind.default_keys
        features, why = NOTHING.features, NOTHING.why
    else:
        parse_key = None
        if kind.parse_reads:
            parse_key = (shape.reads, shape.pick(attrs)) if shape.pick is not None else (shape.reads,)
        parsed = None if parse_key is None else state.parse_memo.get(parse_key)
        if parsed is None:
            parsed = parse(registry, kind, compiler, {**defaults, **attrs}, text, depth, parse_key)
        (derived, implied, with_implied, keys, features, why), changes = parsed
        if implied:  # what the parser implies overrides the kind's defaults, never a given value
            defaults = with_implied if compiler is None else {**defaults, **implied}
        if changes:
            given = {**attrs, **changes}
            changed_key = (*shape_key, *changes)
            changed = state.shapes.get(changed_key) or _new_shape(registry, changed_key, kind, compiler, given)
            order = changed.order
    if (compiler is not None and compiler.parser is not None) or registry.derive_hooks:
        full = {**defaults, **given}
        found = [derived, *more_derived(registry, kind, compiler, full, features, text)]
        features, why = merged(found)
        if features:
            vet_features(registry, features, text)
        keys = unique(tuple(key for d in found for key in d.keys) + kind.default_keys)
    if "libs" in given:
        _check_libs(registry, kind, {**defaults, **given}, features, text)
    user_keys = given["keys"] if "keys" in given else defaults.get("keys")
    if user_keys:
        with_user = unique((*user_keys, *keys))
        if "keys" in given and not keys_change(with_user, keys):
            given = {name: value for name, value in given.items() if name != "keys"}  # they change nothing
            order = tuple(name for name in order if name != "keys")
        keys = with_user
    config = {}
    for name in order:
        value = given[name]
        if defaults.get(name, MISSING) != value:
            config[name] = value
    made = Target._make(kind, compiler, defaults, given, config, keys, features, why, registry)
    if "tag" in config and not own_tag:
        check_tag(registry, made, config["tag"], text)
    if long_values or (shape.measure and depth == 0):
        check_size(made, text)
    return made


def _canonical_names(kind: TargetKind, attrs: dict[str, Any], text: Any) -> dict[str, Any]:
    """``attrs`` with the kind's attribute aliases renamed (TVM's ``cuda -mcpu`` is ``-arch``)."""
    try:
        return kind.canonical_names(attrs)
    except TargetError as exc:
        raise type(exc)(f"target {shorten(text)!r}: {exc}") from None


def _check_libs(
    registry: "Tables", kind: TargetKind, full: dict[str, Any], features: Mapping[str, FeatureValue], text: Any
) -> None:
    """Refuse ``-libs`` names that the libraries registered for the kind do not accept for this target."""
    libraries = registry.libraries(kind.name)
    if libraries:
        try:
            check_libs(full["libs"], libraries, DeriveRequest(kind.name, full, registry, features))
        except TargetError as exc:
            raise type(exc)(f"target {shorten(text)!r}: {exc}") from None


def _check_names(
    registry: "Tables", kind: TargetKind, compiler: Compiler | None, attrs: Mapping[str, Any], text: Any
) -> None:
    """Refuse attribute names that neither the kind nor the compiler declares."""
    for key in attrs:
        attribute_named(registry, kind, compiler, key, text, None)


def _new_shape(
    registry: "Tables", key: tuple[str | None, ...], kind: TargetKind, compiler: Compiler | None, names: Iterable[str]
) -> Shape:
    """The shape of ``names``, remembered under ``key``.

    Its targets are measured when a name holds a list of targets (a composite's devices:
    text input holds each device within the limit, not their sum), or when values of
    these names that a counting context accepts (see :func:`tcfg._build.entry.from_dict`) may still print
    longer than half of :data:`MAX_TEXT` together (many names, or a type without a
    :meth:`~tcfg._model.attrs.AttrType.text_bound`).
    """
    rank = kind._rank
    if compiler is None:
        order = tuple(sorted(set(names), key=rank.__getitem__))
    else:
        after, own = len(rank), compiler._rank
        order = tuple(sorted(set(names), key=lambda name: rank[name] if name in rank else after + own[name]))
    reads = [name for name in kind.parse_reads if name in order]
    signature = " ".join((kind.name, compiler.name if compiler else "", *reads))  # names hold no spaces
    table = kind._table if compiler is None else {**compiler.table, **kind._table}
    types = [table[name].type for name in order if name in table]
    unsure = tuple(name for name in order if name in table and not hashable_values(table[name].type))
    bounds = [kind_type.text_bound() for kind_type in types]
    measure = (
        any(isinstance(kind_type, TargetList) for kind_type in types)
        or None in bounds
        or len(kind.name) + sum(len(name) + len(' -"":=,') for name in order) + sum(filter(None, bounds))
        > MAX_TEXT // 2
    )
    shape = Shape(order, signature, itemgetter(*reads) if reads else None, measure, unsure)
    registry.build_state.shapes.put(key, shape)
    return shape

