"""Building targets from strings, JSON text, dicts, tags and other targets.

Every failure caused by the input is a :class:`tcfg.TargetError` that quotes the input
and names the offending token or field. Nesting (``host`` inside ``host``) is limited
to :data:`MAX_DEPTH` levels and the text of one target to :data:`MAX_TEXT` characters.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from tcfg._base.memo import Memo
from tcfg._base.errors import (
    AttributeValueError,
    PluginError,
    TargetError,
    TargetSyntaxError,
    UnknownAttributeError,
    UnknownKindError,
    UnknownTagError,
    bounded_repr,
    describe_choices,
    shorten,
)
from tcfg._model.features import FeatureValue
from tcfg._base.grammar import MAX_TEXT, Option, RawValue, pointer, split_options, tokenize
from tcfg._model.kind import Compiler, Derived, DeriveRequest, Parser, TargetKind, attr_of, check_libs
from tcfg._model.attrs import Attr, InvalidValue, LongValue, TargetList
from tcfg._model.target import Target

if TYPE_CHECKING:
    from tcfg._build.tables import Tables

__all__ = ["MAX_DEPTH", "MAX_TEXT", "BuildState", "build", "finish", "nested_context", "with_attrs"]

#: How deeply targets may nest (a host's host's host ...).
MAX_DEPTH = 32
#: Most option words remembered per kind (cleared whole when full).
OPTION_WORDS_LIMIT = 4096

#: Most entries of each of the builder's memos (each cleared whole when full).
MEMO_LIMIT = 4096

_MISSING = object()


class BuildState:
    """What the builder remembers for one registry; the registry holds it, only this module reads it.

    ``parse_memo``: kind parses, by the kind, the compiler and the given values of the
    kind's ``parse_reads``: the prepared result and the attributes the parser changed.
    ``vetted``: parser results already checked, by identity (``id(derived) ->`` its
    prepared form, which holds it, so the id is not reused). ``shapes``: the view of a
    set of attribute names (canonical order, the names the parser reads), by ``(kind,
    compiler, names as given)``. ``option_words``: per kind, option words of target
    strings (``-name=text``) and their ``(name, value)``. ``contexts``: the build
    contexts of attribute values, by nesting depth; ``counting``: the one for a dict read
    at the outermost level (see :class:`~tcfg._model.attrs.LongValue`). ``short_tags``:
    the targets of tags whose canonical text is at most half of ``MAX_TEXT``, by the name
    a dict gave (a tag registered again has another target).
    """

    __slots__ = ("contexts", "counting", "option_words", "parse_memo", "shapes", "short_tags", "vetted")

    def __init__(self) -> None:
        self.parse_memo: Memo[tuple[Any, ...], tuple[_Prepared, dict[str, Any]]] = Memo(MEMO_LIMIT)
        self.vetted: Memo[int, _Prepared] = Memo(MEMO_LIMIT)
        self.shapes: Memo[tuple[str | None, ...], _Shape] = Memo(MEMO_LIMIT)
        self.option_words: dict[str, Memo[str, tuple[str, Any]]] = {}
        self.contexts: dict[int, _Nested] = {}
        self.counting: _Nested | None = None
        self.short_tags: Memo[str, Target] = Memo(MEMO_LIMIT)


def build(registry: Tables, spec: Any, host: Any = None, depth: int = 0) -> Target:
    """The target described by ``spec`` (a string, JSON text, dict or Target), with ``host``."""
    if depth > MAX_DEPTH:
        raise _TooDeep
    try:
        if type(spec) is dict:
            target = from_dict(registry, spec) if depth == 0 else _read_dict(registry, spec, None, depth)
        elif isinstance(spec, str):
            target = from_text(registry, spec, depth)
        elif isinstance(spec, Target):
            target = spec
        elif isinstance(spec, Mapping):
            target = from_dict(registry, spec) if depth == 0 else _read_dict(registry, spec, None, depth)
        else:
            raise TargetError(
                f"cannot make a target from {type(spec).__name__} {shorten(repr(spec))}; "
                "expected a target string, JSON text, a dict or a Target"
            )
        if host is not None:
            target = with_attrs(target, {"host": build(registry, host, None, depth + 1)})
            if depth == 0:  # each part is within the limit; together they may not be
                _check_size(target, spec)
    except _TooDeep:
        if depth:
            raise
        raise _too_deep(spec) from None
    return target


class _TooDeep(Exception):
    """Raised past :data:`MAX_DEPTH`; passes through the nested levels to the outermost one."""


def _too_deep(spec: Any) -> TargetError:
    return TargetError(
        f"target {shorten(spec, 80)!r} nests more than {MAX_DEPTH} levels deep "
        "(host inside host, devices inside devices)"
    )


def with_attrs(target: Target, changes: Mapping[str, Any]) -> Target:
    """``target`` with some configured attributes replaced (None removes one)."""
    attrs = {k: v for k, v in {**target.config, **changes}.items() if v is not None}
    registry: Tables = target.registry  # type: ignore[assignment]  # the registry that built it, which is one
    return finish(registry, target.kind, attrs, target, 0)


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


def _load_json(text: str) -> Any:
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


def _check_length(text: str) -> None:
    if len(text) > MAX_TEXT:
        raise TargetSyntaxError(
            f"target text of {len(text)} characters is longer than the limit of {MAX_TEXT}: {shorten(text, 60)!r}"
        )


class _Nested:
    """The :class:`~tcfg._model.attrs.BuildContext` of one nesting level (``counts``: see BuildState)."""

    __slots__ = ("counts", "depth", "registry")

    def __init__(self, registry: Tables, depth: int, counts: bool = False) -> None:
        self.registry, self.depth, self.counts = registry, depth, counts

    def __call__(self, spec: Any) -> Target:
        if self.depth == 0:
            try:
                return build(self.registry, spec, None, 1)
            except _TooDeep:
                raise _too_deep(spec) from None
        return build(self.registry, spec, None, self.depth + 1)


def nested_context(registry: Tables, depth: int) -> _Nested:
    """The build context for attribute values of a target at nesting ``depth``."""
    context: _Nested | None = registry.build_state.contexts.get(depth)
    if context is None:
        context = registry.build_state.contexts[depth] = _Nested(registry, depth)
    return context


def _unknown_head(registry: Tables, name: str, text: str, start: int, end: int) -> TargetError:
    """The error for a target string whose first word names no kind or tag (nor a tag's variant).

    It names the plugin that would provide the kind or tag when a known one is not
    loaded, lists a tag's variants for ``NAME:VARIANT``, and else offers the closest names.
    """
    where = pointer(text, start, end)
    kinds = registry.kinds
    if ":" in name and registry.find_tag(name.rpartition(":")[0]) is not None:
        return UnknownTagError(f"target {shorten(text)!r}: {registry.unknown_tag(name)}" + where)
    missing = registry.missing_plugin("kind", name)
    if missing is not None:
        return UnknownKindError(f"target {shorten(text)!r}: {missing}" + where)
    missing = registry.missing_plugin("tag", name.partition(":")[0])
    if missing is not None:
        return UnknownTagError(f"target {shorten(text)!r}: unknown tag {name!r}: {missing}" + where)
    return UnknownKindError(
        f"target {shorten(text)!r}: {name!r} is neither a kind nor a tag; "
        f"{describe_choices(name, [*kinds, *registry.list_tags()])}" + where
    )


def from_text(registry: Tables, text: str, depth: int = 0, measured: bool = False) -> Target:
    """The target of a string or JSON text at nesting ``depth`` (:func:`build` for a ``str``).

    An outermost text over half of :data:`MAX_TEXT` has its target's canonical text
    measured too (``measured`` says that is being done), since it may be the longer one.
    """
    if len(text) > MAX_TEXT // 2:
        if len(text) > MAX_TEXT:
            _check_length(text)
        if depth == 0 and not measured:
            whole = from_text(registry, text, 0, measured=True)
            _check_size(whole, text)
            return whole
    stripped = text.strip()
    if not stripped:
        raise TargetSyntaxError(
            "empty target string; expected a kind or tag such as "
            + ", ".join(repr(k) for k in registry.list_kinds()[:6])
        )
    if stripped[0] == "{":
        return _read_dict(registry, _load_json(stripped), stripped, depth)  # measured by the caller if long
    if "'" not in text and '"' not in text and "\\" not in text and "(" not in text:
        made = _from_words(registry, stripped.split(), text, depth)
        if made is not None:
            return made
    return _from_tokens(registry, text, depth)


def _tag_head(registry: Tables, name: str) -> tuple[TargetKind, Mapping[str, Any]] | None:
    """The kind and config of the tag that the first word of a target string names (not a kind), or None."""
    entry = registry.find_tag(name)
    return None if entry is None else (entry.target.kind, entry.target.config)


def _from_words(registry: Tables, words: list[str], text: str, depth: int) -> Target | None:
    """The target of an unquoted string whose options all read ``-key=value``; None for any other.

    A shortcut for the common form, with the result :func:`_from_tokens` gives: on any
    input it does not accept as it stands (a flag, a separate value, an unknown name, a
    value its type refuses) it returns None, and :func:`_from_tokens` reads the string
    and reports the error with its position. Words it has converted before (for the
    same kind) are looked up, not converted again.
    """
    kind = registry.kinds.get(words[0]) or registry.find_kind(words[0])
    base: Mapping[str, Any] | None = None
    if kind is None:
        tagged = _tag_head(registry, words[0])
        if tagged is None:
            return None
        kind, base = tagged
    words_of = registry.build_state.option_words  # word -> (name, value), for the kind's own plain attributes
    known = words_of.get(kind.name)
    if known is None:
        known = words_of[kind.name] = Memo(OPTION_WORDS_LIMIT)
    table = kind._table
    nested = registry.build_state.contexts.get(depth) or nested_context(registry, depth)
    given: dict[str, Any] = {}
    later: list[tuple[str, str]] = []  # (name, value text): the compiler and what it may own, targets
    compiler_name = base.get("compiler") if base else None
    for word in words[1:]:
        hit = known.get(word)
        if hit is not None:
            given[hit[0]] = hit[1]
            continue
        key, eq, value = word.partition("=")
        if not eq or word[0] != "-":
            return None
        name = key[1:]
        attr = table.get(name)
        if attr is None or attr.type.holds_targets or name == "compiler":
            later.append((name, value))
            if name == "compiler":
                compiler_name = value
            continue
        converted = _word_value(attr, value, nested)
        if converted is _DECLINED:
            return None
        given[name] = converted
        if attr.type.free_text:
            continue  # converting it again costs no more than looking it up
        known.put(word, (name, converted))
    if later or compiler_name is not None:
        compiler = None if compiler_name is None else registry.find_compiler(kind.name, compiler_name)
        if compiler_name is not None and compiler is None:
            return None
        for name, value in later:
            attr = attr_of(kind, compiler, name)
            converted = _DECLINED if attr is None else _word_value(attr, value, nested)
            if converted is _DECLINED:
                return None
            given[name] = converted
    if len(given) < len(words) - 1:
        return None  # an option given twice
    if not base:
        return finish(registry, kind, given, text, depth, checked=True)
    return _finish_over_tag(registry, kind, base, given, text, depth)


_DECLINED = object()


def _word_value(attr: Attr, text: str, nested: _Nested) -> Any:
    """The value of an unquoted option value, or ``_DECLINED`` when its type refuses it."""
    commas = tuple(i for i, c in enumerate(text) if c == ",") if "," in text else ()
    try:
        return attr.type.from_text(_new_tuple(RawValue, (text, commas, False)), nested)
    except (InvalidValue, TargetError):
        return _DECLINED


#: ``NamedTupleClass(*fields)`` without the generated ``__new__``'s Python frame (every field given).
_new_tuple = tuple.__new__
_NO_FEATURES = DeriveRequest._field_defaults["features"]


def _from_tokens(registry: Tables, text: str, depth: int) -> Target:
    """The target of any target string (quotes, flags, separate values), or the error with its position."""
    tokens = tokenize(text)
    head = tokens[0]
    kinds = registry.kinds
    if head.dash:
        raise TargetSyntaxError(
            f"target {shorten(text)!r} starts with an option; it must start with a kind or tag "
            f"(kinds: {', '.join(sorted(kinds))})" + pointer(text, head.start, head.end)
        )
    kind = kinds.get(head.text) or registry.find_kind(head.text)
    base: Mapping[str, Any] | None = None
    if kind is None:
        tagged = _tag_head(registry, head.text)
        if tagged is None:
            raise _unknown_head(registry, head.text, text, head.start, head.end)
        kind, base = tagged

    def is_flag(key: str) -> bool:
        attr = kind.table.get(key) or next(
            (c.table[key] for c in registry.compilers(kind.name).values() if key in c.table), None
        )
        return attr is not None and attr.type.is_flag

    options = split_options(text, tokens[1:], is_flag)
    compiler_opt = next((o for o in options if o.key == "compiler"), None)
    compiler_name = compiler_opt.value.text if compiler_opt and compiler_opt.value else (base or {}).get("compiler")
    compiler = _compiler(registry, kind, compiler_name, text, compiler_opt)
    given: dict[str, Any] = {}
    nested = registry.build_state.contexts.get(depth) or nested_context(registry, depth)
    for opt in options:
        attr = _attr(registry, kind, compiler, opt.key, text, opt)
        if opt.key in given:
            raise AttributeValueError(
                f"target {shorten(text)!r}: -{opt.key} is given twice" + pointer(text, opt.token.start, opt.token.end)
            )
        given[opt.key] = _convert_text(attr, opt, text, nested)
    if not base:
        return finish(registry, kind, given, text, depth, checked=True)
    return _finish_over_tag(registry, kind, base, given, text, depth)


def _convert_text(attr: Attr, opt: Option, text: str, nested: _Nested) -> Any:
    if opt.value is None:
        return True
    try:
        return attr.type.from_text(opt.value, nested)
    except InvalidValue as exc:
        raise AttributeValueError(
            f"target {shorten(text)!r}: -{opt.key} {exc}" + pointer(text, opt.token.start, opt.token.end)
        ) from None
    except TargetError as exc:
        raise type(exc)(f"target {shorten(text)!r}: in -{opt.key}: {exc}") from None


def _compiler(registry: Tables, kind: TargetKind, name: Any, text: Any, opt: Option | None = None) -> Compiler | None:
    if name is None:
        return None
    compiler = registry.find_compiler(kind.name, name) if isinstance(name, str) else None
    if compiler is None:
        offered = registry.compilers(kind.name)
        choices = describe_choices(str(name), offered) if offered else "no installed plugin registers a compiler for it"
        where = pointer(text, opt.token.start, opt.token.end) if opt is not None else ""
        raise AttributeValueError(
            f"target {shorten(text)!r}: compiler {name!r} is not registered for kind {kind.name!r}; {choices}" + where
        )
    return compiler


def _attr(
    registry: Tables, kind: TargetKind, compiler: Compiler | None, key: str, text: Any, opt: Option | None
) -> Attr:
    attr = attr_of(kind, compiler, key)
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
    raise UnknownAttributeError(
        f"target {shorten(text)!r}: kind {kind.name!r} has no attribute {key!r}; {hint}" + where
    )


def from_dict(registry: Tables, data: Mapping[str, Any]) -> Target:
    """The target of a dict at the outermost level (:func:`build` of a dict without a host).

    A dict has no length of its own to hold to :data:`MAX_TEXT`, and measuring each
    target's canonical text would cost more than building it. So the dict is read in a
    counting context first, where a long value (a long string, a long list, a nested
    target; see :class:`~tcfg._model.attrs.LongValue`) or a long tag stops the read; the
    dict is then read again and its target's canonical text measured. A target of short
    values is measured only when its attribute names allow a long text all the same
    (see :func:`_new_shape`).
    """
    try:
        try:
            return _read_dict(registry, data, None, 0, True)  # positional: a keyword costs a little
        except LongValue:
            return _read_dict(registry, data, None, 0, long_values=True)
    except _TooDeep:
        raise _too_deep(data) from None


def _counting_context(registry: Tables) -> _Nested:
    context = registry.build_state.counting = _Nested(registry, 0, counts=True)
    return context


def _read_dict(
    registry: Tables,
    data: Any,
    source: str | None,
    depth: int,
    counting: bool = False,
    long_values: bool = False,
) -> Target:
    """The target of ``data``, a dict (or JSON ``source`` decoded); ``counting``: see :func:`from_dict`."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise TargetSyntaxError(
            f"JSON target {shorten(source or bounded_repr(data))!r} must be an object, not {type(data).__name__}"
        )
    text: Any = source if source is not None else data  # shown by error messages only
    kinds = registry.kinds
    kind_name = data.get("kind")
    base: Mapping[str, Any] | None = None
    if kind_name is None:
        tag_name = data.get("tag")
        if tag_name is None:
            raise TargetError(f"target {shorten(text)!r} needs a 'kind' ({', '.join(sorted(kinds))}) or a 'tag'")
        entry = registry.find_tag(tag_name) if isinstance(tag_name, str) else None
        if entry is None:
            raise UnknownTagError(f"target {shorten(text)!r}: {registry.unknown_tag(str(tag_name))}")
        if counting and registry.build_state.short_tags.get(tag_name) is not entry.target:
            if _long_text(entry.target):
                raise LongValue
            registry.build_state.short_tags.put(tag_name, entry.target)
        kind, base = entry.target.kind, entry.target.config
    else:
        found = kinds.get(kind_name) if type(kind_name) is str else None
        if found is None and isinstance(kind_name, str):
            found = registry.find_kind(kind_name)
        if found is None:
            missing = registry.missing_plugin("kind", kind_name) if isinstance(kind_name, str) else None
            if missing is not None:
                raise UnknownKindError(f"target {shorten(text)!r}: unknown kind {kind_name!r}: {missing}")
            hint = (
                f"{kind_name!r} is a tag: write {{'tag': {kind_name!r}}}"
                if isinstance(kind_name, str) and registry.find_tag(kind_name) is not None
                else describe_choices(str(kind_name), kinds)
            )
            raise UnknownKindError(f"target {shorten(text)!r}: unknown kind {kind_name!r}; {hint}")
        kind = found
    compiler_name = data.get("compiler", base.get("compiler") if base else None)
    compiler = None if compiler_name is None else _compiler(registry, kind, compiler_name, text)
    if counting:
        nested = registry.build_state.counting or _counting_context(registry)
    else:
        nested = registry.build_state.contexts.get(depth) or nested_context(registry, depth)
    table = kind._table
    given: dict[str, Any] = {}
    skip = "kind" if base is None else "tag"  # the key that chose the kind or the tag
    for key, value in data.items():
        if key == skip:
            continue
        attr = table.get(key)
        if attr is None:
            if key == "kind":
                continue
            if not isinstance(key, str):
                raise TargetSyntaxError(f"target {shorten(text)!r}: attribute names must be strings, not {key!r}")
            attr = _attr(registry, kind, compiler, key, text, None)
        try:
            given[key] = attr.type.check(value, nested)
        except InvalidValue as exc:
            raise AttributeValueError(f"target {shorten(text)!r}: {key!r} {exc}") from None
        except TargetError as exc:
            raise type(exc)(f"target {shorten(text)!r}: in {key!r}: {exc}") from None
    if not base:
        return finish(registry, kind, given, text, depth, True, long_values)
    return _finish_over_tag(registry, kind, base, given, text, depth, long_values)


