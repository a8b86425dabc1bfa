"""What the target builder remembers per registry, the records it keeps, and its limits.

A registry holds one :class:`BuildState` (``registry.build_state``) and never reads it;
only the builder's modules do. Every memo is bounded (:data:`MEMO_LIMIT` entries, or
:data:`OPTION_WORDS_LIMIT` option words per kind) and cleared whole when full, and none
changes a result: a hit gives what building again would give.

This module imports no other module of ``tcfg._build`` (they import it).
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from tcfg._base.memo import Memo
from tcfg._model.features import FeatureValue
from tcfg._model.kind import Derived

if TYPE_CHECKING:
    from tcfg._model.attrs import BuildContext
    from tcfg._model.target import Target

__all__ = [
    "MAX_DEPTH",
    "MAX_NESTING",
    "MEMO_LIMIT",
    "NOTHING",
    "NO_PREPARED",
    "OPTION_WORDS_LIMIT",
    "BuildState",
    "Prepared",
    "Shape",
    "new_tuple",
]

#: How deeply targets may nest (a host's host's host ...).
MAX_DEPTH = 32
#: How deeply dicts and lists may nest in one input: a dict per target level and a list
#: of devices between two, and a few levels of values within each target.
MAX_NESTING = 2 * (MAX_DEPTH + 1) + 4
#: Most option words remembered per kind (cleared whole when full).
OPTION_WORDS_LIMIT = 4096
#: Most entries of each of the builder's memos (each cleared whole when full).
MEMO_LIMIT = 4096

#: ``NamedTupleClass(*fields)`` without the generated ``__new__``'s Python frame (every field given).
new_tuple = tuple.__new__


class Prepared(NamedTuple):
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


#: What a kind without a parser derives, and the prepared form no parser result has.
NOTHING = Derived()
NO_PREPARED = Prepared(NOTHING, {}, {}, (), NOTHING.features, NOTHING.why)


class Shape:
    """What the builder makes of a set of attribute names as given, for one kind and compiler.

    ``order``: the names in canonical order (the kind's attributes as declared, then the
    compiler's), without repeats. ``reads``: a string naming the kind, the compiler and
    which of the attributes the kind's parser reads are among the names; a parse-memo
    key is it and their values (``pick``: None if there are none), so targets that
    differ in other names share parses. ``measure``: an outermost target of this shape has
    its canonical text measured (see ``tcfg._build.pipeline``). ``unsure``: the names whose
    types do not give hashable values by construction (a plugin's types; see
    :func:`~tcfg._model.attrs.hashable_values`), whose values the builder hashes once per
    target, since every Target must hash. (A slotted class: the
    builder reads these on every target, faster than a named tuple's fields.)
    """

    __slots__ = ("measure", "order", "pick", "reads", "unsure")

    def __init__(
        self,
        order: tuple[str, ...],
        reads: str,
        pick: Callable[[Mapping[str, Any]], Any] | None,
        measure: bool,
        unsure: tuple[str, ...] = (),
    ) -> None:
        self.order = order
        self.reads = reads
        self.pick = pick
        self.measure = measure
        self.unsure = unsure


class BuildState:
    """What the builder remembers for one registry; the registry holds it, only the builder reads it.

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
        self.parse_memo: Memo[tuple[Any, ...], tuple[Prepared, dict[str, Any]]] = Memo(MEMO_LIMIT)
        self.vetted: Memo[int, Prepared] = Memo(MEMO_LIMIT)
        self.shapes: Memo[tuple[str | None, ...], Shape] = Memo(MEMO_LIMIT)
        self.option_words: dict[str, Memo[str, tuple[str, Any]]] = {}
        self.contexts: dict[int, BuildContext] = {}
        self.counting: BuildContext | None = None
        self.short_tags: Memo[str, Target] = Memo(MEMO_LIMIT)
