"""Loading plugins, lazily: which plugins to import for a name, in what order, and what a failure undoes.

The first query loads the core, the in-process plugins and the installed plugins that
declare nothing in the ``tcfg.provides`` group. A plugin that declares what it provides
(its kinds, CPU architectures, tag vendors, compilers, libraries, executors and
runtimes) is imported only when a query needs one of those names, and its tags only
when a tag its ``tag`` entries cover is looked up (each tag's target is built on its own
first lookup, see :mod:`tcfg._registry.tags`). Every answer is the one loading
everything would give: a plugin is loaded after every lower-ranked one that declares a
name it owns too, and a name no loaded plugin has loads what may provide it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from tcfg._base.errors import PluginError, TargetError
from tcfg._base.version import __version__
from tcfg._builtin import plugin as builtin_plugin
from tcfg._registry.discovery import Candidate, Release, discover, env_flag
from tcfg._registry.manager import InvalidPlugin, Manager
from tcfg._registry.records import (
    PluginFailure,
    PluginRecord,
    call_plugin_code,
    short_repr,
    type_names,
    warn,
)
from tcfg._registry.staging import OWNED, SPACES, Contents, Dependent, Manifest, Stage, covers, tag_prefix
from tcfg._registry.tags import Make, TagTable, spec_extras
from tcfg.hookspecs import TagSpec

if TYPE_CHECKING:
    import _thread

    from tcfg._model.kind import TargetKind

__all__ = ["Loader"]


class Loader:
    """One registry's plugins: discovered, ranked, loaded on demand, and what they registered.

    ``explicit`` are in-process plugin objects (registered after the core, before entry
    points); ``autoload`` scans the entry points (of the distributions on ``path``, or
    ``sys.path`` when None); ``strict`` (None: ``TCFG_STRICT_PLUGINS``)
    turns a plugin failure into :class:`tcfg.PluginError`. ``lock`` is the registry's
    (other threads wait on it while a load runs); ``make`` builds a tag's config;
    ``changed`` is called when registrations change (the registry forgets its built
    targets); ``reset`` when a load is interrupted (the registry starts over).
    """

    def __init__(
        self,
        explicit: Sequence[object],
        autoload: bool,
        path: Sequence[str] | None,
        strict: bool | None,
        environ: Mapping[str, str] | None,
        lock: _thread.RLock,
        make: Make,
        changed: Callable[[], None],
        reset: Callable[[], None],
    ) -> None:
        self._explicit = explicit
        self.autoload = autoload
        self._path = path
        self._strict = strict
        self._environ = environ
        self._lock = lock
        self._changed = changed
        self._reset = reset
        self.loaded = self._loading = self._complete = False
        self._busy = 0  # loads of this thread under way (see guarded)
        self.contents = Contents(self.load_features)
        self.tags = TagTable(make, self._is_kind)
        self.records: list[PluginRecord] = []
        #: Each discovered plugin's place in the order (the core first, then in-process
        #: plugins, then entry points by name), which decides who keeps a contested name.
        self.rank: dict[str, int] = {}
        #: The plugins with a manifest not loaded yet, and every manifest by plugin.
        self.pending: dict[str, Candidate] = {}
        self._manifests: dict[str, frozenset[tuple[str, str]]] = {}
        #: ``(space, name)`` -> the plugins whose manifest declares it, by rank.
        self.providers: dict[tuple[str, str], list[str]] = {}
        #: ``(space, name)`` keys whose declaring plugins are all loaded (see :meth:`need`);
        #: ``(space, "*")``: every plugin declaring a name in the space is (see :meth:`need_space`).
        self._provided: set[tuple[str, str]] = set()
        #: The loaded plugins' registrations, and those whose tags are not loaded yet.
        self._stages: dict[str, Stage] = {}
        self.untagged: set[str] = set()
        #: Warnings of plugin failures met while loading, issued once the load is done (see _flush).
        self._deferred: list[str] = []
        self.manager = Manager(trace=env_flag(self.environ(), "TCFG_TRACE_PLUGINS"))
        #: The plugins implementing ``tcfg_derive_target``, in calling order.
        self.derive_hooks: list[str] = []
        #: Plugins whose per-target or detection hook failed: those hooks are no longer called
        #: (their registration hooks still are, so that their tags still load).
        self._silenced: set[str] = set()

    def environ(self) -> Mapping[str, str]:
        """The environment the ``TCFG_*`` variables are read from."""
        return os.environ if self._environ is None else self._environ

    def is_strict(self) -> bool:
        """Whether a plugin failure raises :class:`tcfg.PluginError` instead of warning."""
        if self._strict is not None:
            return self._strict
        return env_flag(self.environ(), "TCFG_STRICT_PLUGINS")

    def _is_kind(self, name: str) -> bool:
        return self.find_kind(name) is not None

    def find_kind(self, name: str) -> TargetKind | None:
        """The kind ``name`` (loading the plugin that declares it), or None."""
        if not self.loaded:
            self.ensure()
        kinds = self.contents.kinds
        kind = kinds.get(name)
        if kind is None and ("kind", name) in self.providers and self.need("kind", name):
            kind = kinds.get(name)
        return kind

    # -- when to load ------------------------------------------------------------------

    def ensure(self) -> None:
        """Run the first query's load once: the core, in-process plugins and plugins without a manifest."""
        if not self.loaded:
            with self._lock:  # other threads wait here until the load is done
                if not self.loaded and not self._loading:
                    self._loading = True  # a query this load makes sees what is loaded so far
                    try:
                        self._guarded(self._load)
                        self.loaded = True
                    finally:
                        self._loading = False
            self._flush()

    def ensure_tags(self) -> None:
        """Load everything: every plugin and every tag."""
        if self._complete:
            return  # no lock to take: once everything is loaded, nothing is pending again
        self.ensure()
        with self._lock:  # waits for another thread's load
            if self.pending or self.untagged:
                self._guarded(self._load_everything)
            # not while a load this thread runs is still under way (its plugin is no longer pending)
            self._complete = not self._busy and self.loaded and not self.pending and not self.untagged
        self._flush()

    def load_all_pending(self) -> bool:
        """Load every pending plugin (its tags aside); whether there was any."""
        with self._lock:  # under the lock: another thread may be loading one
            if not self.pending:
                return False
            self._guarded(partial(self._load_pending, list(self.pending)))
        self._flush()
        return True

    def load_features(self, name: str | None) -> bool:
        """Load the pending plugins declaring the feature ``name`` (None: every pending plugin); whether any was."""
        if name is None:
            return self.load_all_pending()
        self.ensure()
        wanted = [plugin for plugin in self.providers.get(("feature", name), ()) if plugin in self.pending]
        if not wanted:
            return False
        with self._lock:  # waits for another thread's load of one of them
            self._guarded(partial(self._load_pending, wanted))
        self._flush()
        return True

    def need(self, space: str, name: str) -> bool:
        """Load the pending plugins that declare ``name`` in ``space``; whether any declares it.

        A name whose plugins are loaded is remembered, and answered without the lock.
        """
        key = (space, name)
        if key in self._provided:
            return True
        self.ensure()
        providers = self.providers.get(key)
        if not providers:
            return False
        with self._lock:  # waits for another thread's load of one of them
            if any(p in self.pending for p in providers):
                self._guarded(partial(self._load_pending, providers))
            if not self._busy:  # (see ensure_tags)
                self._provided.add(key)
        self._flush()
        return True

    def need_space(self, space: str) -> None:
        """Load every pending plugin that declares a name in ``space`` (remembered as done, see :meth:`need`)."""
        key = (space, "*")
        if key in self._provided:
            return
        self.ensure()
        with self._lock:
            wanted = [p for p in self.pending if any(s == space for s, _ in self._manifests[p])]
            if wanted:
                self._guarded(partial(self._load_pending, wanted))
            if not self._busy:
                self._provided.add(key)
        self._flush()

    def need_tags(self, name: str) -> None:
        """Load the tags ``name`` may be one of: those of plugins declaring it and of plugins without a manifest."""
        self.ensure()
        base = name.partition(":")[0]
        with self._lock:  # waits for another thread's load of the same tags
            wanted = {
                plugin
                for (space, declared), plugins in self.providers.items()
                for plugin in plugins
                if space == "tag" and covers(declared, base)
            }
            wanted.update(p for p in self.untagged if p not in self._manifests)
            wanted = {p for p in wanted if p in self.pending or p in self.untagged}
            if wanted:
                self._guarded(partial(self._load_tags, self._with_rivals(sorted(wanted), frozenset({"tag"}))))
        self._flush()

    def _guarded(self, load: Callable[[], object]) -> None:
        """Run ``load``, holding the lock; if it raises (a ``KeyboardInterrupt`` mid-load), forget all loaded."""
        self._busy += 1
        try:
            load()
        except BaseException:
            self._reset()
            raise
        self._busy -= 1

    def _flush(self) -> None:
        """Issue the warnings of the plugin failures the last load met, each once, after the load.

        Issued after the load is done, so that a warning turned into an error (``-W error``)
        leaves the registry loaded without the failed plugin, and is raised once only.
        """
        while self._deferred and not self._busy:
            warn(self._deferred.pop(0), stacklevel=3)

    # -- what to load --------------------------------------------------------------------

    def _load(self) -> None:
        candidates = [Candidate("core", Release("tcfg-core", __version__), partial(_same, builtin_plugin))]
        for index, obj in enumerate(self._explicit):
            name = getattr(obj, "tcfg_plugin_name", None) or getattr(obj, "__name__", None)
            name = name if isinstance(name, str) else f"plugin{index}"
            candidates.append(Candidate(name, None, partial(_same, obj)))
        if self.autoload:
            found, skipped = discover(self._environ, path=self._path)
            candidates += found
            for skip in skipped:
                self.records.append(PluginRecord(skip.name, None, None, "disabled", skip.reason, origin=skip.origin))
                self.manager.block(skip.name)
        # Loaded now: plugins without a manifest (what they provide is known only by loading
        # them), those whose derive hook may add to any target, and every plugin ranked
        # before one of those (so that the first by rank keeps a contested name).
        eager = [cand.provides is None or any(s == "derive" for s, _ in cand.provides) for cand in candidates]
        last_eager = max(i for i, now in enumerate(eager) if now)
        now: list[Candidate] = []
        for index, cand in enumerate(candidates):
            self.rank.setdefault(cand.name, len(self.rank))
            if cand.provides is not None and cand.name not in self._manifests:
                self._manifests[cand.name] = cand.provides
                for key in cand.provides:  # each list keeps rank order; the keys' order matters nowhere
                    self.providers.setdefault(key, []).append(cand.name)
            if index <= last_eager:
                now.append(cand)
            else:
                self.pending[cand.name] = cand
        stages = {name: stage for name, stage in ((c.name, self._open(c)) for c in now) if stage is not None}
        self._stages.update(stages)
        self.untagged.update(stages)
        self._commit_dependent()
        self._collect_derive_hooks()

    def _load_everything(self) -> None:
        self._load_pending(list(self.pending))
        self._load_tags(list(self.untagged))

    def _load_pending(self, wanted: Iterable[str]) -> None:
        """Load the pending plugins ``wanted`` (each after the lower-ranked ones it contests a name with)."""
        order = self._with_rivals([name for name in wanted if name in self.pending], OWNED)
        for name in order:
            cand = self.pending.pop(name, None)
            if cand is None:  # loaded meanwhile, as a kind's provider for a compiler of one before it
                continue
            stage = self._open(cand)
            if stage is None:
                continue
            self._stages[name] = stage
            try:
                self.contents.commit_compilers(stage, self._manifests.get(name), self.record(name), self.find_kind)
            except PluginFailure as exc:
                self._drop(stage, str(exc))
                continue
            self.untagged.add(name)
            self._collect_derive_hooks()

    def _with_rivals(self, plugins: list[str], spaces: frozenset[str]) -> list[str]:
        """``plugins`` and each lower-ranked plugin not done that may declare one of their names in ``spaces``.

        Sorted by rank. Two plugins are rivals for tags when a tag prefix of one covers one of the other.
        """
        chosen = set(plugins)
        todo = list(plugins)
        while todo:
            plugin = todo.pop()
            rank = self.rank[plugin]
            for space, name in self._manifests.get(plugin, ()):
                if space not in spaces:
                    continue
                for other in self._rivals(space, name):
                    undone = other in self.pending or other in self.untagged
                    if undone and other not in chosen and self.rank[other] < rank:
                        chosen.add(other)
                        todo.append(other)
        return sorted(chosen, key=self.rank.__getitem__)

    def _rivals(self, space: str, name: str) -> list[str]:
        """The plugins that may declare what ``space.name`` declares."""
        if space != "tag":
            return self.providers.get((space, name), [])
        mine = tag_prefix(name)
        return [
            plugin
            for (other_space, other), plugins in self.providers.items()
            if other_space == "tag" and (mine.startswith(tag_prefix(other)) or tag_prefix(other).startswith(mine))
            for plugin in plugins
        ]

    def _load_tags(self, plugins: Iterable[str]) -> None:
        """Stage and commit the tags of ``plugins`` (loading the pending ones first), by rank."""
        order = sorted(plugins, key=self.rank.__getitem__)
        self._load_pending([p for p in order if p in self.pending])
        for plugin in order:
            if plugin not in self.untagged:
                continue
            self.untagged.discard(plugin)
            stage = self._stages.get(plugin)
            if stage is None:
                continue
            try:
                self._stage_tags(stage)
                self.record(plugin).registered["tags"] = self.tags.commit(stage, self._manifests.get(plugin))
            except PluginFailure as exc:
                self._drop(stage, str(exc))

    # -- one plugin ----------------------------------------------------------------------

    def _open(self, cand: Candidate) -> Stage | None:
        """Import ``cand``, call its registration hooks but the tags' and commit what needs no other plugin.

        Returns None when the plugin fails (its record says why, a warning too).
        """
        record = PluginRecord(cand.name, None, None, "loaded", origin=cand.origin)
        self.records.append(record)
        try:
            if any(r.name == cand.name and r is not record for r in self.records):
                raise PluginFailure(f"another plugin is already named {cand.name!r}")
            unknown = sorted(f"{s}.{n}" for s, n in cand.provides or () if s not in SPACES)
            if unknown:
                raise PluginFailure(
                    f"declares {unknown} in the tcfg.provides entry points; "
                    f"each must be SPACE.NAME with SPACE one of {list(SPACES)}"
                )
            obj = call_plugin_code("import", cand.load)
            try:
                self.manager.add(cand.name, obj, self.rank[cand.name])
            except InvalidPlugin as exc:
                raise PluginFailure(str(exc)) from None
            derives = self.manager.implements(cand.name, "tcfg_derive_target")
            if derives and cand.provides is not None and not any(s == "derive" for s, _ in cand.provides):
                raise PluginFailure(
                    "implements tcfg_derive_target but declares no derive.KIND entry point in tcfg.provides "
                    "(name the kinds whose targets it adds to)"
                )
            stage = self._stage(cand.name)
            self._commit_by_rank(stage, cand.provides, record)
        except PluginFailure as exc:
            self._fail(record, str(exc))
            return None
        return stage

    def _commit_by_rank(self, stage: Stage, manifest: Manifest, record: PluginRecord) -> None:
        """Commit a plugin's kinds, parsers, components and features; a name a later-ranked plugin took goes to it.

        Lazy loading may load a plugin after a later-ranked one that owns a name it claims
        too (one no manifest declares, such as a feature alias); the first by rank keeps a
        name, as loading everything in rank order would decide, so the later-ranked owner
        fails instead.
        """
        plugin = stage.plugin
        while True:
            try:
                self.contents.commit_independent(stage, self.rank[plugin], manifest, record)
                return
            except PluginFailure as exc:
                rival = self._stages.get(exc.rival or "")
                if rival is None or self.rank[rival.plugin] < self.rank[plugin]:
                    raise
                self._drop(rival, f"plugin {plugin!r}, ranked before it, registers the same name: {exc}")

    def _stage(self, plugin: str) -> Stage:
        """Call ``plugin``'s registration hooks, all but the tags', and hold what they register."""
        stage = Stage(plugin)
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

    def _stage_tags(self, stage: Stage) -> None:
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
                    raise PluginFailure(f"register({name!r}) takes a TagSpec alone")
                stage.tags.append(name)
            else:
                stage.tags.append(TagSpec(name, config, description, source, *spec_extras(aliases, variants)))

        stage.tags.clear()
        self._call_registration(stage.plugin, "tcfg_register_tags", add_tag)

    def _call_registration(self, plugin: str, hook: str, register: Callable[..., None]) -> None:
        if self.manager.implements(plugin, hook):
            call_plugin_code(hook, partial(self.manager.call, plugin, hook, register=register))

    def _commit_dependent(self) -> None:
        """Check and store every compiler, and the tags of the plugins whose tags are loaded, from scratch.

        Compilers and tags may use any plugin's kinds. A plugin whose compiler or tag is
        refused loses all its registrations, and everything is checked again. The tables
        are filled aside and put in place whole, so that other threads never see them half
        filled; tags the user registered stay.
        """
        while True:
            tags = self.tags.fork()
            fresh: Dependent = ({}, {})
            stage: Stage | None = None
            try:
                for stage in self._stages.values():  # every compiler and library first: a tag may use any plugin's
                    manifest = self._manifests.get(stage.plugin)
                    self.contents.commit_compilers(stage, manifest, self.record(stage.plugin), self.find_kind, fresh)
                for stage in self._stages.values():
                    if stage.plugin not in self.untagged:
                        registered = tags.commit(stage, self._manifests.get(stage.plugin))
                        self.record(stage.plugin).registered["tags"] = registered
            except PluginFailure as exc:
                assert stage is not None
                del self._stages[stage.plugin]
                self.untagged.discard(stage.plugin)
                self._fail(self.record(stage.plugin), str(exc))
                self.contents.remove(stage)
                continue
            tags.adopt_user_tags(self.tags)
            self.tags = tags
            self.contents.publish(fresh)
            self._changed()
            return

    def _drop(self, stage: Stage, reason: str) -> None:
        """Fail a loaded plugin: take out all it registered and check every other compiler and tag again."""
        del self._stages[stage.plugin]
        self.untagged.discard(stage.plugin)
        self._fail(self.record(stage.plugin), reason)
        self.contents.remove(stage)
        self._commit_dependent()
        self._collect_derive_hooks()

    def _collect_derive_hooks(self) -> None:
        implementers = self.manager.implementers("tcfg_derive_target")
        self.derive_hooks[:] = [name for name in implementers if name in self._stages and name not in self._silenced]

    def implementers(self, hook: str, taking: str | None = None) -> list[str]:
        """The loaded plugins whose ``hook`` is still called, in pluggy's order (those whose
        implementation names the argument ``taking``, if given)."""
        return [name for name in self.manager.implementers(hook, taking) if name not in self._silenced]

    def record(self, plugin: str) -> PluginRecord:
        """The latest record of ``plugin``."""
        return next(r for r in reversed(self.records) if r.name == plugin)

    def _fail(self, record: PluginRecord, error: str) -> None:
        record.status, record.error, record.registered = "failed", error, {}
        self.manager.remove(record.name)
        message = f"tcfg plugin {record.name!r} ({record.distribution or 'in-process'}) was not loaded: {error}"
        if self.is_strict():
            raise PluginError(message)
        self._deferred.append(message)

    # -- calling per-target hooks --------------------------------------------------------

    def call_hook(self, plugin: str, hook: str, returns: Any, *, may_refuse: bool = True, **kwargs: Any) -> Any:
        """Call ``plugin``'s ``hook`` (per-target or detection), which must return ``returns`` or None.

        A :class:`TargetError` (the plugin's word on the input) passes through if
        ``may_refuse``. Anything else the hook raises (``SystemExit`` included,
        ``KeyboardInterrupt`` aside) or a result of the wrong type fails the plugin: its
        per-target hooks are not called again, and the call returns None, so that the other
        plugins keep working.
        """
        if plugin in self._silenced:
            return None
        try:
            results = self.manager.call(plugin, hook, **kwargs)
        except KeyboardInterrupt:
            raise
        except TargetError:
            if may_refuse:
                raise
            self.hook_failed(plugin, f"{hook} refused the target (it may only add to targets of other plugins)")
            return None
        except BaseException as exc:
            self.hook_failed(plugin, f"{hook} raised {type(exc).__name__}: {exc}")
            return None
        result = results[0] if results else None
        if result is not None and not isinstance(result, returns):
            self.hook_failed(plugin, f"{hook} returned {short_repr(result)}, not a {type_names(returns)} or None")
            return None
        return result

    def hook_failed(self, plugin: str, reason: str) -> None:
        """Stop calling ``plugin``'s per-target and detection hooks: its record says failed, a warning
        (an error when strict) says why, once.

        What it registered stays, and its tags still load, so that the targets it provides
        keep building; only its derive, codegen and detect hooks are no longer called.
        """
        with self._lock:
            if plugin in self._silenced:
                return
            self._silenced.add(plugin)
            self.derive_hooks[:] = [name for name in self.derive_hooks if name != plugin]
            record = self.record(plugin)
            record.status, record.error = "failed", f"{reason}; its per-target hooks are no longer called"
        message = f"tcfg plugin {plugin!r} ({record.distribution or 'in-process'}) failed: {record.error}"
        if self.is_strict():
            raise PluginError(message)
        warn(message)


def _same(obj: object) -> object:
    return obj