def _finish_over_tag(
    registry: Tables,
    kind: TargetKind,
    base: Mapping[str, Any],
    given: dict[str, Any],
    text: Any,
    depth: int,
    long_values: bool = False,
) -> Target:
    """The readers' tail for a tag: ``given`` (checked, of ``kind``) over the tag's ``base`` config, finished.

    (Without a tag, each reader calls :func:`finish` with ``checked=True`` itself.) Names
    and values the reader checked need no second check, unless they change the tag's
    compiler (whose attributes the tag's config may hold).
    """
    keeps_compiler = "compiler" not in given or given["compiler"] == base.get("compiler")
    return finish(registry, kind, {**base, **given}, text, depth, checked=keeps_compiler, long_values=long_values)


def _run(
    parser: Parser, request: DeriveRequest, registry: Tables, kind: TargetKind, text: Any, compiler: str = ""
) -> Derived:
    try:
        derived = parser(request)
    except Exception as exc:
        _parser_failed(exc, registry, kind, text, compiler)
    if type(derived) is not Derived and not isinstance(derived, Derived):
        raise PluginError(f"{_parser_name(registry, kind, compiler)} returned {derived!r}, not a Derived")
    return derived


def _parser_failed(exc: Exception, registry: Tables, kind: TargetKind, text: Any, compiler: str) -> NoReturn:
    """Raise the error for a parser that raised ``exc`` (call it in the ``except`` block)."""
    if isinstance(exc, TargetError):
        raise type(exc)(f"target {shorten(text)!r}: {exc}") from None
    if isinstance(exc, RecursionError):
        raise TargetError(f"target {shorten(text)!r} nests too deeply") from None
    raise PluginError(
        f"target {shorten(text)!r}: {_parser_name(registry, kind, compiler)} failed: {type(exc).__name__}: {exc}"
    ) from exc


