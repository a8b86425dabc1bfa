"""Building targets from strings, JSON text, dicts, tags and other targets.

Every failure caused by the input is a :class:`tcfg.TargetError` that quotes the input
and names the offending token or field. Nesting (``host`` inside ``host``) is limited
to :data:`MAX_DEPTH` levels and the text of one target to :data:`MAX_TEXT` characters.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcfg.errors import (
    AttributeValueError,
    PluginError,
    TargetError,
    TargetSyntaxError,
    UnknownAttributeError,
    UnknownKindError,
    UnknownTagError,
    describe_choices,
)
from tcfg.features import FeatureValue
from tcfg.grammar import Option, pointer, split_options, tokenize
from tcfg.kind import Compiler, Derived, DeriveRequest, Parser, TargetKind
from tcfg.schema import Attr, InvalidValue
from tcfg.target import Target

if TYPE_CHECKING:
    from tcfg.registry import Registry

__all__ = ["MAX_DEPTH", "MAX_TEXT", "build", "finish", "nested_context", "with_attrs"]

#: How deeply targets may nest (a host's host's host ...).
MAX_DEPTH = 32
#: The longest target text (string or JSON) accepted, in characters.
MAX_TEXT = 65536

_MISSING = object()


def _short(text: object, limit: int = 200) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


class _DictSource:
    """A dict input as error messages show it: bounded in depth and length, made only when shown."""

    __slots__ = ("data",)

    def __init__(self, data: Mapping[Any, Any]) -> None:
        self.data = data

    def __str__(self) -> str:
        return _REPR.repr(dict(self.data))

    def __repr__(self) -> str:
        return repr(str(self))


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxdict, _REPR.maxlist, _REPR.maxstring, _REPR.maxother = 3, 8, 6, 60, 60


def build(registry: Registry, spec: Any, host: Any = None, depth: int = 0) -> Target:
    """The target described by ``spec`` (a string, JSON text, dict or Target), with ``host``."""
    if depth == 0:
        try:
            return _build(registry, spec, host, 0)
        except _TooDeep:
            raise _too_deep(spec) from None
    return _build(registry, spec, host, depth)


class _TooDeep(Exception):
    """Raised past :data:`MAX_DEPTH`; passes through the nested levels to the outermost one."""


def _too_deep(spec: Any) -> TargetError:
    shown = _short(spec, 80) if isinstance(spec, str) else _DictSource(spec) if isinstance(spec, Mapping) else spec
    return TargetError(
        f"target {shown!r} nests more than {MAX_DEPTH} levels deep (host inside host, devices inside devices)"
    )


def _build(registry: Registry, spec: Any, host: Any, depth: int) -> Target:
    if depth > MAX_DEPTH:
        raise _TooDeep
    if isinstance(spec, Target):
        target = spec
    elif isinstance(spec, str):
        target = _from_text(registry, spec, depth)
    elif isinstance(spec, Mapping):
        target = _from_dict(registry, spec, None, depth)
    else:
        raise TargetError(
            f"cannot make a target from {type(spec).__name__} {_short(repr(spec))}; "
            "expected a target string, JSON text, a dict or a Target"
        )
    if host is not None:
        target = with_attrs(target, {"host": _build(registry, host, None, depth + 1)})
    return target


def with_attrs(target: Target, changes: Mapping[str, Any]) -> Target:
    """``target`` with some configured attributes replaced (None removes one)."""
    attrs = {k: v for k, v in {**target.config, **changes}.items() if v is not None}
    return finish(target.registry, target.kind, attrs, target, 0)


def _load_json(text: str) -> Any:
    def no_constants(name: str) -> Any:
        raise TargetSyntaxError(f"JSON target {_short(text)!r}: {name} is not a valid value")

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise TargetSyntaxError(f"JSON target {_short(text)!r}: the key {key!r} appears twice")
            out[key] = value
        return out

    try:
        return json.loads(text, parse_constant=no_constants, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        raise TargetSyntaxError(
            f"JSON target {_short(text)!r} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise TargetSyntaxError(f"JSON target {_short(text)!r} nests too deeply") from None


def _check_length(text: str) -> None:
    if len(text) > MAX_TEXT:
        raise TargetSyntaxError(
            f"target text of {len(text)} characters is longer than the limit of {MAX_TEXT}: {_short(text, 60)!r}"
        )


class _Nested:
    """The :class:`~tcfg.schema.BuildContext` of one nesting level."""

    __slots__ = ("depth", "registry")

    def __init__(self, registry: Registry, depth: int) -> None:
        self.registry, self.depth = registry, depth

    def __call__(self, spec: Any) -> Target:
        if self.depth == 0:
            try:
                return _build(self.registry, spec, None, 1)
            except _TooDeep:
                raise _too_deep(spec) from None
        return _build(self.registry, spec, None, self.depth + 1)


def nested_context(registry: Registry, depth: int) -> _Nested:
    """The build context for attribute values of a target at nesting ``depth``."""
    return _Nested(registry, depth)


def _unknown_head(registry: Registry, name: str, text: str, start: int, end: int) -> UnknownKindError:
    kinds, tags = registry.kinds_and_tags()
    return UnknownKindError(
        f"target {_short(text)!r}: {name!r} is neither a kind nor a tag; "
        f"{describe_choices(name, [*kinds, *tags])}" + pointer(text, start, end)
    )


def _from_text(registry: Registry, text: str, depth: int) -> Target:
    _check_length(text)
    stripped = text.strip()
    if not stripped:
        raise TargetSyntaxError(
            "empty target string; expected a kind or tag such as "
            + ", ".join(repr(k) for k in registry.list_kinds()[:6])
        )
    if stripped.startswith("{"):
        return _from_dict(registry, _load_json(stripped), stripped, depth)
    tokens = tokenize(text)
    head = tokens[0]
    kinds, tags = registry.kinds_and_tags()
    if head.dash:
        raise TargetSyntaxError(
            f"target {_short(text)!r} starts with an option; it must start with a kind or tag "
            f"(kinds: {', '.join(sorted(kinds))})" + pointer(text, head.start, head.end)
        )
    kind = kinds.get(head.text)
    base: dict[str, Any] = {}
    if kind is None:
        entry = tags.get(head.text)
        if entry is None:
            raise _unknown_head(registry, head.text, text, head.start, head.end)
        kind, base = entry.target.kind, dict(entry.target.config)
    compilers = registry.compiler_table()

    def is_flag(key: str) -> bool:
        attr = kind.table.get(key) or next(
            (c.table[key] for (k, _), c in compilers.items() if k == kind.name and key in c.table), None
        )
        return attr is not None and attr.type.is_flag

    options = split_options(text, tokens[1:], is_flag)
    compiler_opt = next((o for o in options if o.key == "compiler"), None)
    compiler_name = compiler_opt.value.text if compiler_opt and compiler_opt.value else base.get("compiler")
    compiler = _compiler(registry, kind, compiler_name, text, compiler_opt)
    given: dict[str, Any] = {}
    nested = _Nested(registry, depth)
    for opt in options:
        attr = _attr(registry, kind, compiler, opt.key, text, opt)
        if opt.key in given:
            raise AttributeValueError(
                f"target {_short(text)!r}: -{opt.key} is given twice" + pointer(text, opt.token.start, opt.token.end)
            )
        given[opt.key] = _convert_text(attr, opt, text, nested)
    return finish(registry, kind, {**base, **given} if base else given, text, depth, checked=not base)


def _convert_text(attr: Attr, opt: Option, text: str, nested: _Nested) -> Any:
    if opt.value is None:
        return True
    try:
        return attr.type.from_text(opt.value, nested)
    except InvalidValue as exc:
        raise AttributeValueError(
            f"target {_short(text)!r}: -{opt.key} {exc}" + pointer(text, opt.token.start, opt.token.end)
        ) from None
    except TargetError as exc:
        raise type(exc)(f"target {_short(text)!r}: in -{opt.key}: {exc}") from None


def _compiler(registry: Registry, kind: TargetKind, name: Any, text: Any, opt: Option | None = None) -> Compiler | None:
    if name is None:
        return None
    compiler = registry.compiler_table().get((kind.name, name)) if isinstance(name, str) else None
    if compiler is None:
        offered = registry.compilers(kind.name)
        choices = describe_choices(str(name), offered) if offered else "no installed plugin registers a compiler for it"
        where = pointer(text, opt.token.start, opt.token.end) if opt is not None else ""
        raise AttributeValueError(
            f"target {_short(text)!r}: compiler {name!r} is not registered for kind {kind.name!r}; {choices}" + where
        )
    return compiler


def _attr(
    registry: Registry, kind: TargetKind, compiler: Compiler | None, key: str, text: Any, opt: Option | None
) -> Attr:
    attr = kind.table.get(key)
    if attr is None and compiler is not None:
        attr = compiler.table.get(key)
    if attr is not None:
        return attr
    owners = [n for n, c in registry.compilers(kind.name).items() if key in c.table]
    if owners:
        hint = f"it belongs to the compiler {owners[0]!r}: add -compiler={owners[0]}"
    elif key in ("executor", "runtime", "devices"):
        hint = f"{key} belongs on a composite target (composite -host=... -devices=... -{key}=...)"
    else:
        names = [*kind.table, *(compiler.table if compiler else ())]
        hint = describe_choices(key, names)
    where = pointer(text, opt.token.start, opt.token.end) if opt is not None else ""
    raise UnknownAttributeError(f"target {_short(text)!r}: kind {kind.name!r} has no attribute {key!r}; {hint}" + where)


def _from_dict(registry: Registry, data: Any, source: str | None, depth: int) -> Target:
    if not isinstance(data, Mapping):
        raise TargetSyntaxError(
            f"JSON target {_short(source or _REPR.repr(data))!r} must be an object, not {type(data).__name__}"
        )
    text: Any = source if source is not None else _DictSource(data)
    kinds, tags = registry.kinds_and_tags()
    kind_name = data.get("kind")
    base: dict[str, Any] = {}
    if kind_name is None:
        tag_name = data.get("tag")
        if tag_name is None:
            raise TargetError(f"target {text!r} needs a 'kind' ({', '.join(sorted(kinds))}) or a 'tag'")
        entry = tags.get(tag_name) if isinstance(tag_name, str) else None
        if entry is None:
            raise UnknownTagError(f"target {text!r}: unknown tag {tag_name!r}; {describe_choices(str(tag_name), tags)}")
        kind, base = entry.target.kind, dict(entry.target.config)
    else:
        found = kinds.get(kind_name) if isinstance(kind_name, str) else None
        if found is None:
            hint = (
                f"{kind_name!r} is a tag: write {{'tag': {kind_name!r}}}"
                if isinstance(kind_name, str) and kind_name in tags
                else describe_choices(str(kind_name), kinds)
            )
            raise UnknownKindError(f"target {text!r}: unknown kind {kind_name!r}; {hint}")
        kind = found
    compiler = _compiler(registry, kind, data.get("compiler", base.get("compiler")), text)
    nested = nested_context(registry, depth)
    table = kind.table
    given: dict[str, Any] = {}
    for key, value in data.items():
        if key == "kind" or (key == "tag" and kind_name is None):
            continue
        attr = table.get(key)
        if attr is None:
            if not isinstance(key, str):
                raise TargetSyntaxError(f"target {text!r}: attribute names must be strings, not {key!r}")
            attr = _attr(registry, kind, compiler, key, text, None)
        try:
            given[key] = attr.type.check(value, nested)
        except InvalidValue as exc:
            raise AttributeValueError(f"target {text!r}: {key!r} {exc}") from None
        except TargetError as exc:
            raise type(exc)(f"target {text!r}: in {key!r}: {exc}") from None
    return finish(registry, kind, {**base, **given} if base else given, text, depth, checked=not base)


def _run(
    parser: Parser, request: DeriveRequest, registry: Registry, kind: TargetKind, text: Any, compiler: str = ""
) -> Derived:
    try:
        derived = parser(request)
    except TargetError as exc:
        raise type(exc)(f"target {_short(text)!r}: {exc}") from None
    except RecursionError:
        raise TargetError(f"target {_short(text)!r} nests too deeply") from None
    except Exception as exc:
        raise PluginError(
            f"target {_short(text)!r}: {_parser_name(registry, kind, compiler)} failed: {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(derived, Derived):
        raise PluginError(f"{_parser_name(registry, kind, compiler)} returned {derived!r}, not a Derived")
    return derived


def _parser_name(registry: Registry, kind: TargetKind, compiler: str) -> str:
    if compiler:
        return f"the parser of compiler {compiler!r} (kind {kind.name!r})"
    return f"the parser of plugin {registry.owner('kind', kind.name)!r}"


def finish(
    registry: Registry, kind: TargetKind, attrs: dict[str, Any], text: Any, depth: int, checked: bool = False
) -> Target:
    """Check compiler and attributes (unless ``checked``), fill defaults, run the parsers, make the Target."""
    compiler = _compiler(registry, kind, attrs.get("compiler"), text)
    defaults: Mapping[str, Any] = kind.defaults
    table = kind.table
    if compiler is not None:
        if not checked:
            for key in attrs:
                if key not in table and key not in compiler.table:
                    _attr(registry, kind, compiler, key, text, None)
        defaults = {**defaults, **{n: a.default for n, a in compiler.table.items() if a.default is not None}}
    elif not checked:
        for key in attrs:
            if key not in table:
                _attr(registry, kind, None, key, text, None)
    full = {**defaults, **attrs}
    keys: tuple[str, ...] = tuple(full.get("keys", ()))
    found: list[Derived] = []
    if kind.parser is not None:
        derived = _run(kind.parser, DeriveRequest(kind.name, full, registry), registry, kind, text)
        if derived.attrs is not None and derived.attrs != full:
            full = _checked_changes(registry, kind, compiler, full, derived.attrs, depth)
        if derived.defaults:
            implied = _checked_changes(registry, kind, compiler, {}, derived.defaults, depth)
            defaults = {**defaults, **implied}
            full = {**implied, **full}
        found.append(derived)
    if compiler is not None and compiler.parser is not None:
        request = DeriveRequest(kind.name, full, registry, _merged(found)[0])
        found.append(_run(compiler.parser, request, registry, kind, text, compiler.name))
    if registry.derive_hooks():  # empty unless some plugin adds to kinds it does not own
        request = DeriveRequest(kind.name, full, registry, _merged(found)[0])
        try:
            found += [derived for _plugin, derived in registry.call_derive_hooks(request)]
        except TargetError as exc:
            raise type(exc)(f"target {_short(text)!r}: {exc}") from None
    features, why = _merged(found)
    declared = registry.features.docs
    if not features.keys() <= declared.keys():
        undeclared = sorted(features.keys() - declared.keys())
        raise PluginError(f"target {_short(text)!r}: parsers derived undeclared features {undeclared}")
    for derived in found:
        keys += derived.keys
    keys += kind.default_keys
    config = {k: full[k] for k in table if k in full and defaults.get(k, _MISSING) != full[k]}
    if compiler is not None:
        config.update((k, full[k]) for k in compiler.table if k in full and defaults.get(k, _MISSING) != full[k])
    return Target._make(kind, compiler, full, config, tuple(dict.fromkeys(keys)), features, why, registry)


def _merged(found: list[Derived]) -> tuple[Mapping[str, FeatureValue], Mapping[str, str]]:
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
    registry: Registry,
    kind: TargetKind,
    compiler: Compiler | None,
    full: dict[str, Any],
    changed: Mapping[str, Any],
    depth: int,
) -> dict[str, Any]:
    out = dict(changed)
    for key, value in changed.items():
        if full.get(key, _MISSING) == value:
            continue
        attr = kind.table.get(key) or (compiler.table.get(key) if compiler else None)
        if attr is None:
            raise PluginError(f"{_parser_name(registry, kind, '')} set the undeclared attribute {key!r}")
        try:
            out[key] = attr.type.check(value, nested_context(registry, depth))
        except InvalidValue as exc:
            raise PluginError(f"{_parser_name(registry, kind, '')} set {key!r} to {value!r}, which {exc}") from None
    return out
