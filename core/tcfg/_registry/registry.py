"""The registry: kinds, tags, CPU parsers, compilers and features from plugins, and the targets they build.

:class:`Registry` answers queries, loading plugins on demand through its
:class:`~tcfg._registry.loading.Loader`, and remembers the targets it built.
"""

from __future__ import annotations

import _thread
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from tcfg._base.errors import (
    PluginError,
    TargetError,
    UnknownKindError,
    UnknownTagError,
    bounded_repr,
    describe_choices,
    shorten,
)
from tcfg._base.grammar import MAX_TEXT
from tcfg._base.memo import Memo
from tcfg._base.recordings import check_sources, device_rank
from tcfg._build.entry import build, from_dict, nested_context, refuse_past_limits, with_attrs
from tcfg._build.memo import BuildState
from tcfg._build.readers import from_text
from tcfg._model.cpu import arch_family, claims
from tcfg._model.kind import Derived
from tcfg._model.target import Target
from tcfg._registry import advice
from tcfg._registry.loading import Loader
from tcfg._registry.records import PluginRecord, warn
from tcfg._registry.tags import MAX_TAG_NAME, TagEntry, TagInfo, spec_extras
from tcfg.hookspecs import TagSpec

if TYPE_CHECKING:
    from tcfg._model.codegen import Codegen
    from tcfg._model.components import Component, Role
    from tcfg._model.cpu import CpuParser
    from tcfg._model.features import FeatureIndex
    from tcfg._model.kind import Compiler, DeriveRequest, Library, TargetKind

__all__ = ["PluginRecord", "Registry", "TagEntry", "default_registry", "reset_default_registry"]

#: Most target strings :meth:`Registry.target` keeps built (cleared whole when full). Kept
#: small: a program uses a few distinct targets, and a large cache of short-lived
#: targets costs more in memory traffic than it saves (measured: 4096 entries made
#: new targets about 0.7 µs slower than 256).
_TEXT_CACHE_LIMIT = 512


