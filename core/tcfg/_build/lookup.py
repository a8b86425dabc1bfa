"""A kind's compiler and attributes by name, and the advice when a name is none.

Each function returns what the name resolves to or raises the :class:`tcfg.TargetError`
that quotes the input, points at the word (given its option) and offers the closest
names or the plugin that would provide them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcfg._base.errors import (
    AttributeValueError,
    TargetError,
    UnknownAttributeError,
    UnknownKindError,
    UnknownTagError,
    bounded_repr,
    describe_choices,
    shorten,
)
from tcfg._base.grammar import Option, pointer
from tcfg._model.kind import Compiler, TargetKind, attr_of

if TYPE_CHECKING:
    from tcfg._build.tables import Tables
    from tcfg._model.attrs import Attr

__all__ = ["attribute_named", "compiler_named", "unknown_head"]


def unknown_head(registry: Tables, name: str, text: str, start: int, end: int) -> TargetError:
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


def compiler_named(registry: Tables, kind: TargetKind, name: Any, text: Any, opt: Option | None = None) -> Compiler | None:
    if name is None:
        return None
    compiler = registry.find_compiler(kind.name, name) if isinstance(name, str) else None
    if compiler is None:
        offered = registry.compilers(kind.name)
        choices = describe_choices(shorten(name), offered) if offered else "no installed plugin registers a compiler for it"
        where = pointer(text, opt.token.start, opt.token.end) if opt is not None else ""
        raise AttributeValueError(
            f"target {shorten(text)!r}: compiler {bounded_repr(name)} is not registered for kind {kind.name!r}; {choices}" + where
        )
    return compiler


def attribute_named(
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
