"""The registry: kinds, tags, CPU parsers, compilers and features, loaded from plugins on first use."""

from __future__ import annotations

import _thread
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from tcfg._base.errors import (
    PluginError,
    PluginWarning,
    TargetError,
    UnknownKindError,
    UnknownTagError,
    describe_choices,
)
from tcfg._base.files import package_json
from tcfg._base.memo import Memo
from tcfg._base.version import __version__
from tcfg._build.entry import build, from_dict, nested_context, with_attrs
from tcfg._build.memo import BuildState
from tcfg._build.readers import from_text
from tcfg._builtin import plugin as builtin_plugin
from tcfg._model.components import ROLES, Component
from tcfg._model.cpu import CpuParser
from tcfg._model.features import Feature, FeatureIndex, feature_name
from tcfg._model.kind import Compiler, Derived, Library, TargetKind
from tcfg._registry.discovery import Candidate, discover, env_flag
from tcfg._registry.manager import InvalidPlugin, Manager
from tcfg.hookspecs import TagSpec

if TYPE_CHECKING:
    from tcfg._model.codegen import Codegen
    from tcfg._model.components import Role
    from tcfg._model.kind import DeriveRequest
    from tcfg._model.target import Target

__all__ = ["PluginRecord", "Registry", "TagEntry", "default_registry"]

#: What a tag name and a variant name may be (matched with ``re.match``, compiled on first use).
_TAG_NAME = r"[^\s'\"\\{=:-][^\s'\"\\:]*\Z"
_VARIANT_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.+-]*\Z"
#: The longest tag name accepted, in characters.
MAX_TAG_NAME = 200
#: Most target strings :meth:`Registry.target` keeps built (cleared whole when full). Kept
#: small: a program uses a few distinct targets, and a large cache of short-lived
#: targets costs more in memory traffic than it saves (measured: 4096 entries made
#: new targets about 0.7 µs slower than 256).
_TEXT_CACHE_LIMIT = 512


