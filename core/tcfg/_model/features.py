"""The ``target.features`` namespace: derived hardware facts with names, aliases and provenance."""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

from collections.abc import Callable, Iterator, Mapping
from typing import NamedTuple, TypeAlias

from tcfg._base.errors import TargetError, bounded_repr, closest
from tcfg._model.portable import Answer, Answers, portable_names, vocabulary

__all__ = ["Feature", "FeatureIndex", "FeatureValue", "Features", "feature_name"]

#: A feature's value: a flag, or a quantity such as a vector width or a version.
FeatureValue: TypeAlias = bool | int | str


def feature_name(name: str) -> str:
    """The canonical spelling of a feature name: lower case, ``.`` and ``-`` as ``_``."""
    return name.lower().replace(".", "_").replace("-", "_")


class Feature(NamedTuple):
    """A feature name a plugin declares, what it means, and other names that read it.

    ``aliases`` are compatibility names (TVM's ``has_asimd`` for ``neon``) that read
    the same fact.
    """

    name: str
    doc: str = ""
    aliases: tuple[str, ...] = ()


class FeatureIndex:
    """Every feature name and alias the loaded plugins declare, and who declared each.

    ``fill``, if set, is called with a canonical name that is not found (None: every
    name is wanted): it loads the plugins not loaded yet that may declare it and returns
    whether it loaded any.
    """

    def __init__(self) -> None:
        self.docs: dict[str, str] = {}
        self.aliases: dict[str, str] = {}
        #: The plugins that declare each feature, in load order (``aes``: Arm's and x86's).
        self.owners: dict[str, tuple[str, ...]] = {}
        self.fill: Callable[[str | None], bool] | None = None

    def resolve(self, name: str) -> str | None:
        """The canonical declared name that ``name`` (any spelling, or an alias) reads."""
        return self.resolve_key(feature_name(name))

    def resolve_key(self, key: str) -> str | None:
        """:meth:`resolve` for a name already in canonical spelling (:func:`feature_name`)."""
        if key in self.docs:
            return key
        alias = self.aliases.get(key)
        if alias is None and self.fill is not None and self.fill(key):
            return self.resolve_key(key)
        return alias

    def known(self) -> list[str]:
        """All names and aliases, for suggestions."""
        if self.fill is not None:
            self.fill(None)
        return sorted({*self.docs, *self.aliases})

    def declared_by(self, name: str) -> tuple[str, ...]:
        """The plugins that declare the canonical feature ``name`` (loading any not loaded yet)."""
        if self.fill is not None:
            self.fill(name)
        return self.owners.get(name, ())


