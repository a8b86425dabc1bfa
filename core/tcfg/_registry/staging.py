"""One plugin's registrations, checked before any is stored, and the tables they are stored in.

A plugin's registrations are all or nothing: :class:`Stage` holds what its hooks
registered; :class:`Contents` checks them against what other plugins own and stores
them (or raises :class:`~tcfg._registry.records.PluginFailure` having stored none),
and takes a failed plugin's out again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING

from tcfg._model.components import ROLES, Component
from tcfg._model.cpu import CpuParser
from tcfg._model.features import Feature, FeatureIndex, feature_name
from tcfg._model.kind import Compiler, Library, TargetKind
from tcfg._registry.records import PluginFailure, PluginRecord, call_plugin_code, clash

if TYPE_CHECKING:
    from tcfg._model.components import Role
    from tcfg.hookspecs import TagSpec

__all__ = ["OWNED", "SPACES", "Contents", "Dependent", "Manifest", "Stage", "covers", "tag_prefix", "undeclared"]

#: The spaces of a plugin's manifest (its ``tcfg.provides`` entry points, ``SPACE.NAME``):
#: tags are declared by a vendor (``tag.nvidia``: every ``nvidia/...`` name) or a name
#: prefix holding a ``/`` (``tag.aws/trn``: ``aws/trn1/trn1.2xlarge`` ...), see
#: :func:`tag_prefix`; ``derive.KIND`` says its ``tcfg_derive_target`` adds to targets of ``KIND``;
#: ``feature.NAME`` declares a feature name or alias (canonical spelling), which several plugins may share.
SPACES = ("kind", "arch", "tag", "compiler", "library", "executor", "runtime", "derive", "feature")
#: The spaces whose names one plugin owns (the first to register one keeps it).
OWNED = frozenset({"kind", "arch", "compiler", "executor", "runtime"})
#: What a plugin declares it provides, as ``(space, name)`` pairs; None when it declares nothing.
Manifest = frozenset[tuple[str, str]] | None
#: Compilers by ``(kind, name)`` and libraries by kind, committed aside (see :meth:`Contents.publish`).
Dependent = tuple[dict[tuple[str, str], Compiler], dict[str, list[Library]]]


class Stage:
    """One plugin's registrations, held until they are all valid."""

    __slots__ = ("compilers", "components", "cpu_parsers", "features", "kinds", "libraries", "plugin", "tags")

    def __init__(self, plugin: str) -> None:
        self.plugin = plugin
        self.kinds: list[TargetKind] = []
        self.cpu_parsers: list[CpuParser] = []
        self.compilers: list[Compiler] = []
        self.libraries: list[Library] = []
        self.features: list[Feature] = []
        self.components: dict[Role, list[Component]] = {role: [] for role in ROLES}
        self.tags: list[TagSpec] = []


def tag_prefix(declared: str) -> str:
    """What a manifest's ``tag.X`` entry covers, as a prefix of ``NAME/``: a vendor ``X`` covers ``X/``."""
    return declared if "/" in declared else declared + "/"


def covers(declared: str, tag: str) -> bool:
    """Whether the manifest entry ``tag.<declared>`` declares the tag name ``tag`` (a variant's base name)."""
    return (tag + "/").startswith(tag_prefix(declared))


_LISTED = 5  # names an undeclared-names failure lists


def undeclared(plugin: str, manifest: Manifest, space: str, names: Iterable[str]) -> None:
    """Refuse names in ``space`` that ``plugin``'s manifest does not declare (a plugin without one declares all)."""
    if manifest is None:
        return
    if space == "tag":
        prefixes = [name for s, name in manifest if s == "tag"]
        missing = sorted({name for name in names if not any(covers(p, name) for p in prefixes)})
        if missing:
            raise PluginFailure(
                f"registers the tag {missing[0]!r}, which its tcfg.provides entry points do not declare "
                f"(add tag.{missing[0].split('/', 1)[0]}, or a prefix of the name, to them; tcfg loads a plugin "
                "only for the names it declares)"
            )
        return
    missing = sorted({name for name in names if (space, name) not in manifest})
    if missing:
        entries = ", ".join(f"{space}.{name}" for name in missing[:_LISTED])
        if len(missing) > _LISTED:
            entries += f" and {len(missing) - _LISTED} more"
        raise PluginFailure(
            f"registers the {space} {missing[0]!r}, which its tcfg.provides entry points do not declare "
            f"(add {entries} to them; tcfg loads a plugin only for the names it declares)"
        )


