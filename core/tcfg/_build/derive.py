"""Running the parsers of a target: the kind's, the BYOC compiler's and the ``tcfg_derive_target`` hooks.

What a parser returns is checked before it is used: it must be a :class:`Derived`,
declare its features, type-check the attributes it sets and drop none; a parser that
raises fails with the input quoted and the plugin named. The kind parser's result is
remembered (``BuildState.parse_memo`` and ``vetted``), so equal inputs parse once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from tcfg._base.bounded import over_limits
from tcfg._base.errors import NOT_PLUGIN_FAULTS, PluginError, TargetError, bounded_repr, plugin_failed, shorten
from tcfg._base.grammar import MAX_TEXT
from tcfg._build.memo import MAX_NESTING, NO_PREPARED, Prepared, new_tuple
from tcfg._model.attrs import InvalidValue, hashable_values
from tcfg._model.kind import (
    Compiler,
    Derived,
    DeriveRequest,
    Parser,
    TargetKind,
    attr_of,
    attr_type_failed,
    check_hashable,
)

if TYPE_CHECKING:
    from tcfg._build.tables import Tables
    from tcfg._model.features import FeatureValue

__all__ = ["MISSING", "merged", "more_derived", "parse", "unique", "vet_features"]

#: A value no attribute holds (what ``dict.get`` returns for a missing name).
MISSING = object()
_NO_FEATURES = DeriveRequest._field_defaults["features"]


def parse(
    registry: Tables,
    kind: TargetKind,
    compiler: Compiler | None,
    full: dict[str, Any],
    text: Any,
    depth: int,
    parse_key: tuple[Any, ...] | None,
) -> tuple[Prepared, dict[str, Any]]:
    """Run the kind's parser on ``full``: its prepared result and the attributes it changed (checked).

    The result is remembered under ``parse_key`` unless that is None or an attribute the
    parser reads is ``native``.
    """
    assert kind.parser is not None
    try:
        derived = kind.parser(new_tuple(DeriveRequest, (kind.name, full, registry, _NO_FEATURES)))
    except BaseException as exc:  # SystemExit included: a parser never exits the process
        _parser_failed(exc, registry, kind, text, "")
    prepared = registry.build_state.vetted.get(id(derived)) or NO_PREPARED
    if prepared.derived is not derived:
        prepared = _prepare(registry, kind, compiler, derived, text, depth)
    changes: dict[str, Any] = {}
    if derived.attrs is not None and derived.attrs != full:
        dropped = full.keys() - derived.attrs.keys()
        if dropped:
            raise PluginError(f"{_parser_name(registry, kind, '')} dropped the attributes {sorted(dropped)}")
        changes = _checked_changes(registry, kind, compiler, full, derived.attrs, text, depth)
        _refuse_long_output(registry, kind, changes, text)
    if parse_key is not None and "native" not in map(full.get, kind.parse_reads):
        registry.build_state.parse_memo.put(parse_key, (prepared, changes))
    return prepared, changes


def _prepare(
    registry: Tables, kind: TargetKind, compiler: Compiler | None, derived: Derived, text: Any, depth: int
) -> Prepared:
    """Check a kind parser's result (undeclared features, mistyped defaults) and remember it.

    A parser that returns the same object for the same input (as the cuda plugin's
    does, one per arch) has it checked once.
    """
    if type(derived) is not Derived and not isinstance(derived, Derived):
        raise PluginError(f"{_parser_name(registry, kind, '')} returned {bounded_repr(derived)}, not a Derived")
    if derived.features:
        vet_features(registry, derived.features, text)
    implied = _checked_changes(registry, kind, compiler, {}, derived.defaults, text, depth) if derived.defaults else {}
    prepared = Prepared(
        derived,
        implied,
        {**kind._defaults, **implied},
        unique(derived.keys + kind.default_keys),
        derived.features,
        derived.why,
    )
    registry.build_state.vetted.put(id(derived), prepared)
    return prepared


def _refuse_long_output(registry: Tables, kind: TargetKind, values: Mapping[str, Any], text: Any) -> None:
    """Refuse the attributes a kind's parser set (``Derived.attrs``) when they are longer than :data:`MAX_TEXT` as text.

    They are the target's configuration, printed in its text: no target form could read
    such a target back (a 17-character input would build a target of 80,000 characters),
    so the parser is at fault, and named. (The defaults it implies are not printed.) Run
    once per parse: results are remembered.
    """
    if values and over_limits(values, MAX_TEXT, MAX_NESTING) is not None:
        raise PluginError(
            f"target {shorten(text)!r}: {_parser_name(registry, kind, '')} filled in values longer than the "
            f"limit of {MAX_TEXT} characters that every target form shares ({bounded_repr(values)}); "
            "no target form could read such a target back"
        )


def unique(keys: tuple[str, ...]) -> tuple[str, ...]:
    """``keys`` without repeats, first occurrences kept."""
    return tuple(dict.fromkeys(keys))


def more_derived(
    registry: Tables,
    kind: TargetKind,
    compiler: Compiler | None,
    full: dict[str, Any],
    features: Mapping[str, FeatureValue],
    text: Any,
) -> list[Derived]:
    """What the BYOC compiler's parser and the ``tcfg_derive_target`` hooks derive after the kind's parser."""
    found: list[Derived] = []
    if compiler is not None and compiler.parser is not None:
        request = DeriveRequest(kind.name, full, registry, features)
        found.append(_run(compiler.parser, request, registry, kind, text, compiler.name))
    if registry.derive_hooks:  # empty unless some plugin adds to kinds it does not own
        request = DeriveRequest(kind.name, full, registry, merged([Derived(features=features), *found])[0])
        try:
            found += [derived for _plugin, derived in registry.call_derive_hooks(request)]
        except TargetError as exc:
            raise type(exc)(f"target {shorten(text)!r}: {exc}") from None
    return found


def merged(found: list[Derived]) -> tuple[Mapping[str, FeatureValue], Mapping[str, str]]:
    """The features and explanations of all parsers; shared, not copied, when only one gave any."""
    given = [d for d in found if d.features or d.why]
    if not given:
        return {}, {}
    if len(given) == 1:
        return given[0].features, given[0].why
    features: dict[str, FeatureValue] = {}
    why: dict[str, str] = {}
    for derived in given:
        features.update(derived.features)
        why.update(derived.why)
    return features, why


def _checked_changes(
    registry: Tables,
    kind: TargetKind,
    compiler: Compiler | None,
    full: Mapping[str, Any],
    returned: Mapping[str, Any],
    text: Any,
    depth: int,
) -> dict[str, Any]:
    """The attributes a parser returned that differ from ``full``, type-checked (and hashable)."""
    changes = {}
    for key, value in returned.items():
        if full.get(key, MISSING) == value:
            continue
        attr = attr_of(kind, compiler, key)
        if attr is None:
            raise PluginError(f"{_parser_name(registry, kind, '')} set the undeclared attribute {key!r}")
        try:
            changes[key] = attr.type.check(value, registry.build_state.contexts.get(depth) or registry.nested_context(depth))
        except InvalidValue as exc:
            raise PluginError(f"{_parser_name(registry, kind, '')} set {key!r} to {bounded_repr(value)}, which {exc}") from None
        except BaseException as exc:
            attr_type_failed(exc, registry, kind, compiler, key, "check", text)
        if not hashable_values(attr.type):
            check_hashable(registry, kind, compiler, (key,), changes, text)
    return changes


def vet_features(registry: Tables, features: Mapping[str, FeatureValue], text: Any) -> None:
    """Refuse features no plugin declared."""
    index = registry.features
    if not features.keys() <= index.docs.keys():
        undeclared = sorted(name for name in features if index.resolve(name) != name)
        if not undeclared:
            return
        raise PluginError(f"target {shorten(text)!r}: parsers derived undeclared features {undeclared}")


def _run(
    parser: Parser, request: DeriveRequest, registry: Tables, kind: TargetKind, text: Any, compiler: str = ""
) -> Derived:
    try:
        derived = parser(request)
    except BaseException as exc:
        _parser_failed(exc, registry, kind, text, compiler)
    if type(derived) is not Derived and not isinstance(derived, Derived):
        raise PluginError(f"{_parser_name(registry, kind, compiler)} returned {bounded_repr(derived)}, not a Derived")
    return derived


def _parser_failed(exc: BaseException, registry: Tables, kind: TargetKind, text: Any, compiler: str) -> NoReturn:
    """Raise the error for a parser that raised ``exc`` (call it in the ``except`` block).

    A :class:`TargetError` gets the input quoted; ``KeyboardInterrupt`` passes through; any
    other exception, ``SystemExit`` included, is the parser's failure (a :class:`PluginError`).
    """
    if isinstance(exc, TargetError):
        raise type(exc)(f"target {shorten(text)!r}: {exc}") from None
    if isinstance(exc, NOT_PLUGIN_FAULTS):
        raise exc
    if isinstance(exc, RecursionError):
        raise TargetError(f"target {shorten(text)!r} nests too deeply") from None
    raise plugin_failed(f"target {shorten(text)!r}: {_parser_name(registry, kind, compiler)}", exc) from exc


def _parser_name(registry: Tables, kind: TargetKind, compiler: str) -> str:
    if compiler:
        return f"the parser of compiler {compiler!r} (kind {kind.name!r})"
    return f"the parser of plugin {registry.owner('kind', kind.name)!r}"
