"""The tag table: every registered tag, its aliases and variants, and the targets they build.

A tag is stored under its canonical name, its aliases and ``NAME:VARIANT`` of each; it
is built (its variants too) when it is stored, and stored whole or not at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from tcfg._base.errors import TargetError
from tcfg._registry.records import PluginFailure, clash, short_repr
from tcfg._registry.staging import Manifest, Stage, undeclared
from tcfg.hookspecs import TagSpec

if TYPE_CHECKING:
    from tcfg._model.target import Target

__all__ = ["MAX_TAG_NAME", "TagEntry", "TagTable", "spec_extras"]

#: What a tag name and a variant name may be (matched with ``re.match``).
_TAG_NAME = r"[^\s'\"\\{=:-][^\s'\"\\:]*\Z"
_VARIANT_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.+-]*\Z"
#: The longest tag name accepted, in characters.
MAX_TAG_NAME = 200

#: Builds a tag's config into a target carrying that tag name: ``make(config, tag)``.
Make = Callable[[Any, str], "Target"]


class TagEntry(NamedTuple):
    """A registered tag (or one of its variants): its canonical config, the target it builds, its provenance.

    ``name`` is the canonical name (``NAME:VARIANT`` for a variant); ``aliases`` the tag's
    other names; ``variants`` the names of its variants (a variant's entry has none).
    """

    name: str
    config: Mapping[str, Any]
    target: Target
    description: str
    source: str
    owner: str
    aliases: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()


class TagTable:
    """The registered tags, by canonical name (``entries``) and by every name they resolve by (``lookup``).

    ``make`` builds a config into a target carrying a tag; ``is_kind`` says whether a
    name is a kind (which no tag may be named).
    """

    def __init__(self, make: Make, is_kind: Callable[[str], bool]) -> None:
        self.entries: dict[str, TagEntry] = {}
        #: Every name a tag resolves by (canonical names, aliases, ``NAME:VARIANT``s of both).
        self.lookup: dict[str, TagEntry] = {}
        self._make = make
        self._is_kind = is_kind

    def names(self, prefix: str | None = None, aliases: bool = False) -> list[str]:
        """The tag names (starting with ``prefix``), sorted; their aliases too if ``aliases``; never variants."""
        pool: Iterable[str] = self.entries
        if aliases:  # tag names and aliases hold no ':', variants do
            pool = [key for key in self.lookup if ":" not in key]
        return sorted(pool if prefix is None else [n for n in pool if n.startswith(prefix)])

    def clear(self) -> tuple[dict[str, TagEntry], dict[str, TagEntry]]:
        """Forget every tag; the user's (registered with ``register_tag``), for :meth:`restore`."""
        kept = (
            {k: e for k, e in self.entries.items() if e.owner == "user"},
            {k: e for k, e in self.lookup.items() if e.owner == "user"},
        )
        self.entries.clear()
        self.lookup.clear()
        return kept

    def restore(self, kept: tuple[dict[str, TagEntry], dict[str, TagEntry]]) -> None:
        """Put back the user's tags :meth:`clear` returned."""
        self.entries.update(kept[0])
        self.lookup.update(kept[1])

    def commit(self, stage: Stage, manifest: Manifest) -> list[str]:
        """Check and store a plugin's tags (names and aliases unclaimed, every config building); their names."""
        plugin = stage.plugin
        added: list[str] = []
        for spec in stage.tags:
            try:
                names = (spec.name, *_sequence(spec.aliases))
            except TargetError as exc:
                raise PluginFailure(f"tag {spec.name!r} is invalid: {exc}") from exc
            undeclared(plugin, manifest, "tag", (n.split("/", 1)[0] for n in names if isinstance(n, str)))
            for name in names:
                taken = self.lookup.get(name) if isinstance(name, str) else None
                if taken is not None:
                    what = "" if name == taken.name else f" (an alias of {taken.name!r})"
                    raise clash(plugin, f"the tag {name!r}{what}", taken.owner)
            try:
                self.add(spec, plugin)
            except TargetError as exc:
                raise PluginFailure(f"tag {spec.name!r} is invalid: {exc}") from exc
            added.append(spec.name)
        return sorted(added)

    def register(self, spec: TagSpec, override: bool) -> None:
        """Store the user's tag ``spec`` (replacing one of that name if ``override``), or change nothing."""
        name = spec.name
        existing = self.entries.get(name) if isinstance(name, str) else None
        if existing is not None and not override:
            raise TargetError(
                f"tag {name!r} is already registered (by {existing.owner}); pass override=True to replace it"
            )
        for key in (name, *_sequence(spec.aliases)):
            taken = self.lookup.get(key) if isinstance(key, str) else None
            if taken is not None and taken is not existing:
                what = "tag" if key == name else "tag alias"
                raise TargetError(f"{what} {key!r} is already a name of tag {taken.name!r} ({taken.owner})")
        removed = {} if existing is None else self._unstore(existing)
        try:
            self.add(spec, "user")
        except BaseException:
            self.lookup.update(removed)
            if existing is not None:
                self.entries[existing.name] = existing
            raise

    def _unstore(self, entry: TagEntry) -> dict[str, TagEntry]:
        """Take tag ``entry`` out of the tables, with its aliases and variants; what was taken, by name."""
        del self.entries[entry.name]
        names = [entry.name, *entry.aliases]
        keys = [*names, *(f"{n}:{v}" for n in names for v in entry.variants)]
        return {key: self.lookup.pop(key) for key in keys if key in self.lookup}

    def _check_name(self, name: object, what: str = "tag name") -> str:
        if not isinstance(name, str) or not re.match(_TAG_NAME, name) or not name.isprintable():
            raise TargetError(
                f"{what} {short_repr(name)} must be non-empty printable text without whitespace, quotes, "
                "backslashes or ':' (which separates a variant), and must not start with '-', '=' or '{'"
            )
        if len(name) > MAX_TAG_NAME:
            raise TargetError(f"{what} {short_repr(name)} is {len(name)} characters long; the limit is {MAX_TAG_NAME}")
        if self._is_kind(name):
            raise TargetError(f"{what} {name!r} is already a kind")
        return name

    def add(self, spec: TagSpec, owner: str) -> None:
        """Build ``spec`` (its variants included) and store it under all its names, or store nothing.

        Its variants are built after the tag is stored, so that they may name it; if one
        fails, what was stored is taken out again. The caller checks the names are free.
        """
        name = self._check_name(spec.name)
        aliases = tuple(dict.fromkeys(self._check_name(a, "tag alias") for a in _sequence(spec.aliases)))
        if name in aliases:
            raise TargetError(f"tag {name!r} lists its own name among its aliases")
        variants = _mapping(spec.variants, f"the variants of tag {name!r}")
        for variant in variants:
            if not isinstance(variant, str) or not re.match(_VARIANT_NAME, variant) or len(variant) > MAX_TAG_NAME:
                raise TargetError(
                    f"tag {name!r}: variant name {short_repr(variant)} must be letters, digits, '_', '.', '+' "
                    f"or '-' (not starting with '.', '+' or '-')"
                )
        target = self._make(spec.config, name)
        entry = TagEntry(
            name, target.export(), target, spec.description, spec.source, owner, aliases, tuple(sorted(variants))
        )
        stored = [name, *aliases]
        self.entries[name] = entry
        for key in stored:
            self.lookup[key] = entry
        try:
            for variant, config in variants.items():
                full = f"{name}:{variant}"
                try:
                    made = self._make(config, full)
                except TargetError as exc:
                    raise type(exc)(f"variant {full!r}: {exc}") from None
                sub = TagEntry(full, made.export(), made, spec.description, spec.source, owner)
                for key in (name, *aliases):
                    stored.append(f"{key}:{variant}")
                    self.lookup[stored[-1]] = sub
        except BaseException:
            del self.entries[name]
            for key in stored:
                self.lookup.pop(key, None)
            raise


def spec_extras(aliases: Any, variants: Any) -> tuple[Any, Any]:
    """The ``aliases`` and ``variants`` fields of a TagSpec from register()'s keywords (checked when built)."""
    return (tuple(aliases) if isinstance(aliases, (list, tuple)) else aliases), ({} if variants is None else variants)


def _sequence(value: Any) -> tuple[Any, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TargetError(f"tag aliases must be a list of names, not {short_repr(value)}")
    return tuple(value)


def _mapping(value: Any, what: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise TargetError(f"{what} must be a mapping of variant names to target configs, not {short_repr(value)}")
    return value