class Contents:
    """Every kind, CPU parser, compiler, library, executor, runtime and feature the loaded plugins registered.

    ``kinds`` is the live table the target builder reads; ``owners`` says which plugin
    registered each owned name, by ``(space, name)``.
    """

    def __init__(self, fill: Callable[[str | None], bool]) -> None:
        self.kinds: dict[str, TargetKind] = {}
        self.parsers: list[CpuParser] = []  # in plugin order (by rank)
        self.parser_ranks: dict[int, int] = {}  # id(parser) -> its plugin's rank
        self.compilers: dict[tuple[str, str], Compiler] = {}
        self.libraries: dict[str, list[Library]] = {}  # by kind, every registration in load order
        self.components: dict[Role, dict[str, Component]] = {role: {} for role in ROLES}
        self.features = FeatureIndex()
        self.features.fill = fill
        #: Which plugin registered each owned name, by ``(space, name)`` (``feature alias`` too).
        self.owners: dict[tuple[str, str], str] = {}

    def claim(self, plugin: str, space: str, name: str) -> None:
        """Refuse ``name`` in ``space`` if another plugin owns it."""
        owner = self.owners.get((space, name))
        if owner is not None and owner != plugin:
            raise clash(plugin, f"the {space} {name!r}", owner)

    def commit_independent(self, stage: Stage, rank: int, manifest: Manifest, record: PluginRecord) -> None:
        """Check and store a plugin's kinds, CPU parsers, executors, runtimes and features (all or none)."""
        plugin = stage.plugin
        declared = self._check_independent(stage, manifest)
        aliases = self._check_features(plugin, declared)
        undeclared(plugin, manifest, "feature", [*(f.name for f in declared), *aliases])
        for kind in stage.kinds:
            self.kinds[kind.name] = kind
            self.owners[("kind", kind.name)] = plugin
        for parser in stage.cpu_parsers:
            self.parser_ranks[id(parser)] = rank
            self.parsers.append(parser)
            self.parsers.sort(key=lambda p: self.parser_ranks[id(p)])
            for arch in parser.arches:
                self.owners[("CPU architecture", arch)] = plugin
        for role, components in stage.components.items():
            for component in components:
                self.components[role][component.name] = component
                self.owners[(role, component.name)] = plugin
        for feat in declared:
            self.features.docs.setdefault(feat.name, feat.doc)
            owners = self.features.owners.get(feat.name, ())
            if plugin not in owners:
                self.features.owners[feat.name] = (*owners, plugin)
        self.features.aliases.update(aliases)
        for alias in aliases:
            self.owners[("feature alias", alias)] = plugin
        record.registered["kinds"] = [k.name for k in stage.kinds]
        record.registered["cpu_parsers"] = [p.name for p in stage.cpu_parsers]
        for role, components in stage.components.items():
            record.registered[f"{role}s"] = [c.name for c in components]
        record.registered["features"] = sorted({f.name for f in declared})

    def _check_independent(self, stage: Stage, manifest: Manifest) -> list[Feature]:
        """Check a plugin's kinds, CPU parsers and components; the features they and the plugin declare."""
        plugin = stage.plugin
        declared: list[Feature] = list(stage.features)
        seen: set[tuple[str, str]] = set()
        for kind in stage.kinds:
            if not isinstance(kind, TargetKind):
                raise PluginFailure(f"registered {kind!r} as a kind; expected a tcfg.plugin.TargetKind")
            self.claim(plugin, "kind", kind.name)
            if ("kind", kind.name) in seen:
                raise PluginFailure(f"registers the kind {kind.name!r} twice")
            seen.add(("kind", kind.name))
            declared += kind.features
        for parser in stage.cpu_parsers:
            if not isinstance(parser, CpuParser):
                raise PluginFailure(f"registered {parser!r} as a CPU parser; expected a tcfg.plugin.CpuParser")
            for arch in parser.arches:
                self.claim(plugin, "CPU architecture", arch)
                if ("CPU architecture", arch) in seen:
                    raise PluginFailure(f"claims the CPU architecture {arch!r} twice")
                seen.add(("CPU architecture", arch))
            # A CPU parser may compute its features (from its tables): its failure is the plugin's.
            declared += call_plugin_code("CpuParser.features", partial(_features_of, parser))
        for compiler in stage.compilers:
            declared += getattr(compiler, "features", ())
        for role, components in stage.components.items():
            for component in components:
                if not isinstance(component, Component):
                    raise PluginFailure(f"registered {component!r} as {role}; expected a tcfg.plugin.Component")
                self.claim(plugin, role, component.name)
                if (role, component.name) in seen:
                    raise PluginFailure(f"registers the {role} {component.name!r} twice")
                seen.add((role, component.name))
        undeclared(plugin, manifest, "kind", (k.name for k in stage.kinds))
        undeclared(plugin, manifest, "arch", (a for p in stage.cpu_parsers for a in p.arches))
        for role, components in stage.components.items():
            undeclared(plugin, manifest, role, (c.name for c in components))
        return declared

    def _check_features(self, plugin: str, declared: list[Feature]) -> dict[str, str]:
        """Check declared features' names and aliases; the new aliases (alias -> feature)."""
        aliases: dict[str, str] = {}
        for feat in declared:
            if not isinstance(feat, Feature) or feature_name(feat.name) != feat.name:
                raise PluginFailure(f"declares {feat!r}: features need canonical names (lower case, '_')")
            for alias in feat.aliases:
                key = feature_name(alias)
                target = aliases.get(key) or self.features.aliases.get(key)
                if key in self.features.docs:
                    raise PluginFailure(
                        f"declares the feature alias {alias!r}, which is the name of a feature "
                        f"(declared by {', '.join(self.features.owners.get(key, ('?',)))}); drop the alias"
                    )
                if target is not None and target != feat.name:
                    taken_by = self.owners.get(("feature alias", key), plugin)
                    raise PluginFailure(
                        f"declares the feature alias {alias!r} for {feat.name!r}, but it is already an alias "
                        f"of {target!r} (declared by {taken_by}); drop the alias or rename it",
                        rival=None if taken_by == plugin else taken_by,
                    )
                aliases[key] = feat.name
        return aliases

    def commit_compilers(
        self,
        stage: Stage,
        manifest: Manifest,
        record: PluginRecord,
        find_kind: Callable[[str], TargetKind | None],
        fresh: Dependent | None = None,
    ) -> None:
        """Check and store a plugin's compilers and ``-libs`` libraries, which may be for any plugin's kinds.

        They go into ``fresh`` (see :meth:`publish`) if given, else into the live tables.
        """
        plugin = stage.plugin
        compilers, libraries = (self.compilers, self.libraries) if fresh is None else fresh
        undeclared(plugin, manifest, "compiler", (c.name for c in stage.compilers if isinstance(c, Compiler)))
        undeclared(plugin, manifest, "library", (lib.name for lib in stage.libraries if isinstance(lib, Library)))
        added_compilers: list[tuple[str, str]] = []
        for library in stage.libraries:
            if not isinstance(library, Library):
                raise PluginFailure(f"registered {library!r} as a library; expected a tcfg.plugin.Library")
            for kind_name in library.kinds:
                if find_kind(kind_name) is None:
                    raise PluginFailure(
                        f"registers the library {library.name!r} for the kind {kind_name!r}, "
                        "which no loaded plugin provides"
                    )
                libraries.setdefault(kind_name, []).append(library)
        for compiler in stage.compilers:
            if not isinstance(compiler, Compiler):
                raise PluginFailure(f"registered {compiler!r} as a compiler; expected a tcfg.plugin.Compiler")
            for kind_name in compiler.kinds:
                kind = find_kind(kind_name)
                if kind is None:
                    raise PluginFailure(
                        f"registers the compiler {compiler.name!r} for the kind {kind_name!r}, "
                        "which no loaded plugin provides"
                    )
                if (kind_name, compiler.name) in compilers:
                    raise PluginFailure(f"registers the compiler {compiler.name!r} for {kind_name!r} twice")
                shared = sorted(set(compiler.table) & set(kind.table))
                if shared:
                    raise PluginFailure(
                        f"compiler {compiler.name!r} declares attributes {shared} that kind {kind_name!r} already has"
                    )
                compilers[(kind_name, compiler.name)] = compiler
                self.owners[("compiler", f"{kind_name}:{compiler.name}")] = plugin
                added_compilers.append((kind_name, compiler.name))
        record.registered["compilers"] = [f"{k}:{c}" for k, c in added_compilers]
        record.registered["libraries"] = sorted({f"{k}:{lib.name}" for lib in stage.libraries for k in lib.kinds})

    def publish(self, fresh: Dependent) -> None:
        """Put the compilers and libraries committed into ``fresh`` in place of the live ones.

        Compilers and libraries are committed again from scratch when a plugin fails; they
        are filled aside and put in place at once, so that other threads never see them
        half filled.
        """
        self.compilers, self.libraries = fresh

    def remove(self, stage: Stage) -> None:
        """Take out what a failed plugin registered (its kinds, parsers, components and features)."""
        for kind in stage.kinds:
            self.kinds.pop(kind.name, None)
            self.owners.pop(("kind", kind.name), None)
        for parser in stage.cpu_parsers:
            if parser in self.parsers:
                self.parsers.remove(parser)
                del self.parser_ranks[id(parser)]
            for arch in parser.arches:
                self.owners.pop(("CPU architecture", arch), None)
        for role, components in stage.components.items():
            for component in components:
                self.components[role].pop(component.name, None)
                self.owners.pop((role, component.name), None)
        for name, owners in list(self.features.owners.items()):
            rest = tuple(o for o in owners if o != stage.plugin)
            if rest:
                self.features.owners[name] = rest
            else:
                del self.features.owners[name]
                self.features.docs.pop(name, None)
        for alias, name in list(self.features.aliases.items()):
            if name not in self.features.docs or self.owners.get(("feature alias", alias)) == stage.plugin:
                del self.features.aliases[alias]
                self.owners.pop(("feature alias", alias), None)


def _features_of(parser: CpuParser) -> list[Feature]:
    return list(parser.features)