def _parser_name(registry: Tables, kind: TargetKind, compiler: str) -> str:
    if compiler:
        return f"the parser of compiler {compiler!r} (kind {kind.name!r})"
    return f"the parser of plugin {registry.owner('kind', kind.name)!r}"


def finish(
    registry: Tables,
    kind: TargetKind,
    attrs: dict[str, Any],
    text: Any,
    depth: int,
    checked: bool = False,
    long_values: bool = False,
) -> Target:
    """Check compiler and attributes (unless ``checked``), fill defaults, run the parsers, make the Target.

    At the outermost level (``depth`` 0) the canonical text of a target is measured
    against :data:`MAX_TEXT` when its input had ``long_values`` (see :func:`from_dict`) or
    its shape says its text may be long (see :func:`_new_shape`).
    """
    if kind._aliases and not kind._aliases.keys().isdisjoint(attrs):
        attrs = _canonical_names(kind, attrs, text)
    compiler = None if "compiler" not in attrs else _compiler(registry, kind, attrs["compiler"], text)
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
    order = shape.order
    given = attrs  # what overrides the defaults in the target's attributes
    if kind.parser is None:
        derived, keys = _NOTHING, kind.default_keys
        features, why = _NOTHING.features, _NOTHING.why
    else:
        parse_key = None
        if kind.parse_reads:
            parse_key = (shape.reads, shape.pick(attrs)) if shape.pick is not None else (shape.reads,)
        parsed = None if parse_key is None else state.parse_memo.get(parse_key)
        if parsed is None:
            parsed = _parse(registry, kind, compiler, {**defaults, **attrs}, text, depth, parse_key)
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
        found = [derived, *_more_derived(registry, kind, compiler, full, features, text)]
        features, why = _merged(found)
        if features:
            _vet_features(registry, features, text)
        keys = _unique(tuple(key for d in found for key in d.keys) + kind.default_keys)
    if "libs" in given:
        _check_libs(registry, kind, {**defaults, **given}, features, text)
    user_keys = given["keys"] if "keys" in given else defaults.get("keys")
    if user_keys:
        keys = _unique((*user_keys, *keys))
    config = {}
    for name in order:
        value = given[name]
        if defaults.get(name, _MISSING) != value:
            config[name] = value
    made = Target._make(kind, compiler, defaults, given, config, keys, features, why, registry)
    if long_values or (shape.measure and depth == 0):
        _check_size(made, text)
    return made