class Registry:
    """Everything plugins registered, loaded lazily.

    ``plugins`` are in-process plugin objects (modules or instances with hook
    implementations), registered after the core and before entry points;
    ``autoload=False`` scans no entry points; ``path`` (default: ``sys.path``) is where
    installed plugins are looked for (the modules they name are imported from
    ``sys.path`` as usual); ``strict`` (default:
    ``TCFG_STRICT_PLUGINS``) turns a plugin failure into :class:`tcfg.PluginError`.

    Plugins load on demand (see :mod:`tcfg._registry.loading`): every answer is the one
    loading everything would give, and listings (kinds, tags, plugins) load everything.
    """

    # Slots: the builder reads a registry's attributes on every target, and slots read fastest.
    __slots__ = (
        "_autoload",
        "_cache",
        "_dicts",
        "_environ",
        "_explicit",
        "_loader",
        "_lock",
        "_path",
        "_strict",
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
        path: Sequence[str] | None = None,
    ) -> None:
        self._explicit = list(plugins)
        self._autoload = autoload
        self._path = None if path is None else list(path)
        self._environ = environ
        self._strict = strict
        self._lock = _thread.RLock()
        self._reset()

    def _reset(self) -> None:
        """Start over: nothing loaded, nothing built (also after a load is interrupted)."""
        loader = Loader(
            self._explicit,
            self._autoload,
            self._path,
            self._strict,
            self._environ,
            self._lock,
            self._make_tag,
            self._forget_targets,
            self._reset,
        )
        self._loader = loader
        #: The live ``name -> TargetKind`` table of the loaded plugins, which the target builder
        #: reads directly (a miss calls :meth:`find_kind`).
        self.kinds: dict[str, TargetKind] = loader.contents.kinds
        #: The plugins implementing ``tcfg_derive_target``, in calling order.
        self.derive_hooks: list[str] = loader.derive_hooks
        #: The CPU architectures already warned about (see :meth:`unclaimed_arch`).
        self._warned_arches: set[str] = set()
        #: Targets built from text, by the text (and the host's text); cleared when registrations change.
        self._cache: Memo[Any, Target] = Memo(_TEXT_CACHE_LIMIT)
        #: Dicts passed to :meth:`target`, by ``id()`` (see :meth:`target`); cleared with the text cache.
        self._dicts: Memo[int, Any] = Memo(_TEXT_CACHE_LIMIT)
        #: What the target builder remembers for this registry (its own, private state).
        self.build_state = BuildState()

    def anew(self) -> Registry:
        """A new registry of the same plugins and settings, with nothing loaded or built yet."""
        return Registry(
            self._explicit, autoload=self._autoload, strict=self._strict, environ=self._environ, path=self._path
        )

    def _forget_targets(self) -> None:
        self._cache.clear()
        self._dicts.clear()

    def _make_tag(self, config: Any, tag: str) -> Target:
        """The target of a tag's (or variant's) ``config``, carrying the name ``tag``."""
        return with_attrs(build(self, config), {"tag": tag})

    # -- queries -----------------------------------------------------------------------

    def find_kind(self, name: str) -> TargetKind | None:
        """The kind ``name`` (loading the plugin that declares it), or None.

        A tag's name at the head of a target string is looked up here first, so a name
        that no pending plugin declares costs one lookup.
        """
        return self._loader.find_kind(name)

    def list_kinds(self) -> list[str]:
        """The registered kind names, sorted."""
        self._loader.ensure_tags()
        return sorted(self.kinds)

    def get_kind(self, name: str) -> TargetKind:
        """The kind ``name``, or :class:`tcfg.UnknownKindError` with the closest names."""
        kind = self.find_kind(name) if isinstance(name, str) else None
        if kind is None:
            self._loader.ensure_tags()
            raise UnknownKindError(f"unknown kind {bounded_repr(name)}; {describe_choices(shorten(name), self.kinds)}")
        return kind

    def list_tags(self, prefix: str | None = None, aliases: bool = False) -> list[str]:
        """The registered tag names (starting with ``prefix``), sorted; their aliases too if ``aliases``.

        Variants (``NAME:VARIANT``) are not listed: a tag's entry names them.
        """
        if prefix is not None and type(prefix) is not str:
            raise TargetError(f"list_tags: prefix is a string such as 'nvidia/', not {bounded_repr(prefix)}")
        if type(aliases) is not bool:
            raise TargetError(f"list_tags: aliases is True or False, not {bounded_repr(aliases)}")
        self._loader.ensure_tags()
        return self._loader.tags.names(prefix, aliases)

    def find_tag(self, name: str) -> TagEntry | None:
        """The tag (or variant) ``name`` resolves to (loading the tags it may be one of, building it), or None.

        A plugin's tag that does not build raises :class:`tcfg.PluginError` naming the plugin.
        A name longer than any tag's (``NAME:VARIANT``) is none, at once: a huge one is not hashed.
        """
        if len(name) > _LONGEST_TAG:
            return None
        entry = self._loader.tags.built.get(name)
        if entry is None:
            entry = self._loader.tags.find(name) if self.tag_info(name) is not None else None
        return entry

    def tag_info(self, name: str) -> TagInfo | None:
        """What tag (or variant) ``name`` is declared as (loading the tags it may be one of), without building it."""
        loader = self._loader
        info = loader.tags.declared.get(name)
        if info is None and (loader.pending or loader.untagged or not loader.loaded):
            loader.need_tags(name)
            info = loader.tags.declared.get(name)
        return info

    def tag_entry(self, name: str) -> TagEntry:
        """The tag (or variant) that ``name`` resolves to, or :class:`tcfg.UnknownTagError` saying why not."""
        entry = self.find_tag(name) if isinstance(name, str) else None
        if entry is None:
            raise UnknownTagError(self.unknown_tag(shorten(name)))
        return entry

    def unknown_tag(self, name: str) -> str:
        """Why ``name`` resolves to no tag: its base tag's variants, the plugin that would provide it, or near names."""
        self._loader.ensure_tags()
        base, colon, variant = name.rpartition(":")
        entry = self._loader.tags.declared.get(base) if colon else None
        if entry is not None:
            offered = describe_choices(variant, entry.variants) if entry.variants else "it has no variants"
            return f"tag {entry.name!r} has no variant {variant!r}; {offered}"
        missing = self.missing_plugin("tag", base if colon else name)
        if missing is not None:
            return f"unknown tag {name!r}: {missing}"
        return f"unknown tag {name!r}; {describe_choices(name, self._loader.tags.infos)}"

    def missing_plugin(self, space: str, name: str, uninstalled_only: bool = False) -> str | None:
        """Which known plugin, not loaded here, provides the ``kind``, ``tag`` or ``arch`` ``name``; None if none."""
        self._loader.load_all_pending()  # an installed plugin is loaded, not missing
        loader = self._loader
        state_of = partial(advice.plugin_state, loader.records, autoload=loader.autoload, environ=loader.environ())
        return advice.missing_plugin(space, name, state_of, uninstalled_only)

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
        if self._loader.is_strict():
            raise PluginError(message)
        self._warned_arches.add(arch)
        warn(message + " (the target stays valid, without CPU features or checks)", stacklevel=2)

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
        self._loader.ensure_tags()
        spec = TagSpec(name, config, description, source, *spec_extras(aliases, variants))
        with self._lock:
            self._loader.tags.register(spec, override)
            self._forget_targets()

    def owner(self, space: str, name: str) -> str:
        """The plugin that registered ``name`` in ``space`` (``kind``, ``CPU architecture``)."""
        self._loader.ensure()
        return self._loader.contents.owners.get((space, name), "?")

    def cpu_parsers(self, arch: str | None = None) -> list[CpuParser]:
        """The registered CPU sub-parsers, in plugin order: all, or (given ``arch``) at least those that claim it."""
        if arch is None:
            self._loader.need_space("arch")
        else:
            self._loader.need("arch", arch)
        return self._loader.contents.parsers

    def find_compiler(self, kind: str, name: str) -> Compiler | None:
        """The compiler ``name`` of ``kind`` (loading the plugin that declares it), or None."""
        compiler = self._loader.contents.compilers.get((kind, name))
        if compiler is None and self._loader.need("compiler", name):
            compiler = self._loader.contents.compilers.get((kind, name))
        return compiler

    def compilers(self, kind: str | None = None) -> dict[str, Compiler]:
        """The BYOC compilers registered for ``kind`` (or for any kind, as ``kind:name``)."""
        self._loader.need_space("compiler")
        if kind is None:
            return {f"{k}:{n}": c for (k, n), c in sorted(self._loader.contents.compilers.items())}
        return {n: c for (k, n), c in sorted(self._loader.contents.compilers.items()) if k == kind}

    def components(self, role: Role) -> dict[str, Component]:
        """The registered executors (``role="executor"``) or runtimes (``"runtime"``) by name."""
        self._loader.need_space(role)
        return dict(sorted(self._loader.contents.components[role].items()))

    @property
    def features(self) -> FeatureIndex:
        """Every declared feature name and alias."""
        self._loader.ensure()
        return self._loader.contents.features

    def plugins(self) -> list[PluginRecord]:
        """One record per discovered plugin (those the environment disables, then the core, then the rest in order)."""
        self._loader.ensure_tags()
        return sorted(self._loader.records, key=lambda record: self._loader.rank.get(record.name, -1))

    def call_derive_hooks(self, request: DeriveRequest) -> list[tuple[str, Derived]]:
        """What each ``tcfg_derive_target`` implementation adds for ``request``.

        A hook that raises (anything but a :class:`TargetError` about the input) or returns
        something other than a ``Derived`` or None fails its plugin (see ``Loader.hook_failed``).
        """
        results = []
        for plugin in list(self.derive_hooks):
            derived = self._loader.call_hook(plugin, "tcfg_derive_target", Derived, may_refuse=False, request=request)
            if derived is None:
                continue
            owners = self._loader.contents.features.owners
            undeclared = sorted(name for name in derived.features if plugin not in owners.get(name, ()))
            if undeclared:
                self._loader.hook_failed(
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

        self._loader.ensure()
        self._loader.load_all_pending()
        for plugin in self._owners_first("tcfg_codegen", target):
            result = self._loader.call_hook(plugin, "tcfg_codegen", Codegen, target=target)
            if result is not None:
                codegen: Codegen = result
                return codegen
        raise TargetError(
            f"no installed plugin generates code for kind {target.kind.name!r} (target {str(target)!r}); "
            f"plugins loaded: {', '.join(r.name for r in self._loader.records if r.status == 'loaded')}"
        )

    def runs_on(self, code: Target, machine: Target) -> bool:
        """Whether code built for ``code`` runs on ``machine``; see :meth:`tcfg.Target.runs_on`.

        The core checks what it can (``machine`` is a Target, the device types, the hosts),
        then asks the plugins owning what ``code`` names first, then the others
        (``tcfg_runs_on``); a :class:`TargetError` names the input when none answers.
        """
        from tcfg._registry.running import no_answer, precheck

        verdict = precheck(code, machine)
        if verdict is not None:
            return verdict
        self._loader.ensure()
        self._loader.load_all_pending()
        implementers = self._owners_first("tcfg_runs_on", code)
        for plugin in implementers:
            result = self._loader.call_hook(plugin, "tcfg_runs_on", bool, code=code, machine=machine)
            if result is not None:
                return bool(result)
        raise TargetError(
            no_answer(code, machine, self._loader.implementers("tcfg_runs_on"), self._loader.contents.owners)
        )

    def _owners_first(self, hook: str, target: Target) -> list[str]:
        """The plugins to ask ``hook`` about ``target``: those owning what it names first, then pluggy's order.

        Owners first: its BYOC compiler's, its CPU's (the plugin whose CPU sub-parser claims
        its triple, ``-mcpu`` or ``-march``), its kind's; so that a plugin answering for
        every kind cannot take over another plugin's targets.
        """
        owners = self._loader.contents.owners
        kind = target.kind.name
        attrs = target.attrs
        names = []
        if isinstance(attrs.get("compiler"), str):
            names.append(owners.get(("compiler", f"{kind}:{attrs['compiler']}")))
        names.append(self._cpu_owner(attrs))
        names.append(owners.get(("kind", kind)))
        implementers = self._loader.implementers(hook)
        first = [name for name in dict.fromkeys(names) if name in implementers]
        return first + [name for name in implementers if name not in first]

    def _cpu_owner(self, attrs: Mapping[str, Any]) -> str | None:
        """The plugin whose CPU sub-parser claims a target's CPU: by its triple, else its ``-mcpu`` or ``-march``."""
        owners = self._loader.contents.owners
        triple, mcpu, march = attrs.get("mtriple"), attrs.get("mcpu"), attrs.get("march")
        if isinstance(triple, str):
            return owners.get(("CPU architecture", arch_family(triple)))
        method, value = ("claims_cpu", mcpu) if isinstance(mcpu, str) else ("claims_march", march)
        if not isinstance(value, str):
            return None
        claimant = next((p for p in self._loader.contents.parsers if p.arches and claims(p, method, value)), None)
        return None if claimant is None else owners.get(("CPU architecture", claimant.arches[0]))

    def detect(self, sources: Mapping[str, str | Sequence[str]] | None = None) -> list[Target]:
        """Targets for this machine's devices, or for the machine ``sources`` records, from every
        plugin that can detect them: the CPU (a target of a CPU kind) first, then discrete
        devices, integrated ones, software renderers last (see :func:`tcfg._base.recordings.device_rank`).

        ``sources`` maps a source name of :data:`tcfg.plugin.DETECT_SOURCES` to its recorded
        text (a list of texts for a per-device source); an unknown name or a value that is
        not text is a :class:`TargetError`. Given sources, only plugins whose ``tcfg_detect``
        takes ``sources`` are asked (the others can only read the live machine).
        """
        checked = None if sources is None else check_sources(sources)
        self._loader.ensure_tags()
        found: list[Target] = []
        plugins = self._loader.implementers("tcfg_detect", None if checked is None else "sources")
        for plugin in reversed(plugins):
            specs = self._loader.call_hook(plugin, "tcfg_detect", (list, tuple), sources=checked) or ()
            found += [build(self, spec) for spec in specs]
        return sorted(found, key=lambda t: (t.kind.device_type != "cpu", device_rank(t.attrs)))

    def target(self, spec: Any, host: Any = None) -> Target:
        """The target for ``spec`` (with ``host``), built once per distinct text (and per flat dict seen twice)."""
        if not self._loader.loaded:
            self._loader.ensure()
        short_host = host is None or (type(host) is str and len(host) <= MAX_TEXT)
        if type(spec) is str and len(spec) <= MAX_TEXT and short_host:  # a longer text is refused, unhashed
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
            # A dict is remembered by its identity: the dict itself after its first call, then
            # as ``(dict, copy, value types, target)`` if it is flat (see _note_dict). The
            # memo holds each dict it notes, so that no other dict can take its address meanwhile.
            dicts = self._dicts
            address = id(spec)
            entry = dicts.get(address)
            if entry is not None:
                if entry is not spec:
                    # Seen twice, flat: its target while it still equals the copy (inline:
                    # the core's hottest hit after a cached string).
                    _, copy, types, remembered = entry
                    if spec == copy and types == tuple(map(type, spec.values())):
                        again: Target = remembered
                        return again
                return self._note_dict(spec, address)
            made = from_dict(self, spec)
            if len(dicts) >= dicts.limit:
                dicts.clear()
            dicts[address] = spec
            return made
        return build(self, spec, host)

    def _note_dict(self, spec: dict[str, Any], address: int) -> Target:
        """Build the target of a dict :meth:`target` has seen before and remember it by ``address``.

        A flat dict (see :func:`_flat_copy`) is remembered as ``(dict, copy, value types,
        target)``, so that :meth:`target` reuses its target while the dict still equals the
        copy; any other dict, and a dict changed in place, is built anew at each call.
        """
        made = from_dict(self, spec)
        copy = _flat_copy(spec)
        self._dicts[address] = spec if copy is None else (spec, copy, tuple(map(type, spec.values())), made)
        return made

    def with_attrs(self, target: Target, changes: Mapping[str, Any]) -> Target:
        """``target`` with some configured attributes replaced (None removes one)."""
        return with_attrs(target, changes)

    def nested(self, spec: Any) -> Target:
        """The target for ``spec`` as an attribute value (a host or device) one level down."""
        if not isinstance(spec, (str, Target)):
            refuse_past_limits(spec)
        return build(self, spec, None, 1)

    def nested_context(self, depth: int) -> Any:
        """The build context for attribute values of a target at nesting ``depth``."""
        return nested_context(self, depth)

    def libraries(self, kind: str) -> Sequence[Library]:
        """The ``-libs`` libraries registered for ``kind``: every registration, in load order."""
        self._loader.need_space("library")
        return self._loader.contents.libraries.get(kind, ())


#: The longest name a tag or a tag's variant can have (``NAME:VARIANT``).
_LONGEST_TAG = 2 * MAX_TAG_NAME + 1

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