class Features:
    """A target's features: read as attributes, items, or a mapping of the present ones.

    ``features.dsp`` and ``features["dsp"]`` read a value; a feature some installed
    plugin declares that this target lacks reads ``False``; an undeclared name raises
    ``AttributeError`` (``KeyError`` for ``[]``) naming the closest known names.
    ``"sve" in features`` is true when the target has the feature (its value is not
    ``False``); iteration, ``len``, ``keys()`` and ``items()`` cover the present vendor
    features, with their vendor values (``dict(features.items())`` is the vendor facts).

    A portable name (:mod:`tcfg._model.portable`: ``fp16``, ``vector_bits``, ...) reads
    the answer of the target's plugin, computed at the first portable read (``None``:
    truly unknown; ``explain`` says why). It takes precedence over a vendor feature of
    the same spelling, which :meth:`vendor` still reads (AArch64's ``bf16``, Arm's ``fp16``).
    ``dict(features)`` reads each listed name with ``[]``, so for such a name it holds the
    portable answer (32-bit Arm's ``fp16`` conversions read as the portable ``fp16``, half
    precision arithmetic); ``items()`` keeps the vendor value.
    """

    __slots__ = ("_answers", "_index", "_names", "_portable", "_values", "_why")

    _values: dict[str, FeatureValue]
    _why: dict[str, str]
    _index: FeatureIndex
    _portable: Callable[[], Answers] | None
    _answers: Answers | None
    _names: frozenset[str]  # the portable names, which every read checks first

    def __init__(
        self,
        values: Mapping[str, FeatureValue],
        why: Mapping[str, str],
        index: FeatureIndex,
        portable: Callable[[], Answers] | None = None,
    ) -> None:
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "_why", dict(why))
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_portable", portable)
        object.__setattr__(self, "_answers", None)
        object.__setattr__(self, "_names", portable_names())

    def portable(self) -> Answers:
        """Every portable name's :class:`~tcfg._model.portable.Answer` (value and the vendor fact behind it)."""
        answers = self._answers
        if answers is None:
            if self._portable is None:
                answers = {name: Answer(None, "these features belong to no target") for name in vocabulary()}
            else:
                answers = self._portable()
            object.__setattr__(self, "_answers", answers)
        return answers

    def _answer(self, name: str) -> Answer | None:
        names = self._names
        if name in names:  # the common case: already canonical
            return self.portable()[name]
        key = feature_name(name)
        return self.portable()[key] if key in names else None

    def vendor(self, name: str) -> FeatureValue:
        """The vendor feature ``name`` (never the portable answer of that spelling): False where declared and absent."""
        value = self._vendor(name)
        if value is None:
            raise KeyError(self._unknown(name))
        return value

    def _lookup(self, name: str) -> FeatureValue | None:
        if type(name) is not str:
            raise TargetError(
                f"a feature name is a string such as 'sve', not {type(name).__name__} {bounded_repr(name)}"
            )
        names = self._names
        if name in names:
            return self.portable()[name].value
        key = feature_name(name)
        if key in names:
            return self.portable()[key].value
        canonical = self._index.resolve_key(key)  # a vendor name (inlined: every feature read passes here)
        if canonical is None:
            return self._values.get(key)
        return self._values.get(canonical, False)

    def _vendor(self, name: str) -> FeatureValue | None:
        return self._vendor_key(feature_name(name))

    def _vendor_key(self, key: str) -> FeatureValue | None:
        canonical = self._index.resolve_key(key)
        if canonical is None:
            return self._values.get(key)
        return self._values.get(canonical, False)

    def _unknown(self, name: str) -> str:
        near = closest(feature_name(name), [*self._index.known(), *vocabulary()])
        hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""
        return f"no installed plugin declares the feature {name!r}{hint}"

    def __getattr__(self, name: str) -> FeatureValue | None:
        if name.startswith("__"):
            raise AttributeError(name)
        value = self._lookup(name)
        if value is None and self._answer(name) is None:
            raise AttributeError(self._unknown(name))
        return value

    def __getitem__(self, name: str) -> FeatureValue | None:
        value = self._lookup(name)
        if value is None and self._answer(name) is None:
            raise KeyError(self._unknown(name))
        return value

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("target features are read-only")

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        value = self._lookup(name)
        return value is not None and value is not False

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._values))

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> list[str]:
        """The names of the features this target has, sorted."""
        return sorted(self._values)

    def items(self) -> list[tuple[str, FeatureValue]]:
        """``(name, value)`` for each present feature, sorted by name."""
        return sorted(self._values.items())

    def get(self, name: str, default: FeatureValue | None = None) -> FeatureValue | None:
        """The value of ``name``, or ``default`` when no plugin declares it (or a portable answer is None)."""
        value = self._lookup(name)
        return default if value is None else value

    def explain(self, name: str) -> str:
        """One sentence: the feature's value and what gave it (option, CPU, architecture, vendor fact)."""
        answer = self._answer(name)
        if answer is not None:
            return f"{feature_name(name)} = {answer.value!r} (portable): {answer.why}"
        return self.vendor_explain(name)

    def vendor_explain(self, name: str) -> str:
        """:meth:`explain` for the vendor feature ``name`` (never the portable answer of that spelling)."""
        value = self.vendor(name)
        canonical = self._index.resolve(name) or feature_name(name)
        label = canonical if canonical == feature_name(name) else f"{name} (alias of {canonical})"
        why = self._why.get(canonical)
        if why:
            return f"{label} = {value!r}: {why}"
        if value is False:
            owners = self._index.declared_by(canonical) or ("a plugin",)
            return f"{label} = False: nothing in this target implies it (declared by {', '.join(owners)})"
        return f"{label} = {value!r}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Features):
            return self._values == other._values
        if isinstance(other, Mapping):
            return self._values == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.items())
        return f"Features({inner})"
