"""The builder's entry points: :func:`build` (any spec, with a host, at a nesting depth),
:func:`from_dict`, :func:`with_attrs`, and the contexts that build nested targets.

Nesting (``host`` inside ``host``) is limited to :data:`~tcfg._build.memo.MAX_DEPTH`
levels: past it a private exception passes through the nested levels and the outermost
one raises the :class:`tcfg.TargetError` that quotes the whole input. Strings are read
by :func:`tcfg._build.readers.from_text`, which the registry calls directly too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcfg._base.errors import TargetError, bounded_repr, shorten
from tcfg._base.bounded import over_limits
from tcfg._base.grammar import MAX_TEXT
from tcfg._build.memo import MAX_DEPTH, MAX_NESTING, new_tuple
from tcfg._build.pipeline import Given, finish
from tcfg._build.readers import from_text, read_mapping
from tcfg._build.size import check_size
from tcfg._model.attrs import BuilderSignal, LongValue
from tcfg._model.target import Target

if TYPE_CHECKING:
    from tcfg._build.tables import Tables
    from tcfg._model.attrs import BuildContext

__all__ = ["build", "from_dict", "nested_context", "refuse_past_limits", "with_attrs"]


def build(registry: Tables, spec: Any, host: Any = None, depth: int = 0) -> Target:
    """The target described by ``spec`` (a string, JSON text, dict or Target), with ``host``."""
    if depth > MAX_DEPTH:
        raise _TooDeep
    if host is not None and depth == 0 and not isinstance(host, (str, Target)):
        refuse_past_limits(host)
    try:
        if type(spec) is dict:
            target = from_dict(registry, spec) if depth == 0 else finish(registry, read_mapping(registry, spec, None, depth), depth)
        elif isinstance(spec, str):
            target = from_text(registry, spec, depth)
        elif isinstance(spec, Target):
            target = spec
        elif isinstance(spec, Mapping):
            spec = _as_dict(spec)
            target = from_dict(registry, spec) if depth == 0 else finish(registry, read_mapping(registry, spec, None, depth), depth)
        else:
            raise TargetError(
                f"cannot make a target from {type(spec).__name__} {bounded_repr(spec)}; "
                "expected a target string, JSON text, a dict or a Target"
            )
        if host is not None:
            target = with_attrs(target, {"host": build(registry, host, None, depth + 1)})
            if depth == 0:  # each part is within the limit; together they may not be
                check_size(target, spec)
    except _TooDeep:
        if depth:
            raise
        raise _too_deep(spec) from None
    return target


def _as_dict(spec: Mapping[Any, Any]) -> dict[Any, Any]:
    """A plain dict of a mapping that is not one (read once; a mapping that fails to read is a TargetError)."""
    try:
        return dict(spec.items())
    except BuilderSignal:
        raise
    except Exception as exc:
        raise TargetError(
            f"cannot read the {type(spec).__name__} given as a target: {type(exc).__name__}: {shorten(exc)}"
        ) from None


class _TooDeep(BuilderSignal):
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
    return finish(registry, new_tuple(Given, (target.kind, None, attrs, target)), 0, checked=False)


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


def nested_context(registry: Tables, depth: int) -> BuildContext:
    """The build context for attribute values of a target at nesting ``depth``."""
    context = registry.build_state.contexts.get(depth)
    if context is None:
        context = registry.build_state.contexts[depth] = _Nested(registry, depth)
    return context


def from_dict(registry: Tables, data: Mapping[str, Any]) -> Target:
    """The target of a dict at the outermost level (:func:`build` of a dict without a host).

    A dict has no length of its own to hold to :data:`MAX_TEXT`, and measuring each
    target's canonical text would cost more than building it. So the dict is read in a
    counting context first, where a long value (a long string, a long list, a nested
    target; see :class:`~tcfg._model.attrs.LongValue`) or a long tag stops the read; the
    dict is then read again and its target's canonical text measured. A target of short
    values is measured only when its attribute names allow a long text all the same
    (see ``tcfg._build.pipeline``).
    """
    try:
        try:
            counting = registry.build_state.counting or _counting_context(registry)
            return finish(registry, read_mapping(registry, data, None, 0, counting), 0)
        except LongValue:
            refuse_past_limits(data)
            return finish(registry, read_mapping(registry, data, None, 0), 0, long_values=True)
    except _TooDeep:
        raise _too_deep(data) from None


def refuse_past_limits(data: Any) -> None:
    """Refuse ``data`` (a dict input, or what it holds) past the limits before it is read.

    Past them is: dicts and lists nested deeper than :data:`MAX_NESTING`, a dict or
    list that holds itself, or more than twice :data:`MAX_TEXT` characters of text
    (an input may spell more than its canonical text, which drops values equal to the
    defaults; that text is measured against MAX_TEXT itself once built). The walk
    (:func:`tcfg._base.bounded.over_limits`) stops as soon as it has read past a
    limit, so refusing a huge input costs what reading the limit's worth of it costs.
    """
    why = over_limits(data, 2 * MAX_TEXT, MAX_NESTING)
    if why is None:
        return
    shown = shorten(data, 80)
    if why == "text":
        message = f"target {shown!r} is longer than the limit of {MAX_TEXT} that every target form shares"
    elif why == "depth":
        message = (
            f"target {shown!r} nests more than {MAX_DEPTH} levels deep: its dicts and lists nest more than "
            f"{MAX_NESTING} levels (targets nest at most {MAX_DEPTH} levels, host inside host, devices inside devices)"
        )
    else:
        message = f"target {shown!r} contains itself (a dict or list that holds itself)"
    raise TargetError(message + " (refused before it is read)")


def _counting_context(registry: Tables) -> _Nested:
    context = registry.build_state.counting = _Nested(registry, 0, counts=True)
    return context