def _text_size(target: Target) -> int:
    """The length of ``target``'s longer canonical text, ``str(t)`` or ``to_json()`` (each printed once, then kept)."""
    return max(len(str(target)), len(target.to_json()))


def _long_text(target: Target) -> bool:
    """Whether ``target``'s canonical text is over half of :data:`MAX_TEXT`."""
    return _text_size(target) > MAX_TEXT // 2


def _check_size(target: Target, text: Any) -> None:
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


def _canonical_names(kind: TargetKind, attrs: dict[str, Any], text: Any) -> dict[str, Any]:
    """``attrs`` with the kind's attribute aliases renamed (TVM's ``cuda -mcpu`` is ``-arch``)."""
    try:
        return kind.canonical_names(attrs)
    except TargetError as exc:
        raise type(exc)(f"target {shorten(text)!r}: {exc}") from None


def _check_libs(
    registry: Tables, kind: TargetKind, full: dict[str, Any], features: Mapping[str, FeatureValue], text: Any
) -> None:
    """Refuse ``-libs`` names that the libraries registered for the kind do not accept for this target."""
    libraries = registry.libraries(kind.name)
    if libraries:
        try:
            check_libs(full["libs"], libraries, DeriveRequest(kind.name, full, registry, features))
        except TargetError as exc:
            raise type(exc)(f"target {shorten(text)!r}: {exc}") from None


