"""Finding plugins: the ``tcfg`` and ``tcfg.provides`` entry points, filtered by the ``TCFG_*`` environment.

The entry points are read with the ``importlib-metadata`` distribution, imported on the
first scan (never by ``import tcfg``); no plugin module is imported to read them.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each string
# annotation of a field into a ForwardRef (docs/performance.md, "Evaluated annotations").

import os
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from tcfg._base.errors import PluginWarning, closest, describe_choices

if TYPE_CHECKING:
    import importlib_metadata

__all__ = ["GROUP", "PROVIDES", "Candidate", "Origin", "Release", "Skipped", "discover", "env_flag"]

GROUP = "tcfg"
#: The group in which a plugin's distribution declares what it provides, one entry per
#: name: ``SPACE.NAME = <the plugin's hook module>`` (``kind.cuda = tcfg_cuda.plugin``).
PROVIDES = "tcfg.provides"

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")
#: The boolean variables, each read by :func:`env_flag` (a value that is no boolean warns in :func:`discover`).
FLAGS = ("TCFG_DISABLE_PLUGIN_AUTOLOAD", "TCFG_STRICT_PLUGINS")


def env_flag(environ: Mapping[str, str], name: str) -> bool:
    """Whether the environment variable ``name`` is set to a true value (1, true, yes, on)."""
    return environ.get(name, "").strip().lower() in _TRUE


def _names(value: str) -> set[str]:
    return {part.strip() for part in value.split(",") if part.strip()}


class Origin(Protocol):
    """Where a plugin comes from: a distribution's ``name`` and ``version``.

    An installed distribution (``importlib_metadata.Distribution``) reads them from its
    metadata when they are asked for, which costs a fresh process milliseconds (the
    ``email`` parser), so they are read only when a record or a message shows them.
    """

    @property
    def name(self) -> str | None: ...

    @property
    def version(self) -> str | None: ...


class Release(NamedTuple):
    """An origin known without reading metadata (the core's own)."""

    name: str
    version: str


class Candidate(NamedTuple):
    """A plugin to load: its entry-point name, origin (None: in-process), loader and manifest.

    ``load`` takes no argument and returns the plugin (an entry point's ``load``).
    ``provides`` is what its distribution declares in the ``tcfg.provides`` group, as
    ``(space, name)`` pairs (``("kind", "cuda")``), or None when it declares nothing
    (then the registry loads it on its first query, else when one of the names is needed).
    """

    name: str
    origin: Origin | None
    load: Callable[[], object]
    provides: frozenset[tuple[str, str]] | None = None


class Skipped(NamedTuple):
    """An installed plugin the environment disabled, its origin, and which variable did it."""

    name: str
    origin: Origin | None
    reason: str


def discover(
    environ: Mapping[str, str] | None = None, *, path: Sequence[str] | None = None
) -> tuple[list[Candidate], list[Skipped]]:
    """The installed plugins to load and those the environment disables, sorted by name.

    ``TCFG_DISABLE_PLUGIN_AUTOLOAD=1`` scans nothing; ``TCFG_LOAD_PLUGINS=a,b`` loads only
    those (empty: none); ``TCFG_DISABLED_PLUGINS=c`` blocks some. ``path`` is the list of
    directories (or zip files) to search instead of ``sys.path``; a distribution's first
    occurrence on it wins. A ``TCFG_*`` value that is no boolean, or names no installed
    plugin, is reported by a :class:`tcfg.PluginWarning` offering the closest valid names.
    """
    env = os.environ if environ is None else environ
    for flag in FLAGS:
        _check_flag(env, flag)
    if env_flag(env, "TCFG_DISABLE_PLUGIN_AUTOLOAD"):
        return [], []
    only = _names(env["TCFG_LOAD_PLUGINS"]) if "TCFG_LOAD_PLUGINS" in env else None
    blocked = _names(env.get("TCFG_DISABLED_PLUGINS", ""))
    found = _scan(path)
    installed = {ep.name for ep, _ in found}
    _check_names(env, "TCFG_LOAD_PLUGINS", only or set(), installed)
    _check_names(env, "TCFG_DISABLED_PLUGINS", blocked, installed)
    load: list[Candidate] = []
    skip: list[Skipped] = []
    for ep, provides in found:
        if only is not None and ep.name not in only:
            skip.append(Skipped(ep.name, ep.dist, "not listed in TCFG_LOAD_PLUGINS"))
        elif ep.name in blocked:
            skip.append(Skipped(ep.name, ep.dist, "listed in TCFG_DISABLED_PLUGINS"))
        else:
            load.append(Candidate(ep.name, ep.dist, ep.load, provides))
    return load, skip


def _scan(
    path: Sequence[str] | None,
) -> "list[tuple[importlib_metadata.EntryPoint, frozenset[tuple[str, str]] | None]]":
    """Each ``tcfg`` entry point (sorted by name and value) and what its distribution's
    ``tcfg.provides`` entries with the same value declare (None when there are none)."""
    import importlib_metadata

    if path is None:
        everything = importlib_metadata.entry_points()
    else:
        dists = _first_of_each(importlib_metadata.distributions(path=list(path)))
        everything = importlib_metadata.EntryPoints(ep for dist in dists for ep in dist.entry_points)
    # A distribution's entry points share its one Distribution object: pairing by its
    # identity reads no metadata (its name would parse every distribution's METADATA).
    # One pass over every entry point: ``EntryPoints.select`` would walk them once per group.
    # The ~1,000 names are gathered as they come, and split once per plugin that is found.
    named: dict[tuple[int, str], list[str]] = {}
    hooks = []
    for ep in everything:
        if ep.group == PROVIDES:
            named.setdefault((id(ep.dist), ep.value), []).append(ep.name)
        elif ep.group == GROUP:
            hooks.append(ep)
    declared: dict[tuple[int, str], list[str]] = {}
    for (dist, value), names in named.items():
        declared.setdefault((dist, _object_path(value)), []).extend(names)
    found: list[tuple[importlib_metadata.EntryPoint, frozenset[tuple[str, str]] | None]] = []
    for ep in sorted(hooks, key=lambda e: (e.name, e.value)):
        provided = declared.get((id(ep.dist), _object_path(ep.value)))
        if provided is None:
            found.append((ep, None))
        else:
            found.append((ep, frozenset((space, name) for space, _, name in (n.partition(".") for n in provided))))
    return found


def _first_of_each(dists: "Iterable[importlib_metadata.IDistribution]") -> "list[importlib_metadata.IDistribution]":
    """The first distribution of each name, as ``importlib_metadata.entry_points`` keeps it."""
    seen: set[str] = set()
    first = []
    for dist in dists:
        key = _normalise(dist.name or "")
        if key and key in seen:
            continue
        seen.add(key)
        first.append(dist)
    return first


def _object_path(value: str) -> str:
    """An entry point's value without its ``[extras]`` (which name optional dependencies, not the object)."""
    return value.split("[", 1)[0].strip()


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _check_flag(env: Mapping[str, str], flag: str) -> None:
    value = env.get(flag)
    if value is None or value.strip().lower() in _TRUE + _FALSE:
        return
    near = closest(value.strip().lower(), _TRUE + _FALSE[:-1])
    guess = f"did you mean {' or '.join(repr(n) for n in near)}? " if near else ""
    _warn(
        f"{flag}={value!r} is not a boolean, so it counts as off; {guess}"
        f"the valid spellings are {', '.join(_TRUE)} (on) and {', '.join(_FALSE[:-1])} or empty (off)"
    )


def _check_names(env: Mapping[str, str], variable: str, listed: set[str], installed: set[str]) -> None:
    for name in sorted(listed - installed):
        _warn(
            f"{variable}={env[variable]!r} names {name!r}, which is no installed tcfg plugin; "
            f"{describe_choices(name, installed)}"
        )


def _warn(message: str) -> None:
    warnings.warn(message, PluginWarning, stacklevel=4)
