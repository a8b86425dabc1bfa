"""The tag table: every registered tag, its aliases and variants, and the targets they build.

A tag is declared under its canonical name, its aliases and ``NAME:VARIANT`` of each;
its names are checked when it is declared (all of a tag's or none), and its target is
built on first lookup, then kept. A plugin's tag that does not build is that plugin's
error (:class:`tcfg.PluginError`, naming it), met by whoever looks it up first;
``tcfg.testing.check_plugin`` and ``tcfg plugins --check`` build every tag on demand.
A user's tag (``register_tag``) is built when it is declared, so that a bad one is
refused at once.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from tcfg._base.errors import PluginError, TargetError
from tcfg._model.target import Target
from tcfg._registry.records import PluginFailure, clash, short_repr
from tcfg._registry.staging import Manifest, Stage, undeclared
from tcfg.hookspecs import TagSpec

__all__ = ["MAX_TAG_NAME", "Make", "TagEntry", "TagInfo", "TagTable", "spec_extras"]

#: What a tag name and a variant name may be (matched with ``re.match``).
_TAG_NAME = r"[^\s'\"\\{=:-][^\s'\"\\:]*\Z"
_VARIANT_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.+-]*\Z"
#: The longest tag name accepted, in characters.
MAX_TAG_NAME = 200
#: The owner of the tags registered with ``register_tag``.
USER = "user"

#: Builds a tag's config into a target carrying that tag name: ``make(config, tag)``.
Make = Callable[[Any, str], "Target"]


class TagInfo(NamedTuple):
    """A declared tag (or one of its variants), not necessarily built yet.

    ``name`` is the canonical name (``NAME:VARIANT`` for a variant); ``config`` what it
    builds from (as declared); ``aliases`` the tag's other names; ``variants`` the names of
    its variants (a variant's info has none); ``keys`` every name it resolves by; ``user``
    whether it was registered with ``register_tag`` (its ``owner`` is then ``"user"``).
    """

    name: str
    config: Any
    description: str
    source: str
    owner: str
    aliases: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    user: bool = False


class TagEntry(NamedTuple):
    """A built tag (or variant): its canonical config, the target it builds, its provenance (as :class:`TagInfo`)."""

    name: str
    config: Mapping[str, Any]
    target: Target
    description: str
    source: str
    owner: str
    aliases: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()


class TagTable:
    """The declared tags, by canonical name (``infos``) and by every name they resolve by (``declared``),
    and the ones built so far (``built``, by every name).

    ``make`` builds a config into a target carrying a tag; ``is_kind`` says whether a
    name is a kind (which no tag may be named).
    """

    def __init__(self, make: Make, is_kind: Callable[[str], bool]) -> None:
        self.infos: dict[str, TagInfo] = {}
        self.declared: dict[str, TagInfo] = {}
        #: The built entries by every name resolved so far: what a lookup reads first.
        self.built: dict[str, TagEntry] = {}
        self._make = make
        self._is_kind = is_kind

    def fork(self) -> "TagTable":
        """A new, empty table of the same kind (filled, then put in this one's place)."""
        return TagTable(self._make, self._is_kind)

    def names(self, prefix: str | None = None, aliases: bool = False) -> list[str]:
        """The tag names (starting with ``prefix``), sorted; their aliases too if ``aliases``; never variants."""
        pool = [key for key in self.declared if ":" not in key] if aliases else list(self.infos)
        return sorted(pool if prefix is None else [n for n in pool if n.startswith(prefix)])

    def find(self, name: str) -> TagEntry | None:
        """The built entry of tag (or variant) ``name``, building it on first lookup; None if none is declared."""
        entry = self.built.get(name)
        if entry is not None:
            return entry
        info = self.declared.get(name)
        if info is None:
            return None
        try:
            target = self._make(info.config, info.name)
        except TargetError as exc:
            if info.user:
                raise
            raise PluginError(
                f"tag {info.name!r} of plugin {info.owner!r} does not build: {exc} "
                f"(check it with: tcfg plugins --check {info.owner})"
            ) from exc
        entry = TagEntry(
            info.name, target.export(), target, info.description, info.source, info.owner, info.aliases, info.variants
        )
        for key in info.keys:
            self.built[key] = entry
        return entry

    def adopt_user_tags(self, other: "TagTable") -> None:
        """Take ``other``'s user tags (registered with ``register_tag``), replacing plugins' tags of their names."""
        self.infos.update({k: i for k, i in other.infos.items() if i.user})
        self.declared.update({k: i for k, i in other.declared.items() if i.user})
        self.built.update({k: e for k, e in other.built.items() if other.declared[k].user})

    def commit(self, stage: Stage, manifest: Manifest) -> list[str]:
        """Check and declare a plugin's tags (names and aliases unclaimed, variants well named); their names."""
        plugin = stage.plugin
        added: list[str] = []
        for spec in stage.tags:
            try:
                names = (spec.name, *_sequence(spec.aliases))
            except TargetError as exc:
                raise PluginFailure(f"tag {spec.name!r} is invalid: {exc}") from exc
            undeclared(plugin, manifest, "tag", (n for n in names if isinstance(n, str)))
            for name in names:
                taken = self.declared.get(name) if isinstance(name, str) else None
                if taken is not None:
                    what = "" if name == taken.name else f" (an alias of {taken.name!r})"
                    raise clash(plugin, f"the tag {name!r}{what}", taken.owner)
            try:
                self._declare(spec, plugin)
            except TargetError as exc:
                raise PluginFailure(f"tag {spec.name!r} is invalid: {exc}") from exc
            added.append(spec.name)
        return sorted(added)

    def register(self, spec: TagSpec, override: bool) -> None:
        """Declare and build the user's tag ``spec`` (replacing one of that name if ``override``), or change nothing."""
        name = spec.name
        existing = self.infos.get(name) if isinstance(name, str) else None
        if existing is not None and not override:
            raise TargetError(
                f"tag {name!r} is already registered (by {existing.owner}); pass override=True to replace it"
            )
        for key in (name, *_sequence(spec.aliases)):
            taken = self.declared.get(key) if isinstance(key, str) else None
            if taken is not None and not (existing is not None and key in _all_keys(self.declared, existing)):
                what = "tag" if key == name else "tag alias"
                raise TargetError(f"{what} {key!r} is already a name of tag {taken.name!r} ({taken.owner})")
        saved = (dict(self.infos), dict(self.declared), dict(self.built))
        try:
            if existing is not None:
                self._undeclare(existing)
            for info in self._declare(spec, None):
                try:
                    self.find(info.name)
                except TargetError as exc:
                    if info.name == name:
                        raise
                    raise type(exc)(f"variant {info.name!r}: {exc}") from None
        except BaseException:
            self.infos, self.declared, self.built = saved
            raise

    def _undeclare(self, info: TagInfo) -> None:
        """Take tag ``info`` out of the table, with its aliases and variants."""
        del self.infos[info.name]
        for key in _all_keys(self.declared, info):
            del self.declared[key]
            self.built.pop(key, None)

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

    def _declare(self, spec: TagSpec, plugin: str | None) -> list[TagInfo]:
        """Check ``spec``'s names and declare it and its variants under all their names; the infos declared.

        ``plugin`` is the declaring plugin's name, or None for the user's (``register_tag``). The caller
        checks the names are free.
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
        names = (name, *aliases)
        user = plugin is None
        owner = USER if plugin is None else plugin
        base = TagInfo(
            name, spec.config, spec.description, spec.source, owner, aliases, tuple(sorted(variants)), names, user
        )
        infos = [base]
        infos += [
            TagInfo(
                f"{name}:{v}",
                config,
                spec.description,
                spec.source,
                owner,
                keys=tuple(f"{n}:{v}" for n in names),
                user=user,
            )
            for v, config in variants.items()
        ]
        self.infos[name] = base
        for info in infos:
            for key in info.keys:
                self.declared[key] = info
        return infos


def spec_extras(aliases: Any, variants: Any) -> tuple[Any, Any]:
    """The ``aliases`` and ``variants`` fields of a TagSpec from register()'s keywords (checked when declared)."""
    return (tuple(aliases) if isinstance(aliases, (list, tuple)) else aliases), ({} if variants is None else variants)


def _all_keys(declared: Mapping[str, TagInfo], info: TagInfo) -> list[str]:
    """Every name under which tag ``info`` and its variants are declared."""
    keys = list(info.keys)
    keys += [key for v in info.variants for key in declared[f"{info.name}:{v}"].keys]
    return keys


def _sequence(value: Any) -> tuple[Any, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TargetError(f"tag aliases must be a list of names, not {short_repr(value)}")
    return tuple(value)


def _mapping(value: Any, what: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise TargetError(f"{what} must be a mapping of variant names to target configs, not {short_repr(value)}")
    return value