class _Prepared(NamedTuple):
    """What the builder makes of one kind parser's result, once per :class:`Derived` object.

    ``implied``: its ``defaults``, type-checked; ``defaults``: the kind's defaults and
    those; ``keys``: its keys then the kind's, without repeats; ``features`` and ``why``:
    its own (unpacked with the rest, faster than read from the named tuple per target).
    """

    derived: Derived
    implied: dict[str, Any]
    defaults: dict[str, Any]
    keys: tuple[str, ...]
    features: Mapping[str, FeatureValue]
    why: Mapping[str, str]


_NOTHING = Derived()
_NO_PREPARED = _Prepared(_NOTHING, {}, {}, (), _NOTHING.features, _NOTHING.why)


def _parse(
    registry: Tables,
    kind: TargetKind,
    compiler: Compiler | None,
    full: dict[str, Any],
    text: Any,
    depth: int,
    parse_key: tuple[Any, ...] | None,
) -> tuple[_Prepared, dict[str, Any]]:
    """Run the kind's parser on ``full``: its prepared result and the attributes it changed (checked).

    The result is remembered under ``parse_key`` unless that is None or an attribute the
    parser reads is ``native``.
    """
    assert kind.parser is not None
    try:
        derived = kind.parser(_new_tuple(DeriveRequest, (kind.name, full, registry, _NO_FEATURES)))
    except Exception as exc:
        _parser_failed(exc, registry, kind, text, "")
    prepared = registry.build_state.vetted.get(id(derived)) or _NO_PREPARED
    if prepared.derived is not derived:
        prepared = _prepare(registry, kind, compiler, derived, text, depth)
    changes: dict[str, Any] = {}
    if derived.attrs is not None and derived.attrs != full:
        dropped = full.keys() - derived.attrs.keys()
        if dropped:
            raise PluginError(f"{_parser_name(registry, kind, '')} dropped the attributes {sorted(dropped)}")
        changes = _checked_changes(registry, kind, compiler, full, derived.attrs, depth)
    if parse_key is not None and "native" not in map(full.get, kind.parse_reads):
        registry.build_state.parse_memo.put(parse_key, (prepared, changes))
    return prepared, changes


