"""AArch64 targets in the compilers' own driver spellings: ``-mcpu=X+ext+noext``, ``-march=A+ext``.

A spelling is found by search and checked with the plugin's own resolver, which
implements clang-22's meaning of ``-mcpu``/``-march`` with ``+ext``/``+noext`` (and is
itself tested against clang-22): starting from the target's CPU (or architecture, or
``generic``), modifiers are added one at a time, each the one that brings the resolved
feature set closest to the target's, until it is the target's exactly. Only names the
requested compiler version accepts are used (``tcfg.plugin.compiler_knows``); when the
CPU is unknown to it, the target's architecture version and then older ones are tried
as the start ("the closest exact spelling it does know"). A version whose meaning of
the start differs from clang-22's (``drift``: clang-16's ``neoverse-v2`` has RME) is
searched with that difference applied to the start's features. None when no exact
spelling exists: the caller then uses clang's ``-Xclang -target-feature`` or reports an
error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

from tcfg.plugin import TargetError
from tcfg_aarch64.facts import Family, family_table
from tcfg_aarch64.resolve import Resolved, resolve

__all__ = ["native_spelling", "resolved_features", "starts"]

#: At most this many modifiers: a longer spelling is no clearer than -target-feature.
_MAX_MODS = 16


def _features(option: str, value: str) -> frozenset[str] | None:
    """The hardware features clang-22 gives for ``option=value`` (AArch64), or None if it refuses it."""
    return resolved_features("aarch64", option, value, None)


@lru_cache(maxsize=4096)
def resolved_features(family_name: str, option: str, value: str, float_abi: str | None) -> frozenset[str] | None:
    """The hardware features clang-22 gives for ``option=value`` (``-mcpu``/``-march``) and ``float_abi``.

    ``family_name`` is ``aarch64`` or ``arm``; None if clang-22 refuses the spelling.
    """
    family = family_table(family_name)
    try:
        got = resolve(
            family, value if option == "-mcpu" else None, value if option == "-march" else None, (), None, float_abi
        )
    except TargetError:
        return None
    return got.features & family.hardware


#: ``(what, name)`` -> the start's difference from clang-22 (``+f``/``-f``), or None if it is unusable.
Drift = Callable[[str, str], "tuple[str, ...] | None"]


def starts(res: Resolved, knows: Callable[[str, str], bool]) -> Iterator[tuple[str, str]]:
    """The ``(option, name)`` starts to try, most specific first, among those the compiler knows."""
    family = res.family
    if res.cpu is not None and knows("cpus", res.cpu.name):
        yield "-mcpu", res.cpu.name
    if res.start[0] == "generic" and knows("cpus", "generic"):
        yield "-mcpu", "generic"
    ours = _version(res.arch_version)
    older = sorted(
        (a for a in family.arches.values() if a.profile == res.profile and _version(a.version) <= ours),
        key=lambda a: _version(a.version),
        reverse=True,
    )
    for arch in older:
        if knows("arches", arch.name):
            yield "-march", arch.name


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdecimal())


def native_spelling(
    res: Resolved, knows: Callable[[str, str], bool], drift: Drift, *, gcc: bool = False
) -> tuple[str, str] | None:
    """``(option, value)`` (``("-mcpu", "neoverse-v2+nosve")``) meaning exactly ``res``'s features.

    ``knows(what, name)`` says whether the compiler version accepts a name (``what`` is
    ``cpus``, ``arches`` or ``extensions``), ``drift(what, name)`` how its meaning of a
    start differs from clang-22's. ``knows("extensions", name)`` must say no to a ``+ext`` whose
    meaning in that version is not clang-22's (LLVM 16's ``+noaes`` keeps SHA2).
    AArch64 only; None when no spelling within the known names gives the features exactly.
    For ``gcc`` "exactly" means over the features its extensions and architecture
    versions can say: gcc has no word for LLVM's system features (``el3``, ``perfmon``).
    """
    family: Family = res.family
    if family.name != "aarch64" or res.passthrough:
        return None
    exts = [name for name, _ in family.extensions.items() if knows("extensions", name)]
    scope = family.hardware
    if gcc:
        sayable = {f for name, ext in family.extensions.items() if knows("extensions", name) for f in ext.adds or ()}
        scope = frozenset(sayable | family.arch_flags) & family.hardware
    target = res.features & scope
    for option, base in starts(res, knows):
        moved = drift("cpus" if option == "-mcpu" else "arches", base)
        if moved is None:
            continue
        plus = frozenset(item[1:] for item in moved if item[0] == "+")
        minus = frozenset(item[1:] for item in moved if item[0] == "-")
        found = _search(option, base, target, exts, plus, minus, scope)
        if found is not None:
            return option, found
    return None


def _search(
    option: str,
    base: str,
    target: frozenset[str],
    exts: list[str],
    plus: frozenset[str],
    minus: frozenset[str],
    scope: frozenset[str],
) -> str | None:
    """Add modifiers to ``base`` until its features are ``target``.

    A spelling's features are clang-22's, plus ``plus``, less ``minus``, within ``scope``.
    """

    def features(value: str) -> frozenset[str] | None:
        got = _features(option, value)
        return None if got is None else ((got | plus) - minus) & scope

    current = features(base)
    if current is None:
        return None
    mods: list[str] = []
    while current != target:
        if len(mods) >= _MAX_MODS:
            return None
        best: tuple[int, str, frozenset[str]] | None = None
        for name in exts:
            for mod in (name, f"no{name}"):
                if mod in mods:
                    continue
                got = features("+".join([base, *mods, mod]))
                if got is None:
                    continue
                score = len(got ^ target)
                if best is None or score < best[0]:
                    best = (score, mod, got)
        if best is None or best[0] >= len(current ^ target):
            return None
        mods.append(best[1])
        current = best[2]
    return "+".join([base, *mods])
