"""The portable capability vocabulary: names with one meaning that every plugin answers for its targets.

The vocabulary (``tcfg/data/portable.json``: each name's meaning, unit and value type) is
the core's; vendor features keep their own (LLVM-exact) names. A target's answers come
from its kind's ``portable`` function (for ``llvm``/``c``: the CPU sub-parser's
:meth:`~tcfg._model.cpu.CpuParser.portable`), are computed when a portable name is first
read, and are checked here: a name outside the vocabulary or a value of the wrong type
is the plugin's :class:`tcfg.PluginError`. A name the plugin does not answer reads
``None`` and is listed by :func:`unanswered` (the core's vocabulary test fails on it).
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple, TypeAlias

from tcfg._base.errors import PluginError
from tcfg._base.files import package_json

__all__ = [
    "CPU_ONLY",
    "FORMATS",
    "GPU_ONLY",
    "MATRIX",
    "SCALABLE",
    "Answer",
    "Answers",
    "Portable",
    "Term",
    "answers",
    "from_attrs",
    "from_vendor",
    "none",
    "portable_names",
    "unanswered",
    "vocabulary",
]


class Term(NamedTuple):
    """One portable name: its value type (``bool``, ``int``, ``str``), unit, group and meaning."""

    name: str
    type: str
    unit: str
    group: str
    meaning: str


class Answer(NamedTuple):
    """A portable name's value for one target (None: truly unknown) and the vendor fact it comes from."""

    value: bool | int | str | None
    why: str


Answers: TypeAlias = Mapping[str, Answer]
#: What a kind (or CPU sub-parser) answers for one of its targets.
#: (A ``Target``; typed ``Any`` here because targets hold their features, which read this module.)
Portable: TypeAlias = Callable[[Any], Answers]

#: The numeric formats, and the matrix engine's names.
FORMATS = ("fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "fp64", "int8_dot", "int4")
MATRIX = ("matrix", "matrix_engine", "matrix_formats")
#: Names that describe vector registers: SIMT GPUs and accelerators answer them None.
SCALABLE = ("scalable_vectors", "scalable_vector_min_bits", "scalable_vector_max_bits")
CPU_ONLY = ("vector_bits", *SCALABLE)
#: Names of SIMT devices: CPUs answer them None.
GPU_ONLY = ("warp_size", "max_threads_per_block", "shared_memory_bytes")

_TYPES: dict[str, tuple[type, ...]] = {"bool": (bool,), "int": (int,), "str": (str,)}
_UNANSWERED = " gives no answer"


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, Term]:
    """Every portable name, in the table's order (read once, at the first portable read)."""
    table = package_json("tcfg", "data/portable.json")
    return {
        row["name"]: Term(row["name"], row["type"], row["unit"], row["group"], row["meaning"]) for row in table["names"]
    }


@lru_cache(maxsize=1)
def portable_names() -> frozenset[str]:
    """The portable names (the vocabulary's keys): what a feature read checks first, read once."""
    return frozenset(vocabulary())


def none(why: str, names: Iterable[str]) -> dict[str, Answer]:
    """``names``, each answered None for the one reason ``why``."""
    return {name: Answer(None, why) for name in names}


def from_attrs(target: Any, rows: Iterable[tuple[str, str, str]]) -> dict[str, Answer]:
    """Portable names read from the target's attributes: ``rows`` of (portable name, attribute, what it is).

    An attribute the target does not set answers None, saying so.
    """
    attrs = target.attrs
    out = {}
    for name, attr, what in rows:
        value = attrs.get(attr)
        out[name] = (
            Answer(value, f"the target's {what}")
            if value is not None
            else Answer(None, f"the target gives no {what} (a tag of a real device does)")
        )
    return out


def from_vendor(features: Any, plugin: str, names: Iterable[str]) -> Answer:
    """True where the target has one of the vendor features ``names`` (of ``plugin``), saying which and why."""
    absent = []
    for name in names:
        if features.vendor(name) is not False:
            return Answer(True, f"{plugin}'s {features.vendor_explain(name)}")
        absent.append(name)
    return Answer(False, f"the target has none of {plugin}'s {', '.join(absent)}")


def answers(target: Any, portable: Portable | None, owner: str, own: Iterable[Any] = ()) -> dict[str, Answer]:
    """Every portable name's answer for ``target`` from ``portable`` (of ``owner``: a plugin, for blame).

    ``own`` are the features the target's own kind (or CPU parser) declares: one spelled like
    a portable name answers it where ``portable`` does not (a kind's vendor ``int8_dot``).
    """
    terms = vocabulary()
    given: dict[str, Answer] = {} if portable is None else dict(portable(target))
    for feature in own:
        if feature.name in terms and feature.name not in given:
            text = target.features.vendor_explain(feature.name)
            given[feature.name] = Answer(
                target.features.vendor(feature.name), f"the same-named feature of {owner}: {text}"
            )
    wrong = sorted(set(given) - set(terms))
    if wrong:
        raise PluginError(
            f"{owner} answers {wrong} for {target}, which are not portable names; valid: {', '.join(terms)}"
        )
    result: dict[str, Answer] = {}
    for name, term in terms.items():
        answer = given.get(name)
        if answer is None:
            result[name] = Answer(None, f"{owner}{_UNANSWERED} for the portable name {name!r}")
            continue
        value = answer.value
        if value is not None and (type(value) not in _TYPES[term.type]):
            raise PluginError(
                f"{owner} answers {name}={value!r} for {target}; {name} is a {term.type} ({term.meaning})"
            )
        result[name] = answer
    return result


def unanswered(features_answers: Answers) -> list[str]:
    """The portable names a plugin left without an answer (the vocabulary test fails on them)."""
    return [
        name
        for name, answer in features_answers.items()
        if answer.why.endswith(f"{_UNANSWERED} for the portable name {name!r}")
    ]