def _prepare(
    registry: Tables, kind: TargetKind, compiler: Compiler | None, derived: Derived, text: Any, depth: int
) -> _Prepared:
    """Check a kind parser's result (undeclared features, mistyped defaults) and remember it.

    A parser that returns the same object for the same input (as the cuda plugin's
    does, one per arch) has it checked once.
    """
    if type(derived) is not Derived and not isinstance(derived, Derived):
        raise PluginError(f"{_parser_name(registry, kind, '')} returned {derived!r}, not a Derived")
    if derived.features:
        _vet_features(registry, derived.features, text)
    implied = _checked_changes(registry, kind, compiler, {}, derived.defaults, depth) if derived.defaults else {}
    prepared = _Prepared(
        derived,
        implied,
        {**kind._defaults, **implied},
        _unique(derived.keys + kind.default_keys),
        derived.features,
        derived.why,
    )
    registry.build_state.vetted.put(id(derived), prepared)
    return prepared


def _unique(keys: tuple[str, ...]) -> tuple[str, ...]:
    """``keys`` without repeats, first occurrences kept."""
    return tuple(dict.fromkeys(keys))


def _more_derived(
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
        request = DeriveRequest(kind.name, full, registry, _merged([Derived(features=features), *found])[0])
        try:
            found += [derived for _plugin, derived in registry.call_derive_hooks(request)]
        except TargetError as exc:
            raise type(exc)(f"target {shorten(text)!r}: {exc}") from None
    return found


def _check_names(
    registry: Tables, kind: TargetKind, compiler: Compiler | None, attrs: Mapping[str, Any], text: Any
) -> None:
    """Refuse attribute names that neither the kind nor the compiler declares."""
    for key in attrs:
        _attr(registry, kind, compiler, key, text, None)


class _Shape:
    """What the builder makes of a set of attribute names as given, for one kind and compiler.

    ``order``: the names in canonical order (the kind's attributes as declared, then the
    compiler's), without repeats. ``reads``: a string naming the kind, the compiler and
    which of the attributes the kind's parser reads are among the names; a parse-memo
    key is it and their values (``pick``: None if there are none), so targets that
    differ in other names share parses. ``measure``: an outermost target of this shape has
    its canonical text measured (see :func:`_new_shape`). (A slotted class: the builder
    reads these on every target, faster than a named tuple's fields.)
    """

    __slots__ = ("measure", "order", "pick", "reads")

    def __init__(
        self, order: tuple[str, ...], reads: str, pick: Callable[[Mapping[str, Any]], Any] | None, measure: bool
    ) -> None:
        self.order = order
        self.reads = reads
        self.pick = pick
        self.measure = measure


def _new_shape(
    registry: Tables, key: tuple[str | None, ...], kind: TargetKind, compiler: Compiler | None, names: Iterable[str]
) -> _Shape:
    """The shape of ``names``, remembered under ``key``.

    Its targets are measured when a name holds a list of targets (a composite's devices:
    text input holds each device within the limit, not their sum), or when values of
    these names that a counting context accepts (see :func:`from_dict`) may still print
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
    bounds = [kind_type.text_bound() for kind_type in types]
    measure = (
        any(isinstance(kind_type, TargetList) for kind_type in types)
        or None in bounds
        or len(kind.name) + sum(len(name) + len(' -"":=,') for name in order) + sum(filter(None, bounds))
        > MAX_TEXT // 2
    )
    shape = _Shape(order, signature, itemgetter(*reads) if reads else None, measure)
    registry.build_state.shapes.put(key, shape)
    return shape


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
    registry: Tables,
    kind: TargetKind,
    compiler: Compiler | None,
    full: Mapping[str, Any],
    returned: Mapping[str, Any],
    depth: int,
) -> dict[str, Any]:
    """The attributes a parser returned that differ from ``full``, type-checked."""
    changes = {}
    for key, value in returned.items():
        if full.get(key, _MISSING) == value:
            continue
        attr = attr_of(kind, compiler, key)
        if attr is None:
            raise PluginError(f"{_parser_name(registry, kind, '')} set the undeclared attribute {key!r}")
        try:
            changes[key] = attr.type.check(value, nested_context(registry, depth))
        except InvalidValue as exc:
            raise PluginError(f"{_parser_name(registry, kind, '')} set {key!r} to {value!r}, which {exc}") from None
    return changes


def _vet_features(registry: Tables, features: Mapping[str, FeatureValue], text: Any) -> None:
    """Refuse features no plugin declared."""
    index = registry.features
    if not features.keys() <= index.docs.keys():
        undeclared = sorted(name for name in features if index.resolve(name) != name)
        if not undeclared:
            return
        raise PluginError(f"target {shorten(text)!r}: parsers derived undeclared features {undeclared}")