class PluginRecord:
    """What became of one plugin: ``status`` is ``loaded``, ``failed`` or ``disabled``.

    ``error`` says why it is not loaded; ``registered`` lists what it registered, by what.
    """

    __slots__ = ("distribution", "error", "name", "registered", "status", "version")

    def __init__(
        self,
        name: str,
        distribution: str | None,
        version: str | None,
        status: str,
        error: str | None = None,
        registered: dict[str, list[str]] | None = None,
    ) -> None:
        self.name = name
        self.distribution = distribution
        self.version = version
        self.status = status
        self.error = error
        self.registered: dict[str, list[str]] = {} if registered is None else registered

    def __repr__(self) -> str:
        return (
            f"PluginRecord(name={self.name!r}, distribution={self.distribution!r}, version={self.version!r}, "
            f"status={self.status!r}, error={self.error!r}, registered={self.registered!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PluginRecord):
            return NotImplemented
        return self.to_dict() == other.to_dict() and self.registered == other.registered

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-compatible data."""
        return {
            "name": self.name,
            "distribution": self.distribution,
            "version": self.version,
            "status": self.status,
            "error": self.error,
            "registered": {k: sorted(v) for k, v in self.registered.items() if v},
        }


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


class _PluginFailure(Exception):
    """A plugin's registration was refused; the message says why."""


class _Stage:
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


#: The spaces of a plugin's manifest (its ``tcfg.provides`` entry points, ``SPACE.NAME``):
#: a tag is declared by its vendor, the part of its name before the first ``/``;
#: ``derive.KIND`` says its ``tcfg_derive_target`` adds to targets of ``KIND``.
SPACES = ("kind", "arch", "tag", "compiler", "library", "executor", "runtime", "derive")
#: The spaces whose names one plugin owns (the first to register one keeps it).
_OWNED = frozenset({"kind", "arch", "compiler", "executor", "runtime"})


class Registry:
    """Everything plugins registered, loaded lazily.

    ``plugins`` are in-process plugin objects (modules or instances with hook
    implementations), registered after the core and before entry points;
    ``autoload=False`` scans no entry points; ``strict`` (default:
    ``TCFG_STRICT_PLUGINS``) turns a plugin failure into :class:`tcfg.PluginError`.

    The first query loads the core, the in-process plugins and the installed plugins
    that declare nothing in the ``tcfg.provides`` group. A plugin that declares what it
    provides (its kinds, CPU architectures, tag vendors, compilers, libraries, executors
    and runtimes) is imported only when a query needs one of those names, and its tags
    only when a tag of one of its vendors is looked up. Every answer is the one loading
    everything would give: a plugin is loaded after every lower-ranked one that declares
    a name it owns too, a name no loaded plugin has loads what may provide it, and
    listings (kinds, tags, plugins) load everything.
    """

    # Slots: the builder reads a registry's attributes on every target, and slots read
    # fastest (an instance dict of this many keys is no longer a shared-key dict).
    __slots__ = (
        "_autoload",
        "_busy",
        "_cache",
        "_compilers",
        "_complete",
        "_components",
        "_deferred",
        "_dicts",
        "_environ",
        "_explicit",
        "_features",
        "_libraries",
        "_loaded",
        "_loading",
        "_lock",
        "_lookup",
        "_manager",
        "_manifests",
        "_owners",
        "_parser_ranks",
        "_parsers",
        "_pending",
        "_provided",
        "_providers",
        "_rank",
        "_records",
        "_stages",
        "_strict",
        "_tags",
        "_untagged",
        "_warned_arches",
        "build_state",
        "derive_hooks",
        "kinds",
    )

    def __init__(
        self,
        plugins: Sequence[object] = (),
        *,
        autoload: bool = True,
        strict: bool | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self._explicit = list(plugins)
        self._autoload = autoload
        self._environ = environ
        self._strict = strict
        self._lock = _thread.RLock()
        self._reset()

    def _reset(self) -> None:
        self._loaded = self._loading = self._complete = False
        self._busy = 0  # loads of this thread under way (see _guarded)
        #: The live ``name -> TargetKind`` table of the loaded plugins, which the target builder
        #: reads directly (a miss calls :meth:`find_kind`); builds run after the first load.
        self.kinds: dict[str, TargetKind] = {}
        self._tags: dict[str, TagEntry] = {}  # canonical names
        #: Every name a tag resolves by (canonical names, aliases, ``NAME:VARIANT``s of both).
        self._lookup: dict[str, TagEntry] = {}
        #: The CPU architectures already warned about (see :meth:`unclaimed_arch`).
        self._warned_arches: set[str] = set()
        #: Warnings of plugin failures met while loading, issued once the load is done (see _flush).
        self._deferred: list[str] = []
        self._parsers: list[CpuParser] = []  # in plugin order (see _rank)
        self._parser_ranks: dict[int, int] = {}  # id(parser) -> its plugin's rank
        self._compilers: dict[tuple[str, str], Compiler] = {}
        self._libraries: dict[str, list[Library]] = {}  # by kind, every registration in load order
        self._components: dict[Role, dict[str, Component]] = {role: {} for role in ROLES}
        self._features = FeatureIndex()
        self._features.fill = self._load_all_pending
        self._owners: dict[tuple[str, str], str] = {}
        self._records: list[PluginRecord] = []
        #: Each discovered plugin's place in the order (the core first, then in-process
        #: plugins, then entry points by name), which decides who keeps a contested name.
        self._rank: dict[str, int] = {}
        #: The plugins with a manifest not loaded yet, and every manifest by plugin.
        self._pending: dict[str, Candidate] = {}
        self._manifests: dict[str, frozenset[tuple[str, str]]] = {}
        #: ``(space, name)`` -> the plugins whose manifest declares it, by rank.
        self._providers: dict[tuple[str, str], list[str]] = {}
        #: The loaded plugins' hook implementations, in pluggy's manager.
        self._manager = Manager(trace=env_flag(self._env(), "TCFG_TRACE_PLUGINS"))
        #: The loaded plugins' registrations, and those whose tags are not loaded yet.
        self._stages: dict[str, _Stage] = {}
        self._untagged: set[str] = set()
        #: ``(space, name)`` keys whose declaring plugins are all loaded (see :meth:`_need`);
        #: ``(space, "*")``: every plugin declaring a name in the space is (see :meth:`_need_space`).
        self._provided: set[tuple[str, str]] = set()
        #: Targets built from text, by the text (and the host's text); cleared with the tags.
        self._cache: Memo[Any, Target] = Memo(_TEXT_CACHE_LIMIT)
        #: Dicts passed to :meth:`target`, by ``id()`` (see :meth:`_dict_again`); cleared with the tags.
        self._dicts: Memo[int, Any] = Memo(_TEXT_CACHE_LIMIT)
        #: The plugins implementing ``tcfg_derive_target``, in calling order (filled by loading).
        self.derive_hooks: list[str] = []
        #: What the target builder remembers for this registry (its own, private state).
        self.build_state = BuildState()

    # -- loading ---------------------------------------------------------------------

    def _ensure(self) -> None:
        """Run the first query's load once: the core, in-process plugins and plugins without a manifest."""
        if not self._loaded:
            with self._lock:  # other threads wait here until the load is done
                if not self._loaded and not self._loading:
                    self._loading = True  # a query this load makes sees what is loaded so far
                    try:
                        self._guarded(self._load)
                        self._loaded = True
                    finally:
                        self._loading = False
            if self._deferred and not self._busy:
                self._flush()

    def _ensure_tags(self) -> None:
        """Load everything: every plugin and every tag."""
        if self._complete:
            return  # no lock to take: once everything is loaded, nothing is pending again
        self._ensure()
        with self._lock:  # waits for another thread's load
            if self._pending or self._untagged:
                self._guarded(self._load_everything)
            # not while a load this thread runs is still under way (its plugin is no longer pending)
            self._complete = not self._busy and self._loaded and not self._pending and not self._untagged
        if self._deferred and not self._busy:
            self._flush()

    def _load_everything(self) -> None:
        self._load_pending(list(self._pending))
        self._load_tags(list(self._untagged))

    def _guarded(self, load: Callable[[], object]) -> None:
        """Run ``load``, holding the lock; if it raises (a ``KeyboardInterrupt`` mid-load), forget all loaded."""
        self._busy += 1
        try:
            load()
        except BaseException:
            self._reset()  # _busy too
            raise
        self._busy -= 1

    def _is_strict(self) -> bool:
        if self._strict is not None:
            return self._strict
        return env_flag(self._env(), "TCFG_STRICT_PLUGINS")

    def _load(self) -> None:
        candidates = [Candidate("core", "tcfg-core", __version__, partial(_same, builtin_plugin))]
        for index, obj in enumerate(self._explicit):
            name = getattr(obj, "tcfg_plugin_name", None) or getattr(obj, "__name__", None)
            name = name if isinstance(name, str) else f"plugin{index}"
            candidates.append(Candidate(name, None, None, partial(_same, obj)))
        if self._autoload:
            found, skipped = discover(self._environ)
            candidates += found
            for skip in skipped:
                self._records.append(PluginRecord(skip.name, skip.distribution, skip.version, "disabled", skip.reason))
        # Loaded now: plugins without a manifest (what they provide is known only by loading
        # them), those whose derive hook may add to any target, and every plugin ranked
        # before one of those (so that the first by rank keeps a contested name).
        eager = [cand.provides is None or any(s == "derive" for s, _ in cand.provides) for cand in candidates]
        last_eager = max(i for i, now in enumerate(eager) if now)
        now: list[Candidate] = []
        for index, cand in enumerate(candidates):
            self._rank.setdefault(cand.name, len(self._rank))
            if cand.provides is not None and cand.name not in self._manifests:
                self._manifests[cand.name] = cand.provides
                for key in sorted(cand.provides):
                    self._providers.setdefault(key, []).append(cand.name)
            if index <= last_eager:
                now.append(cand)
            else:
                self._pending[cand.name] = cand
        stages = {name: stage for name, stage in ((c.name, self._open(c)) for c in now) if stage is not None}
        self._stages.update(stages)
        self._untagged.update(stages)
        self._commit_dependent(self._stages)
        self._collect_derive_hooks()

    def _open(self, cand: Candidate) -> _Stage | None:
        """Import ``cand``, call its registration hooks but the tags' and commit what needs no other plugin.

        Returns None when the plugin fails (its record says why, a warning too).
        """
        record = PluginRecord(cand.name, cand.distribution, cand.version, "loaded")
        self._records.append(record)
        try:
            if any(r.name == cand.name and r is not record for r in self._records):
                raise _PluginFailure(f"another plugin is already named {cand.name!r}")
            unknown = sorted(f"{s}.{n}" for s, n in cand.provides or () if s not in SPACES)
            if unknown:
                raise _PluginFailure(
                    f"declares {unknown} in the tcfg.provides entry points; "
                    f"each must be SPACE.NAME with SPACE one of {list(SPACES)}"
                )
            obj = _call_plugin_code(cand.name, "import", cand.load)
            try:
                self._manager.add(cand.name, obj, self._rank[cand.name])
            except InvalidPlugin as exc:
                raise _PluginFailure(str(exc)) from None
            derives = self._manager.implements(cand.name, "tcfg_derive_target")
            if derives and cand.provides is not None and not any(s == "derive" for s, _ in cand.provides):
                raise _PluginFailure(
                    "implements tcfg_derive_target but declares no derive.KIND entry point in tcfg.provides "
                    "(name the kinds whose targets it adds to)"
                )
            stage = self._stage(cand.name)
            self._commit_independent(stage)
        except _PluginFailure as exc:
            self._fail(record, str(exc))
            return None
        return stage

    def _load_pending(self, wanted: Iterable[str]) -> None:
        """Load the pending plugins ``wanted`` (each after the lower-ranked ones it contests a name with)."""
        order = self._with_rivals([name for name in wanted if name in self._pending], _OWNED)
        for name in order:
            cand = self._pending.pop(name, None)
            if cand is None:  # loaded meanwhile, as a kind's provider for a compiler of one before it
                continue
            stage = self._open(cand)
            if stage is None:
                continue
            self._stages[name] = stage
            try:
                self._commit_compilers(stage)
            except _PluginFailure as exc:
                self._drop(stage, str(exc))
                continue
            self._untagged.add(name)
            self._collect_derive_hooks()

    def _with_rivals(self, plugins: list[str], spaces: frozenset[str]) -> list[str]:
        """``plugins`` and each lower-ranked plugin not done that declares one of their names in ``spaces``, by rank."""
        chosen = set(plugins)
        todo = list(plugins)
        while todo:
            plugin = todo.pop()
            rank = self._rank[plugin]
            for key in self._manifests.get(plugin, ()):
                if key[0] not in spaces:
                    continue
                for other in self._providers.get(key, ()):
                    undone = other in self._pending or other in self._untagged
                    if undone and other not in chosen and self._rank[other] < rank:
                        chosen.add(other)
                        todo.append(other)
        return sorted(chosen, key=self._rank.__getitem__)

    def _load_all_pending(self) -> bool:
        """Load every pending plugin (its tags aside); whether there was any."""
        with self._lock:  # under the lock: another thread may be loading one
            if not self._pending:
                return False
            self._guarded(partial(self._load_pending, list(self._pending)))
        if self._deferred and not self._busy:
            self._flush()
        return True

    def _need(self, space: str, name: str) -> bool:
        """Load the pending plugins that declare ``name`` in ``space``; whether any declares it.

        A name whose plugins are loaded is remembered, and answered without the lock.
        """
        key = (space, name)
        if key in self._provided:
            return True
        self._ensure()
        providers = self._providers.get(key)
        if not providers:
            return False
        with self._lock:  # waits for another thread's load of one of them
            if any(p in self._pending for p in providers):
                self._guarded(partial(self._load_pending, providers))
            if not self._busy:  # (see _ensure_tags)
                self._provided.add(key)
        if self._deferred and not self._busy:
            self._flush()
        return True

    def _need_space(self, space: str) -> None:
        """Load every pending plugin that declares a name in ``space`` (remembered as done, see :meth:`_need`)."""
        key = (space, "*")
        if key in self._provided:
            return
        self._ensure()
        with self._lock:
            wanted = [p for p in self._pending if any(s == space for s, _ in self._manifests[p])]
            if wanted:
                self._guarded(partial(self._load_pending, wanted))
            if not self._busy:
                self._provided.add(key)
        if self._deferred and not self._busy:
            self._flush()

    def _need_tags(self, name: str) -> None:
        """Load the tags ``name`` may be one of: those of its vendor's plugins and of plugins without a manifest."""
        vendor = name.partition(":")[0].split("/", 1)[0]
        with self._lock:  # waits for another thread's load of the same tags
            wanted = {p for p in self._providers.get(("tag", vendor), ())}
            wanted.update(p for p in self._untagged if p not in self._manifests)
            wanted = {p for p in wanted if p in self._pending or p in self._untagged}
            if wanted:
                self._guarded(partial(self._load_tags, self._with_rivals(sorted(wanted), frozenset({"tag"}))))
        if self._deferred and not self._busy:
            self._flush()

    def _load_tags(self, plugins: Iterable[str]) -> None:
        """Stage and commit the tags of ``plugins`` (loading the pending ones first), by rank."""
        order = sorted(plugins, key=self._rank.__getitem__)
        self._load_pending([p for p in order if p in self._pending])
        for plugin in order:
            if plugin not in self._untagged:
                continue
            self._untagged.discard(plugin)
            stage = self._stages.get(plugin)
            if stage is None:
                continue
            try:
                self._stage_tags(stage)
                self._commit_tags(stage)
            except _PluginFailure as exc:
                self._drop(stage, str(exc))

    def _drop(self, stage: _Stage, reason: str) -> None:
        """Fail a loaded plugin: take out all it registered and check every other compiler and tag again."""
        del self._stages[stage.plugin]
        self._untagged.discard(stage.plugin)
        self._fail(self._record(stage.plugin), reason)
        self._remove(stage)
        self._commit_dependent(self._stages)
        self._collect_derive_hooks()

    def _collect_derive_hooks(self) -> None:
        self.derive_hooks[:] = [
            name for name in self._manager.implementers("tcfg_derive_target") if name in self._stages
        ]

    def _stage(self, plugin: str) -> _Stage:
        """Call ``plugin``'s registration hooks, all but the tags', and hold what they register."""
        stage = _Stage(plugin)
        adders: dict[str, Callable[..., None]] = {
            "tcfg_register_kinds": stage.kinds.append,
            "tcfg_register_cpu_parsers": stage.cpu_parsers.append,
            "tcfg_register_compilers": stage.compilers.append,
            "tcfg_register_libraries": stage.libraries.append,
            "tcfg_register_features": stage.features.append,
            "tcfg_register_executors": stage.components["executor"].append,
            "tcfg_register_runtimes": stage.components["runtime"].append,
        }
        for hook, adder in adders.items():
            self._call_registration(plugin, hook, adder)
        return stage

    def _stage_tags(self, stage: _Stage) -> None:
        """Call the plugin's ``tcfg_register_tags`` and hold its tags in ``stage``."""

        def add_tag(
            name: str | TagSpec,
            config: Any = None,
            *,
            description: str = "",
            source: str = "",
            aliases: Sequence[str] = (),
            variants: Mapping[str, Any] | None = None,
        ) -> None:
            if isinstance(name, TagSpec):
                if config is not None or description or source or aliases or variants:
                    raise _PluginFailure(f"register({name!r}) takes a TagSpec alone")
                stage.tags.append(name)
            else:
                stage.tags.append(TagSpec(name, config, description, source, *_spec_extras(aliases, variants)))

        stage.tags.clear()
        self._call_registration(stage.plugin, "tcfg_register_tags", add_tag)

    def _call_registration(self, plugin: str, hook: str, register: Callable[..., None]) -> None:
        if self._manager.implements(plugin, hook):
            _call_plugin_code(plugin, hook, partial(self._manager.call, plugin, hook, register=register))

    def _undeclared(self, plugin: str, space: str, names: Iterable[str]) -> None:
        """Refuse names in ``space`` that ``plugin``'s manifest does not declare (a plugin without one declares all)."""
        manifest = self._manifests.get(plugin)
        if manifest is None:
            return
        missing = sorted({name for name in names if (space, name) not in manifest})
        if missing:
            entries = ", ".join(f"{space}.{name}" for name in missing)
            raise _PluginFailure(
                f"registers the {space} {missing[0]!r}, which its tcfg.provides entry points do not declare "
                f"(add {entries} to them; tcfg loads a plugin only for the names it declares)"
            )

    def _claim(self, plugin: str, space: str, name: str) -> None:
        owner = self._owners.get((space, name))
        if owner is not None and owner != plugin:
            raise _clash(plugin, f"the {space} {name!r}", owner)

    def _commit_independent(self, stage: _Stage) -> None:
        """Check and store a plugin's kinds, CPU parsers, executors, runtimes and features (all or none)."""
        plugin = stage.plugin
        declared: list[Feature] = list(stage.features)
        seen: set[tuple[str, str]] = set()
        for kind in stage.kinds:
            if not isinstance(kind, TargetKind):
                raise _PluginFailure(f"registered {kind!r} as a kind; expected a tcfg.plugin.TargetKind")
            self._claim(plugin, "kind", kind.name)
            if ("kind", kind.name) in seen:
                raise _PluginFailure(f"registers the kind {kind.name!r} twice")
            seen.add(("kind", kind.name))
            declared += kind.features
        for parser in stage.cpu_parsers:
            if not isinstance(parser, CpuParser):
                raise _PluginFailure(f"registered {parser!r} as a CPU parser; expected a tcfg.plugin.CpuParser")
            for arch in parser.arches:
                self._claim(plugin, "CPU architecture", arch)
                if ("CPU architecture", arch) in seen:
                    raise _PluginFailure(f"claims the CPU architecture {arch!r} twice")
                seen.add(("CPU architecture", arch))
            # A CPU parser may compute its features (from its tables): its failure is the plugin's.
            declared += _call_plugin_code(plugin, "CpuParser.features", partial(_features_of, parser))
        for compiler in stage.compilers:
            declared += getattr(compiler, "features", ())
        for role, components in stage.components.items():
            for component in components:
                if not isinstance(component, Component):
                    raise _PluginFailure(f"registered {component!r} as {role}; expected a tcfg.plugin.Component")
                self._claim(plugin, role, component.name)
                if (role, component.name) in seen:
                    raise _PluginFailure(f"registers the {role} {component.name!r} twice")
                seen.add((role, component.name))
        self._undeclared(plugin, "kind", (k.name for k in stage.kinds))
        self._undeclared(plugin, "arch", (a for p in stage.cpu_parsers for a in p.arches))
        for role, components in stage.components.items():
            self._undeclared(plugin, role, (c.name for c in components))
        aliases: dict[str, str] = {}
        for feat in declared:
            if not isinstance(feat, Feature) or feature_name(feat.name) != feat.name:
                raise _PluginFailure(f"declares {feat!r}: features need canonical names (lower case, '_')")
            for alias in feat.aliases:
                key = feature_name(alias)
                target = aliases.get(key) or self._features.aliases.get(key)
                if (target is not None and target != feat.name) or (key in self._features.docs):
                    raise _PluginFailure(f"declares the feature alias {alias!r}, which is already taken")
                aliases[key] = feat.name
        for kind in stage.kinds:
            self.kinds[kind.name] = kind
            self._owners[("kind", kind.name)] = plugin
        for parser in stage.cpu_parsers:
            self._parser_ranks[id(parser)] = self._rank[plugin]
            self._parsers.append(parser)
            self._parsers.sort(key=lambda p: self._parser_ranks[id(p)])
            for arch in parser.arches:
                self._owners[("CPU architecture", arch)] = plugin
        for role, components in stage.components.items():
            for component in components:
                self._components[role][component.name] = component
                self._owners[(role, component.name)] = plugin
        for feat in declared:
            self._features.docs.setdefault(feat.name, feat.doc)
            owners = self._features.owners.get(feat.name, ())
            if plugin not in owners:
                self._features.owners[feat.name] = (*owners, plugin)
        self._features.aliases.update(aliases)
        record = self._record(plugin)
        record.registered["kinds"] = [k.name for k in stage.kinds]
        record.registered["cpu_parsers"] = [p.name for p in stage.cpu_parsers]
        for role, components in stage.components.items():
            record.registered[f"{role}s"] = [c.name for c in components]
        record.registered["features"] = sorted({f.name for f in declared})

    def _commit_dependent(self, stages: dict[str, _Stage]) -> None:
        """Check and store every compiler, and the tags of the plugins whose tags are loaded, from scratch.

        Compilers and tags may use any plugin's kinds and tags. A plugin whose compiler or
        tag is refused loses all its registrations, and everything is checked again, since
        other plugins' tags may have used what it registered. Tags the user registered stay.
        """
        while True:
            user_tags = {k: e for k, e in self._tags.items() if e.owner == "user"}
            user_names = {k: e for k, e in self._lookup.items() if e.owner == "user"}
            self._tags.clear()
            self._lookup.clear()
            self._compilers.clear()
            self._libraries.clear()
            self._cache.clear()
            self._dicts.clear()
            failed: tuple[_Stage, str] | None = None
            steps = [(stage, self._commit_compilers) for stage in list(stages.values())]
            # every compiler and library first: a tag may use any plugin's
            tagged = [stage for stage in list(stages.values()) if stage.plugin not in self._untagged]
            steps += [(stage, self._commit_tags) for stage in tagged]
            for stage, commit in steps:
                try:
                    commit(stage)
                except _PluginFailure as exc:
                    failed = (stage, str(exc))
                    break
            self._tags.update(user_tags)
            self._lookup.update(user_names)
            if failed is None:
                return
            loser, reason = failed
            del stages[loser.plugin]
            self._untagged.discard(loser.plugin)
            self._fail(self._record(loser.plugin), reason)
            self._remove(loser)

    def _commit_compilers(self, stage: _Stage) -> None:
        """Check and store a plugin's compilers and ``-libs`` libraries, which may be for any plugin's kinds."""
        plugin = stage.plugin
        self._undeclared(plugin, "compiler", (c.name for c in stage.compilers if isinstance(c, Compiler)))
        self._undeclared(plugin, "library", (lib.name for lib in stage.libraries if isinstance(lib, Library)))
        added_compilers: list[tuple[str, str]] = []
        for library in stage.libraries:
            if not isinstance(library, Library):
                raise _PluginFailure(f"registered {library!r} as a library; expected a tcfg.plugin.Library")
            for kind_name in library.kinds:
                if self.find_kind(kind_name) is None:
                    raise _PluginFailure(
                        f"registers the library {library.name!r} for the kind {kind_name!r}, "
                        "which no loaded plugin provides"
                    )
                self._libraries.setdefault(kind_name, []).append(library)
        for compiler in stage.compilers:
            if not isinstance(compiler, Compiler):
                raise _PluginFailure(f"registered {compiler!r} as a compiler; expected a tcfg.plugin.Compiler")
            for kind_name in compiler.kinds:
                kind = self.find_kind(kind_name)
                if kind is None:
                    raise _PluginFailure(
                        f"registers the compiler {compiler.name!r} for the kind {kind_name!r}, "
                        "which no loaded plugin provides"
                    )
                if (kind_name, compiler.name) in self._compilers:
                    raise _PluginFailure(f"registers the compiler {compiler.name!r} for {kind_name!r} twice")
                clash = sorted(set(compiler.table) & set(kind.table))
                if clash:
                    raise _PluginFailure(
                        f"compiler {compiler.name!r} declares attributes {clash} that kind {kind_name!r} already has"
                    )
                self._compilers[(kind_name, compiler.name)] = compiler
                added_compilers.append((kind_name, compiler.name))
        record = self._record(plugin)
        record.registered["compilers"] = [f"{k}:{c}" for k, c in added_compilers]
        record.registered["libraries"] = sorted({f"{k}:{lib.name}" for lib in stage.libraries for k in lib.kinds})

    def _commit_tags(self, stage: _Stage) -> None:
        """Check and store a plugin's tags (names and aliases unclaimed, every config building)."""
        plugin = stage.plugin
        added_tags: list[str] = []
        for spec in stage.tags:
            try:
                names = (spec.name, *_sequence(spec.aliases))
            except TargetError as exc:
                raise _PluginFailure(f"tag {spec.name!r} is invalid: {exc}") from exc
            if plugin in self._manifests:
                self._undeclared(plugin, "tag", (n.split("/", 1)[0] for n in names if isinstance(n, str)))
            for name in names:
                taken = self._lookup.get(name) if isinstance(name, str) else None
                if taken is not None:
                    what = "" if name == taken.name else f" (an alias of {taken.name!r})"
                    raise _clash(plugin, f"the tag {name!r}{what}", taken.owner)
            try:
                self._add_tag(spec, plugin)
            except TargetError as exc:
                raise _PluginFailure(f"tag {spec.name!r} is invalid: {exc}") from exc
            added_tags.append(spec.name)
        self._record(plugin).registered["tags"] = sorted(added_tags)

    def _remove(self, stage: _Stage) -> None:
        for kind in stage.kinds:
            self.kinds.pop(kind.name, None)
            self._owners.pop(("kind", kind.name), None)
        for parser in stage.cpu_parsers:
            if parser in self._parsers:
                self._parsers.remove(parser)
                del self._parser_ranks[id(parser)]
            for arch in parser.arches:
                self._owners.pop(("CPU architecture", arch), None)
        for role, components in stage.components.items():
            for component in components:
                self._components[role].pop(component.name, None)
                self._owners.pop((role, component.name), None)
        for name, owners in list(self._features.owners.items()):
            rest = tuple(o for o in owners if o != stage.plugin)
            if rest:
                self._features.owners[name] = rest
            else:
                del self._features.owners[name]
                self._features.docs.pop(name, None)
        for alias, name in list(self._features.aliases.items()):
            if name not in self._features.docs:
                del self._features.aliases[alias]
        self._manager.remove(stage.plugin)

    def _record(self, plugin: str) -> PluginRecord:
        return next(r for r in reversed(self._records) if r.name == plugin)

    def _fail(self, record: PluginRecord, error: str) -> None:
        record.status, record.error, record.registered = "failed", error, {}
        self._manager.remove(record.name)
        message = f"tcfg plugin {record.name!r} ({record.distribution or 'in-process'}) was not loaded: {error}"
        if self._is_strict():
            raise PluginError(message)
        self._deferred.append(message)

    def _flush(self) -> None:
        """Issue the warnings of the plugin failures the last load met, each once.

        Issued after the load is done, so that a warning turned into an error (``-W error``)
        leaves the registry loaded without the failed plugin, and is raised once only.
        """
        while self._deferred:
            _warn(self._deferred.pop(0), stacklevel=3)

    def _check_tag_name(self, name: object, what: str = "tag name") -> str:
        if not isinstance(name, str) or not re.match(_TAG_NAME, name) or not name.isprintable():
            raise TargetError(
                f"{what} {_short_repr(name)} must be non-empty printable text without whitespace, quotes, "
                "backslashes or ':' (which separates a variant), and must not start with '-', '=' or '{'"
            )
        if len(name) > MAX_TAG_NAME:
            raise TargetError(f"{what} {_short_repr(name)} is {len(name)} characters long; the limit is {MAX_TAG_NAME}")
        if self.find_kind(name) is not None:
            raise TargetError(f"{what} {name!r} is already a kind")
        return name

    def _add_tag(self, spec: TagSpec, owner: str) -> None:
        """Build ``spec`` (its variants included) and store it under all its names, or store nothing.

        Its variants are built after the tag is stored, so that they may name it; if one
        fails, what was stored is taken out again. The caller checks the names are free.
        """
        name = self._check_tag_name(spec.name)
        aliases = tuple(dict.fromkeys(self._check_tag_name(a, "tag alias") for a in _sequence(spec.aliases)))
        if name in aliases:
            raise TargetError(f"tag {name!r} lists its own name among its aliases")
        variants = _mapping(spec.variants, f"the variants of tag {name!r}")
        for variant in variants:
            if not isinstance(variant, str) or not re.match(_VARIANT_NAME, variant) or len(variant) > MAX_TAG_NAME:
                raise TargetError(
                    f"tag {name!r}: variant name {_short_repr(variant)} must be letters, digits, '_', '.', '+' "
                    f"or '-' (not starting with '.', '+' or '-')"
                )
        target = with_attrs(build(self, spec.config), {"tag": name})
        entry = TagEntry(
            name, target.export(), target, spec.description, spec.source, owner, aliases, tuple(sorted(variants))
        )
        stored = [name, *aliases]
        self._tags[name] = entry
        for key in stored:
            self._lookup[key] = entry
        try:
            for variant, config in variants.items():
                full = f"{name}:{variant}"
                try:
                    made = with_attrs(build(self, config), {"tag": full})
                except TargetError as exc:
                    raise type(exc)(f"variant {full!r}: {exc}") from None
                sub = TagEntry(full, made.export(), made, spec.description, spec.source, owner)
                for key in (name, *aliases):
                    stored.append(f"{key}:{variant}")
                    self._lookup[stored[-1]] = sub
        except BaseException:
            del self._tags[name]
            for key in stored:
                self._lookup.pop(key, None)
            raise

    # -- queries -----------------------------------------------------------------------

    def list_kinds(self) -> list[str]:
        """The registered kind names, sorted."""
        self._ensure_tags()
        return sorted(self.kinds)

    def find_kind(self, name: str) -> TargetKind | None:
        """The kind ``name`` (loading the plugin that declares it), or None.

        A tag's name at the head of a target string is looked up here first, so a name
        that no pending plugin declares costs one lookup (after the first load, only a
        pending plugin's manifest can add a kind).
        """
        if not self._loaded:
            self._ensure()
        kind = self.kinds.get(name)
        if kind is None and ("kind", name) in self._providers and self._need("kind", name):
            kind = self.kinds.get(name)
        return kind

    def get_kind(self, name: str) -> TargetKind:
        """The kind ``name``, or :class:`tcfg.UnknownKindError` with the closest names."""
        kind = self.find_kind(name) if isinstance(name, str) else None
        if kind is None:
            self._ensure_tags()
            raise UnknownKindError(f"unknown kind {name!r}; {describe_choices(name, self.kinds)}")
        return kind

    def list_tags(self, prefix: str | None = None, aliases: bool = False) -> list[str]:
        """The registered tag names (starting with ``prefix``), sorted; their aliases too if ``aliases``.

        Variants (``NAME:VARIANT``) are not listed: a tag's entry names them.
        """
        self._ensure_tags()
        pool: Iterable[str] = self._tags
        if aliases:  # tag names and aliases hold no ':', variants do
            pool = [key for key in self._lookup if ":" not in key]
        names = pool if prefix is None else [n for n in pool if n.startswith(prefix)]
        return sorted(names)

    def find_tag(self, name: str) -> TagEntry | None:
        """The tag (or variant) ``name`` resolves to (loading the tags it may be one of), or None."""
        entry = self._lookup.get(name)
        if entry is None and (self._pending or self._untagged or not self._loaded):
            self._ensure()
            self._need_tags(name)
            entry = self._lookup.get(name)
        return entry

    def tag_entry(self, name: str) -> TagEntry:
        """The tag (or variant) that ``name`` resolves to, or :class:`tcfg.UnknownTagError` saying why not."""
        entry = self.find_tag(name) if isinstance(name, str) else None
        if entry is None:
            raise UnknownTagError(self.unknown_tag(str(name)))
        return entry

    def unknown_tag(self, name: str) -> str:
        """Why ``name`` resolves to no tag: its base tag's variants, the plugin that would provide it, or near names."""
        self._ensure_tags()
        base, colon, variant = name.rpartition(":")
        entry = self._lookup.get(base) if colon else None
        if entry is not None:
            offered = describe_choices(variant, entry.variants) if entry.variants else "it has no variants"
            return f"tag {entry.name!r} has no variant {variant!r}; {offered}"
        missing = self.missing_plugin("tag", base if colon else name)
        if missing is not None:
            return f"unknown tag {name!r}: {missing}"
        return f"unknown tag {name!r}; {describe_choices(name, self._tags)}"

    def missing_plugin(self, space: str, name: str, uninstalled_only: bool = False) -> str | None:
        """Which known plugin, not loaded here, provides the ``kind``, ``tag`` or ``arch`` ``name``; None if none.

        The table of known plugins is the core's data (``data/known_plugins.json``); a
        tag is matched by its longest known prefix. With ``uninstalled_only``, None unless
        every such plugin is missing from the installation (not merely disabled or failed).
        """
        self._load_all_pending()  # an installed plugin is loaded, not missing
        known: dict[str, Any] = _known_plugins()
        if space == "tag":
            prefixes = [p for row in known.values() for p in row["tag_prefixes"] if name.startswith(p)]
            if not prefixes:
                return None
            longest = max(prefixes, key=len)
            providers = [short for short, row in known.items() if longest in row["tag_prefixes"]]
            what = f"tags under {longest!r}"
        else:
            field_name = {"kind": "kinds", "arch": "arches"}[space]
            providers = [short for short, row in known.items() if name in row[field_name]]
            what = f"kind {name!r}" if space == "kind" else f"the CPU architecture {name!r}"
        states = [(known[short]["distribution"], self._plugin_state(short)) for short in providers]
        absent = [(dist, state) for dist, state in states if state != "loaded"]
        if not absent or (uninstalled_only and any(state != _UNINSTALLED for _, state in absent)):
            return None
        listed = ", ".join(f"{dist} ({state})" for dist, state in absent)
        if len(absent) < len(states):
            loaded = ", ".join(dist for dist, state in states if state == "loaded")
            listed = f"{loaded} (loaded) and {listed}"
        fix = " ".join(dist for dist, _ in absent)
        verb = "come from" if space == "tag" else "is provided by"
        return f"{what} {verb} {listed}: pip install {fix}"

    def _plugin_state(self, short: str) -> str:
        """``loaded``, ``not installed``, or why the known plugin ``short`` is not loaded (from its record)."""
        package = f"tcfg_{short}"
        for record in self._records:
            if record.name == short or record.name.split(".")[0] == package:
                if record.status == "loaded":
                    return "loaded"
                return f"{record.status}: {record.error}" if record.error else record.status
        if not self._autoload:
            return "not loaded: this registry loads only the plugins it was given"
        if env_flag(self._env(), "TCFG_DISABLE_PLUGIN_AUTOLOAD"):
            return "not loaded: TCFG_DISABLE_PLUGIN_AUTOLOAD is set"
        return _UNINSTALLED

    def _env(self) -> Mapping[str, str]:
        return os.environ if self._environ is None else self._environ

    def unclaimed_arch(self, arch: str, triple: str) -> None:
        """Say (once per architecture) that no installed CPU parser claims ``arch``, if a known plugin does.

        A :class:`tcfg.PluginWarning` names the plugin to install; in strict mode it is a
        :class:`tcfg.PluginError` instead, every time. Only a plugin missing from the
        installation is worth saying so: not one the environment disables, nor any in a
        registry that does not scan the installation (``autoload=False``).
        """
        if arch in self._warned_arches:
            return
        missing = self.missing_plugin("arch", arch, uninstalled_only=True)
        if missing is None:
            return
        message = f"-mtriple={triple}: {missing}"
        if self._is_strict():
            raise PluginError(message)
        self._warned_arches.add(arch)
        _warn(message + " (the target stays valid, without CPU features or checks)", stacklevel=2)

    def get_tag(self, name: str) -> dict[str, Any]:
        """The config of tag ``name`` (an alias or ``NAME:VARIANT`` too; a fresh dict in ``export()`` form)."""
        config: dict[str, Any] = _deep_copy(self.tag_entry(name).config)
        return config

    def register_tag(
        self,
        name: str,
        config: Mapping[str, Any] | str | Target,
        override: bool = False,
        *,
        description: str = "",
        source: str = "",
        aliases: Sequence[str] = (),
        variants: Mapping[str, Mapping[str, Any] | str] | None = None,
    ) -> None:
        """Register tag ``name`` (with ``aliases`` and ``variants``); everything is validated before it is stored.

        With ``override``, a tag of that name is replaced (its aliases and variants go
        with it); an alias that names another tag is refused either way.
        """
        self._ensure_tags()
        spec = TagSpec(name, config, description, source, *_spec_extras(aliases, variants))
        with self._lock:
            existing = self._tags.get(name) if isinstance(name, str) else None
            if existing is not None and not override:
                raise TargetError(
                    f"tag {name!r} is already registered (by {existing.owner}); pass override=True to replace it"
                )
            for key in (name, *_sequence(spec.aliases)):
                taken = self._lookup.get(key) if isinstance(key, str) else None
                if taken is not None and taken is not existing:
                    what = "tag" if key == name else "tag alias"
                    raise TargetError(f"{what} {key!r} is already a name of tag {taken.name!r} ({taken.owner})")
            removed = {} if existing is None else self._unstore(existing)
            try:
                self._add_tag(spec, "user")
            except BaseException:
                self._lookup.update(removed)
                if existing is not None:
                    self._tags[existing.name] = existing
                raise
            self._cache.clear()
            self._dicts.clear()

    def _unstore(self, entry: TagEntry) -> dict[str, TagEntry]:
        """Take tag ``entry`` out of the tables, with its aliases and variants; what was taken, by name."""
        del self._tags[entry.name]
        names = [entry.name, *entry.aliases]
        keys = [*names, *(f"{n}:{v}" for n in names for v in entry.variants)]
        return {key: self._lookup.pop(key) for key in keys if key in self._lookup}

    def owner(self, space: str, name: str) -> str:
        """The plugin that registered ``name`` in ``space`` (``kind``, ``CPU architecture``)."""
        self._ensure()
        return self._owners.get((space, name), "?")

    def cpu_parsers(self, arch: str | None = None) -> list[CpuParser]:
        """The registered CPU sub-parsers, in plugin order: all, or (given ``arch``) at least those that claim it."""
        if arch is None:
            self._need_space("arch")
        else:
            self._need("arch", arch)
        return self._parsers

    def find_compiler(self, kind: str, name: str) -> Compiler | None:
        """The compiler ``name`` of ``kind`` (loading the plugin that declares it), or None."""
        compiler = self._compilers.get((kind, name))
        if compiler is None and self._need("compiler", name):
            compiler = self._compilers.get((kind, name))
        return compiler

    def compilers(self, kind: str | None = None) -> dict[str, Compiler]:
        """The BYOC compilers registered for ``kind`` (or for any kind, as ``kind:name``)."""
        self._need_space("compiler")
        if kind is None:
            return {f"{k}:{n}": c for (k, n), c in sorted(self._compilers.items())}
        return {n: c for (k, n), c in sorted(self._compilers.items()) if k == kind}

    def components(self, role: Role) -> dict[str, Component]:
        """The registered executors (``role="executor"``) or runtimes (``"runtime"``) by name."""
        self._need_space(role)
        return dict(sorted(self._components[role].items()))

    @property
    def features(self) -> FeatureIndex:
        """Every declared feature name and alias."""
        self._ensure()
        return self._features

    def plugins(self) -> list[PluginRecord]:
        """One record per discovered plugin (those the environment disables, then the core, then the rest in order)."""
        self._ensure_tags()
        return sorted(self._records, key=lambda record: self._rank.get(record.name, -1))

    def call_derive_hooks(self, request: DeriveRequest) -> list[tuple[str, Derived]]:
        """What each ``tcfg_derive_target`` implementation adds for ``request``.

        A hook that raises (anything but a :class:`TargetError` about the input) or returns
        something other than a ``Derived`` or None fails its plugin (see :meth:`_hook_failed`).
        """
        results = []
        for plugin in list(self.derive_hooks):
            derived = self._call_hook(plugin, "tcfg_derive_target", Derived, request=request)
            if derived is None:
                continue
            owners = self._features.owners
            undeclared = sorted(name for name in derived.features if plugin not in owners.get(name, ()))
            if undeclared:
                self._hook_failed(
                    plugin,
                    f"tcfg_derive_target returned the features {undeclared}, which it does not declare "
                    "(declare them with tcfg_register_features)",
                )
                continue
            results.append((plugin, derived))
        return results

    def codegen(self, target: Target) -> Codegen:
        """The codegen configuration the first willing plugin gives for ``target``."""
        from tcfg._model.codegen import Codegen  # codegen is not on the start-up path

        self._ensure()
        self._load_all_pending()
        for plugin in self._manager.implementers("tcfg_codegen"):
            result = self._call_hook(plugin, "tcfg_codegen", Codegen, target=target)
            if result is not None:
                codegen: Codegen = result
                return codegen
        raise TargetError(
            f"no installed plugin generates code for kind {target.kind.name!r} (target {str(target)!r}); "
            f"plugins loaded: {', '.join(r.name for r in self._records if r.status == 'loaded')}"
        )

    def detect(self) -> list[Target]:
        """Targets for this machine's devices, from every plugin that can detect them."""
        self._ensure_tags()
        found: list[Target] = []
        for plugin in reversed(self._manager.implementers("tcfg_detect")):
            specs = self._call_hook(plugin, "tcfg_detect", (list, tuple)) or ()
            found += [build(self, spec) for spec in specs]
        return found

    def _call_hook(self, plugin: str, hook: str, returns: Any, **kwargs: Any) -> Any:
        """Call ``plugin``'s ``hook`` (per-target or detection), which must return ``returns`` or None.

        A :class:`TargetError` (the plugin's word on the input) passes through. Anything
        else the hook raises (``SystemExit`` included, ``KeyboardInterrupt`` aside) or a
        result of the wrong type fails the plugin: its hooks are not called again, and the
        call returns None, so that the other plugins keep working.
        """
        try:
            results = self._manager.call(plugin, hook, **kwargs)
        except TargetError:
            raise
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            self._hook_failed(plugin, f"{hook} raised {type(exc).__name__}: {exc}")
            return None
        result = results[0] if results else None
        if result is not None and not isinstance(result, returns):
            self._hook_failed(plugin, f"{hook} returned {_short_repr(result)}, not a {_type_names(returns)} or None")
            return None
        return result

    def _hook_failed(self, plugin: str, reason: str) -> None:
        """Stop calling ``plugin``'s hooks: its record says failed, a warning (an error when strict) says why.

        What it registered stays, so that targets already built keep their kinds.
        """
        with self._lock:
            self.derive_hooks[:] = [name for name in self.derive_hooks if name != plugin]
            record = self._record(plugin)
            record.status, record.error = "failed", f"{reason}; its hooks are no longer called"
            self._manager.remove(plugin)
        message = f"tcfg plugin {plugin!r} ({record.distribution or 'in-process'}) failed: {record.error}"
        if self._is_strict():
            raise PluginError(message)
        _warn(message)

    def target(self, spec: Any, host: Any = None) -> Target:
        """The target for ``spec`` (with ``host``), built once per distinct text (and per flat dict seen twice)."""
        if not self._loaded:
            self._ensure()
        if type(spec) is str and (host is None or type(host) is str):
            cache = self._cache
            key: Any = spec if host is None else (spec, host)
            hit = cache.get(key)
            if hit is not None:
                return hit
            made = from_text(self, spec) if host is None else build(self, spec, host)
            if len(cache) >= cache.limit:  # Memo.put, inline: the core's hottest store (a call costs 1%)
                cache.clear()
            cache[key] = made
            return made
        if type(spec) is dict and host is None:
            # A dict is remembered by its identity from its second call on (see _dict_again);
            # the first costs one lookup and one store.
            dicts = self._dicts
            address = id(spec)
            entry = dicts.get(address)
            if entry is not None and (entry is spec or entry[0] is spec):
                return self._dict_again(spec, address, entry)
            made = from_dict(self, spec)
            if len(dicts) >= dicts.limit:
                dicts.clear()
            dicts[address] = spec
            return made
        return build(self, spec, host)

    def _dict_again(self, spec: dict[str, Any], address: int, entry: Any) -> Target:
        """The target of a dict :meth:`target` has seen before (``entry``: what it remembers of it).

        The memo holds each dict it notes (so that no other dict can take its address
        meanwhile): the dict itself after its first call. A flat dict (see :func:`_flat_copy`)
        seen again is remembered as ``(dict, copy, value types, target)``, and its target is
        reused while the dict still equals the copy; a dict changed in place is built anew.
        """
        if entry is not spec:
            _, copy, types, remembered = entry
            if spec == copy and types == tuple(map(type, spec.values())):
                hit: Target = remembered
                return hit
        made = from_dict(self, spec)
        copy = _flat_copy(spec)
        self._dicts[address] = spec if copy is None else (spec, copy, tuple(map(type, spec.values())), made)
        return made

    def with_attrs(self, target: Target, changes: Mapping[str, Any]) -> Target:
        """``target`` with some configured attributes replaced (None removes one)."""
        return with_attrs(target, changes)

    def nested(self, spec: Any) -> Target:
        """The target for ``spec`` as an attribute value (a host or device) one level down."""
        return build(self, spec, None, 1)

    def nested_context(self, depth: int) -> Any:
        """The build context for attribute values of a target at nesting ``depth``."""
        return nested_context(self, depth)

    def libraries(self, kind: str) -> Sequence[Library]:
        """The ``-libs`` libraries registered for ``kind``: every registration, in load order."""
        self._need_space("library")
        return self._libraries.get(kind, ())


_SCALARS = frozenset({str, int, bool, float, type(None)})


def _flat_copy(spec: dict[str, Any]) -> dict[str, Any] | None:
    """A copy of ``spec`` if it is flat (every value a scalar or a list of strings, as a leaf target's), else None."""
    copy: dict[str, Any] = {}
    for name, value in spec.items():
        kind = value.__class__
        if kind not in _SCALARS:
            if kind is not list or any(item.__class__ is not str for item in value):
                return None
            value = list(value)
        copy[name] = value
    return copy


def _warn(message: str, stacklevel: int = 4) -> None:
    """Issue a :class:`tcfg.PluginWarning` (``warnings`` is imported only when there is one)."""
    import warnings

    warnings.warn(message, PluginWarning, stacklevel=stacklevel + 1)


def _clash(newcomer: str, what: str, owner: str) -> _PluginFailure:
    """The failure of a plugin that registers a name another plugin already owns.

    The rule: the first plugin to register a name owns it (the core first, then the
    plugins in order of their entry names); a newcomer claiming it fails as a whole and
    is the one named, and the owner keeps the name. The message says how to hand the
    name over, for when the owner is the impostor.
    """
    remedy = "" if owner == "core" else f"; if {owner!r} should not have it, set TCFG_DISABLED_PLUGINS={owner}"
    return _PluginFailure(
        f"plugin {newcomer!r} registers {what}, which plugin {owner!r} already owns "
        f"(the first plugin to register a name keeps it{remedy})"
    )


def _sequence(value: Any) -> tuple[Any, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TargetError(f"tag aliases must be a list of names, not {_short_repr(value)}")
    return tuple(value)


def _mapping(value: Any, what: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise TargetError(f"{what} must be a mapping of variant names to target configs, not {_short_repr(value)}")
    return value


def _spec_extras(aliases: Any, variants: Any) -> tuple[Any, Any]:
    """The ``aliases`` and ``variants`` fields of a TagSpec from register()'s keywords (checked when built)."""
    return (tuple(aliases) if isinstance(aliases, (list, tuple)) else aliases), ({} if variants is None else variants)


_KNOWN: dict[str, Any] | None = None
_UNINSTALLED = "not installed"


def _known_plugins() -> dict[str, Any]:
    """The core's table of known plugins (read on first use: only error and warning paths need it)."""
    global _KNOWN
    if _KNOWN is None:
        _KNOWN = package_json("tcfg", "data/known_plugins.json")["plugins"]
    return _KNOWN


def _features_of(parser: CpuParser) -> list[Feature]:
    return list(parser.features)


def _call_plugin_code(plugin: str, what: str, function: Callable[[], Any]) -> Any:
    try:
        return function()
    except (_PluginFailure, KeyboardInterrupt):
        raise
    except BaseException as exc:  # a plugin's bug, missing dependency or sys.exit() must not break the others
        raise _PluginFailure(f"{what} raised {type(exc).__name__}: {exc}") from exc


def _short_repr(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _type_names(types: Any) -> str:
    return " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))


def _same(obj: object) -> object:
    return obj


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


_default: Registry | None = None
_default_lock = _thread.allocate_lock()


def default_registry() -> Registry:
    """The process-wide registry (autoloading entry points), created on first use."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = Registry()
    return _default


def reset_default_registry() -> None:
    """Forget the process-wide registry; the next query loads plugins again."""
    global _default
    with _default_lock:
        _default = None
