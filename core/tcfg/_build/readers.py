"""The readers: target text (an unquoted shortcut and the full grammar), JSON text and dicts.

Each reader resolves the head (a kind, or a tag whose config the given values go over),
the compiler, and the given values, each converted or checked by its attribute type, into
one :class:`~tcfg._build.pipeline.Given` record, which :func:`from_text` and
the entry points hand to :func:`tcfg._build.pipeline.finish` once. Every failure caused by the input is a
:class:`tcfg.TargetError` that quotes the input and names the offending token or field.
The shortcut (:func:`_from_words`) reads only plain ``-key=value`` words and gives the
result the full reader (:func:`_from_tokens`) gives, or declines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcfg._base.errors import (
    AttributeValueError,
    TargetError,
    TargetSyntaxError,
    UnknownKindError,
    UnknownTagError,
    bounded_repr,
    describe_choices,
    shorten,
)
from tcfg._base.grammar import MAX_TEXT, Option, RawValue, pointer, split_options, tokenize
from tcfg._base.memo import Memo
from tcfg._build.json_text import load_json
from tcfg._build.lookup import attribute_named, compiler_named, unknown_head
from tcfg._build.memo import OPTION_WORDS_LIMIT, new_tuple
from tcfg._build.pipeline import Given, finish
from tcfg._build.size import check_length, check_size, long_text
from tcfg._model.attrs import NOT_TYPE_FAULTS, InvalidValue, LongValue
from tcfg._model.kind import TargetKind, attr_of, attr_type_failed

if TYPE_CHECKING:
    from tcfg._build.tables import Tables
    from tcfg._model.attrs import Attr, BuildContext
    from tcfg._model.kind import Compiler
    from tcfg._model.target import Target

__all__ = ["from_text", "read_mapping"]


def from_text(registry: Tables, text: str, depth: int = 0, measured: bool = False) -> Target:
    """The target of a string or JSON text at nesting ``depth`` (:func:`tcfg._build.entry.build` for a ``str``).

    An outermost text over half of :data:`MAX_TEXT` has its target's canonical text
    measured too (``measured`` says that is being done), since it may be the longer one.
    """
    if len(text) > MAX_TEXT // 2:
        if len(text) > MAX_TEXT:
            check_length(text)
        if depth == 0 and not measured:
            whole = from_text(registry, text, 0, measured=True)
            check_size(whole, text)
            return whole
    stripped = text.strip()
    if not stripped:
        raise TargetSyntaxError(
            "empty target string; expected a kind or tag such as "
            + ", ".join(repr(k) for k in registry.list_kinds()[:6])
        )
    if stripped[0] == "{":  # measured by the caller if long
        return finish(registry, read_mapping(registry, load_json(stripped), stripped, depth), depth)
    given = None
    if "'" not in text and '"' not in text and "\\" not in text and "(" not in text:
        given = _from_words(registry, stripped.split(), text, depth)
    return finish(registry, given or _from_tokens(registry, text, depth), depth)


def _tag_head(registry: Tables, name: str) -> tuple[TargetKind, Mapping[str, Any]] | None:
    """The kind and config of the tag that the first word of a target string names (not a kind), or None."""
    entry = registry.find_tag(name)
    return None if entry is None else (entry.target.kind, entry.target.config)


def _from_words(registry: Tables, words: list[str], text: str, depth: int) -> Given | None:
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
    nested = registry.build_state.contexts.get(depth) or registry.nested_context(depth)
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
    return new_tuple(Given, (kind, base, given, text))


_DECLINED = object()


def _word_value(attr: Attr, text: str, nested: BuildContext) -> Any:
    """The value of an unquoted option value, or ``_DECLINED`` when its type refuses it."""
    commas = tuple(i for i, c in enumerate(text) if c == ",") if "," in text else ()
    try:
        return attr.type.from_text(new_tuple(RawValue, (text, commas, False, False)), nested)
    except (InvalidValue, TargetError):
        return _DECLINED
    except BaseException as exc:  # a plugin's type failed: the full reader says so, with the position
        if isinstance(exc, NOT_TYPE_FAULTS):
            raise
        return _DECLINED


def _from_tokens(registry: Tables, text: str, depth: int) -> Given:
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
            raise unknown_head(registry, head.text, text, head.start, head.end)
        kind, base = tagged

    def is_flag(key: str) -> bool:
        attr = kind.table.get(key) or next(
            (c.table[key] for c in registry.compilers(kind.name).values() if key in c.table), None
        )
        return attr is not None and attr.type.is_flag

    options = split_options(text, tokens[1:], is_flag)
    compiler_opt = next((o for o in options if o.key == "compiler"), None)
    compiler_name = compiler_opt.value.text if compiler_opt and compiler_opt.value else (base or {}).get("compiler")
    compiler = compiler_named(registry, kind, compiler_name, text, compiler_opt)
    given: dict[str, Any] = {}
    nested = registry.build_state.contexts.get(depth) or registry.nested_context(depth)
    for opt in options:
        attr = attribute_named(registry, kind, compiler, opt.key, text, opt)
        if opt.key in given:
            raise AttributeValueError(
                f"target {shorten(text)!r}: -{opt.key} is given twice" + pointer(text, opt.token.start, opt.token.end)
            )
        given[opt.key] = _convert_text(registry, kind, compiler, attr, opt, text, nested)
    return Given(kind, base, given, text)


def _convert_text(
    registry: Tables, kind: TargetKind, compiler: Compiler | None, attr: Attr, opt: Option, text: str, nested: BuildContext
) -> Any:
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
    except BaseException as exc:
        attr_type_failed(exc, registry, kind, compiler, opt.key, "from_text", text)


def read_mapping(
    registry: Tables, data: Any, source: str | None, depth: int, counting: BuildContext | None = None
) -> Given:
    """What ``data``, a dict (or JSON ``source`` decoded), gives at nesting ``depth``.

    ``counting``: the counting context a dict at the outermost level is read in first
    (see :func:`tcfg._build.entry.from_dict`), or None.
    """
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
            raise UnknownTagError(f"target {shorten(text)!r}: {registry.unknown_tag(shorten(tag_name))}")
        if counting is not None and registry.build_state.short_tags.get(tag_name) is not entry.target:
            if long_text(entry.target):
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
                else describe_choices(shorten(kind_name), kinds)
            )
            raise UnknownKindError(f"target {shorten(text)!r}: unknown kind {bounded_repr(kind_name)}; {hint}")
        kind = found
    compiler_name = data.get("compiler", base.get("compiler") if base else None)
    compiler = None if compiler_name is None else compiler_named(registry, kind, compiler_name, text)
    nested = counting or registry.build_state.contexts.get(depth) or registry.nested_context(depth)
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
                raise TargetSyntaxError(f"target {shorten(text)!r}: attribute names must be strings, not {bounded_repr(key)}")
            attr = attribute_named(registry, kind, compiler, key, text, None)
        try:
            given[key] = attr.type.check(value, nested)
        except InvalidValue as exc:
            raise AttributeValueError(f"target {shorten(text)!r}: {key!r} {exc}") from None
        except TargetError as exc:
            raise type(exc)(f"target {shorten(text)!r}: in {key!r}: {exc}") from None
        except BaseException as exc:
            attr_type_failed(exc, registry, kind, compiler, key, "check", text)
    return new_tuple(Given, (kind, base, given, text))

