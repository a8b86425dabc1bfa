# mypy: disable-error-code="empty-body"
"""The hooks a tcfg plugin implements: this module is the plugin author's reference.

A plugin is a module (or object) named by an entry point in the ``tcfg`` group, whose
functions are marked with :data:`tcfg.plugin.hookimpl` and named after the hooks
below. Implement only the hooks you need; every argument is optional to accept.

Registration hooks (``tcfg_register_*``) run once, when the registry loads the plugin
(at its first query, or, for a plugin that declares what it provides in the
``tcfg.provides`` entry points, when a target first needs one of those names; tags when
a tag its ``tag`` entries cover is first looked up), and receive a ``register`` callable.
A plugin's registrations are all-or-nothing: if one of them is invalid, raises, or
claims a name another plugin owns, none of that plugin's registrations are kept, a
:class:`tcfg.PluginWarning` names the cause, and ``tcfg.plugins()`` reports it
(``TCFG_STRICT_PLUGINS=1`` raises instead).

Feature derivation and keys come from parsers: a :class:`~tcfg._model.kind.TargetKind`'s
``parser``, a :class:`~tcfg._model.cpu.CpuParser` for ``llvm``/``c`` targets, a BYOC
:class:`~tcfg._model.kind.Compiler`'s ``parser``, and the :func:`tcfg_derive_target` hook for
additions to kinds a plugin does not own. Each declares the features it derives
(:class:`~tcfg._model.features.Feature`, with compatibility aliases such as TVM's
``has_asimd``) and returns a :class:`~tcfg._model.kind.Derived`.

Per-target hooks (:func:`tcfg_derive_target`, :func:`tcfg_codegen`) must be fast and
side-effect free; import vendor SDKs (llvmlite, NVRTC, TensorRT) only inside the
functions that use them, never at module import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, overload

import pluggy

if TYPE_CHECKING:
    from tcfg._model.codegen import Codegen
    from tcfg._model.components import Component
    from tcfg._model.cpu import CpuParser
    from tcfg._model.features import Feature
    from tcfg._model.kind import Compiler, Derived, DeriveRequest, Library, TargetKind
    from tcfg._model.target import Target


#: Marks a hook specification of the project ``tcfg`` (pluggy's marker).
hookspec = pluggy.HookspecMarker("tcfg")


class TagSpec(NamedTuple):
    """A tag as a plugin declares it: its name, target config, one-line description and sources.

    ``config`` is a target dict, string (possibly naming another tag) or Target; ``description``
    is one line for ``tcfg tags``; ``source`` cites where each fact came from (a
    datasheet or vendor page, with its date).

    ``aliases`` are other names of the same tag (another project's spelling, such as
    Apache TVM's): each resolves wherever the name does, and a target built from one
    reports the canonical name as its ``tag``. ``variants`` maps a variant name to its
    config (a target dict or string, which may name the tag itself): ``NAME:VARIANT``
    builds it (``nvidia/jetson-nano:cuda``, ``st/stm32f746g-disco:aot``). Aliases and
    variants are claimed and validated like the tag: a name another plugin owns, or a
    variant that does not build, fails the plugin's registration.
    """

    name: str
    config: Mapping[str, Any] | str | Target
    description: str = ""
    source: str = ""
    aliases: tuple[str, ...] = ()
    variants: Mapping[str, Mapping[str, Any] | str] = MappingProxyType({})


class TagRegistrar(Protocol):
    """The ``register`` callable of :func:`tcfg_register_tags`: ``register(TagSpec(...))``.

    ``register(name, config, description=..., source=..., aliases=..., variants=...)`` is
    the same call spelled out.
    """

    @overload
    def __call__(self, spec: TagSpec, /) -> None: ...

    @overload
    def __call__(
        self,
        name: str,
        config: Mapping[str, Any] | str,
        *,
        description: str = "",
        source: str = "",
        aliases: Sequence[str] = (),
        variants: Mapping[str, Mapping[str, Any] | str] | None = None,
    ) -> None: ...


@hookspec
def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
    """Register the target kinds this plugin defines (``register(TargetKind(...))``).

    A kind name may be registered by one plugin only.
    """


@hookspec
def tcfg_register_cpu_parsers(register: Callable[[CpuParser], None]) -> None:
    """Register sub-parsers for the core's ``llvm`` and ``c`` kinds (``register(parser)``).

    The core's CPU parser hands a target to the sub-parser whose ``arches`` include
    the triple's architecture family, or without a triple to the one whose
    ``claims_cpu(mcpu)`` is true. An architecture family may be claimed by one
    sub-parser only.
    """


@hookspec
def tcfg_register_compilers(register: Callable[[Compiler], None]) -> None:
    """Register BYOC compilers (``-compiler=NAME``) for kinds of this or other plugins.

    A compiler name may be registered once per kind; its attribute names must not
    clash with the kind's.
    """


@hookspec
def tcfg_register_libraries(register: Callable[[Library], None]) -> None:
    """Register the external libraries targets may name in ``-libs`` (``register(Library(...))``).

    Once any plugin registers a library for a kind, every ``-libs`` name of a target of
    that kind must be a registered library whose rule accepts the target. Several plugins
    may register the same library name (each for its hardware): a name is valid where any
    registration's rule accepts it. Libraries, like compilers, are registered before any
    tag is checked, so a tag may name another plugin's library.
    """


@hookspec
def tcfg_register_executors(register: Callable[[Component], None]) -> None:
    """Register executors (what drives a composite target's program: ``graph``, ``vm``, ...).

    ``register(Component(name, attrs, doc))``; a name may be registered by one plugin only.
    """


@hookspec
def tcfg_register_runtimes(register: Callable[[Component], None]) -> None:
    """Register runtimes (what a composite target's program links with: ``cpp``, ``crt``, ...).

    ``register(Component(name, attrs, doc))``; a name may be registered by one plugin only.
    """


@hookspec
def tcfg_register_tags(register: TagRegistrar) -> None:
    """Register tags: named target configurations of real devices and systems.

    Runs after every plugin's kinds are registered, so a tag may use another
    plugin's kind (a board tag with an ``llvm`` host). Names, aliases and variant names
    are checked here (an invalid one fails this plugin's registration); each tag's
    config is built on its first lookup, and one that does not build is this plugin's
    :class:`tcfg.PluginError` there (``tcfg plugins --check`` builds them all).
    """


@hookspec
def tcfg_derive_target(request: DeriveRequest) -> Derived | None:
    """Add keys and features to targets of kinds this plugin does not own, or return None.

    Called for every target after its kind's (and compiler's) parser, with the
    features derived so far in ``request.features``. Returned ``attrs`` are ignored:
    only a kind's own parser may change attributes. Declare the features you add
    with :func:`tcfg_register_features`.

    It may not refuse a target of another plugin: raising (a :class:`tcfg.TargetError`
    too), or returning features it does not declare, fails this plugin alone (one
    :class:`tcfg.PluginWarning`), and targets are built without its additions.
    """


@hookspec
def tcfg_register_features(register: Callable[[Feature], None]) -> None:
    """Declare the features (and their aliases) that :func:`tcfg_derive_target` adds.

    Features derived by kinds, CPU parsers and compilers are declared on those objects.
    A feature name or alias may be declared by one plugin only.
    """


@hookspec(firstresult=True)
def tcfg_codegen(target: Target) -> Codegen | None:
    """The codegen configuration for ``target``, or None if this plugin does not handle it.

    The first plugin to return a configuration wins. Raise :class:`tcfg.TargetError`
    when the target is yours but cannot be compiled (say what is missing).
    """


@hookspec
def tcfg_detect(sources: Mapping[str, tuple[str, ...]] | None) -> Sequence[Target | Mapping[str, Any] | str]:
    """Targets (specs or Targets) for the devices of this machine, or of a recorded one, that this plugin knows.

    ``sources`` is None for this machine. Otherwise it describes another machine by
    recordings (``tcfg.detect(sources=...)``, ``tcfg detect --from NAME=FILE``): a mapping
    from a source name (``cpuinfo``, ``nvidia-smi``, ``rocminfo``, ``vulkaninfo``; see
    ``tcfg.plugin.DETECT_SOURCES``) to the texts recorded; read those you understand
    and nothing of the live machine. An implementation that does not name ``sources``
    (written before recordings existed) is called for this machine only.

    Return an empty list when there is nothing of yours here; raise
    :class:`tcfg.TargetError` only when a device is present (or recorded) but cannot be read.
    """


@hookspec(firstresult=True)
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """Whether code built for ``code`` runs on ``machine`` (a target describing a real device), or None.

    Answer for the targets your plugin owns (its kinds, its CPU architectures) and return
    None for the others. The core asks the owners of what ``code`` names first (its CPU
    architecture's plugin, its kind's), then the other plugins in pluggy's order; the
    first answer wins. Before asking, the core has checked that ``machine`` is a Target,
    that both are devices of the same ``device_type``, and that ``code``'s host (if any)
    runs on ``machine``'s host; your answer is about the device itself.

    Raise :class:`tcfg.TargetError` when the question has no answer for these targets (say
    which part is missing). Anything else raised, or a result that is not a bool or None,
    fails this plugin's per-target hooks alone, as for :func:`tcfg_codegen`.
    """
