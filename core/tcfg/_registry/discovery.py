"""Finding plugins: the ``tcfg`` entry-point group, filtered by the ``TCFG_*`` environment."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import NamedTuple

__all__ = ["Candidate", "EntryPoint", "Skipped", "discover", "env_flag", "installed_entry_points", "load_object"]

GROUP = "tcfg"
#: The group in which a plugin's distribution declares what it provides, one entry per
#: name: ``SPACE.NAME = <the plugin's hook module>`` (``kind.cuda = tcfg_cuda.plugin``).
PROVIDES = "tcfg.provides"


def env_flag(environ: Mapping[str, str], name: str) -> bool:
    """Whether the environment variable ``name`` is set to a true value (1, true, yes, on)."""
    return environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _names(value: str) -> set[str]:
    return {part.strip() for part in value.split(",") if part.strip()}


class Candidate(NamedTuple):
    """A plugin to load: its entry-point name, distribution, version, loader and manifest.

    ``provides`` is what its distribution declares in the ``tcfg.provides`` group, as
    ``(space, name)`` pairs (``("kind", "cuda")``), or None when it declares nothing
    (then the registry loads it on its first query, else when one of the names is needed).
    """

    name: str
    distribution: str | None
    version: str | None
    load: Callable[[], object]
    provides: frozenset[tuple[str, str]] | None = None


class Skipped(NamedTuple):
    """An installed plugin the environment disabled, and which variable did it."""

    name: str
    distribution: str | None
    version: str | None
    reason: str


def discover(environ: Mapping[str, str] | None = None) -> tuple[list[Candidate], list[Skipped]]:
    """The installed plugins to load and those the environment disables, sorted by name.

    ``TCFG_DISABLE_PLUGIN_AUTOLOAD=1`` scans nothing; ``TCFG_LOAD_PLUGINS=a,b`` loads only
    those (empty: none); ``TCFG_DISABLED_PLUGINS=c`` blocks some.
    """
    env = os.environ if environ is None else environ
    if env_flag(env, "TCFG_DISABLE_PLUGIN_AUTOLOAD"):
        return [], []
    only = _names(env["TCFG_LOAD_PLUGINS"]) if "TCFG_LOAD_PLUGINS" in env else None
    blocked = _names(env.get("TCFG_DISABLED_PLUGINS", ""))
    load: list[Candidate] = []
    skip: list[Skipped] = []
    for ep in sorted(installed_entry_points(GROUP), key=lambda e: (e.name, e.value)):
        if only is not None and ep.name not in only:
            skip.append(Skipped(ep.name, ep.distribution, ep.version, "not listed in TCFG_LOAD_PLUGINS"))
        elif ep.name in blocked:
            skip.append(Skipped(ep.name, ep.distribution, ep.version, "listed in TCFG_DISABLED_PLUGINS"))
        else:
            load.append(Candidate(ep.name, ep.distribution, ep.version, partial(load_object, ep.value), ep.provides))
    return load, skip


class EntryPoint(NamedTuple):
    """One entry point of an installed distribution, and the names its distribution declares for it.

    ``provides`` holds the ``(space, name)`` of each entry of the :data:`PROVIDES` group
    whose value is this entry point's value (None when there is none).
    """

    name: str
    value: str
    distribution: str
    version: str | None
    provides: frozenset[tuple[str, str]] | None = None


def installed_entry_points(group: str, path: Sequence[str] | None = None) -> list[EntryPoint]:
    """The entry points in ``group`` of the distributions installed on ``path`` (``sys.path``).

    Reads ``*.dist-info``/``*.egg-info`` directories directly, as ``importlib.metadata``
    does (the first distribution of a name on the path wins) but without importing it,
    which costs a fresh process tens of milliseconds.
    """
    found: list[EntryPoint] = []
    seen: set[str] = set()
    header = f"[{group}]"
    for base in sys.path if path is None else path:
        directory = base or "."
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if suffix not in ("dist-info", "egg-info") or not dot:
                continue
            key = _normalise(stem.split("-", 1)[0])
            if key in seen:
                continue
            seen.add(key)
            meta = os.path.join(directory, name)
            text = _read(os.path.join(meta, "entry_points.txt"))
            if text is None or header not in text:
                continue
            dist, version = _identity(meta, suffix, stem)
            declared: dict[str, set[tuple[str, str]]] = {}
            for key, value in _section(text, PROVIDES):
                space, _, name = key.partition(".")
                declared.setdefault(_object_path(value), set()).add((space, name))
            for entry_name, value in _section(text, group):
                provided = declared.get(_object_path(value))
                found.append(
                    EntryPoint(entry_name, value, dist, version, None if provided is None else frozenset(provided))
                )
    return found


def load_object(value: str) -> object:
    """The object an entry point names (``package.module`` or ``package.module:attr.sub``; ``[extras]`` ignored)."""
    module_name, _, attrs = _object_path(value).partition(":")
    module_name = module_name.strip()
    __import__(module_name)
    obj: object = sys.modules[module_name]
    for attr in filter(None, attrs.strip().split(".")):
        obj = getattr(obj, attr)
    return obj


def _object_path(value: str) -> str:
    """An entry point's value without its ``[extras]`` (which name optional dependencies, not the object)."""
    return value.split("[", 1)[0].strip()


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return None


def _identity(meta: str, suffix: str, stem: str) -> tuple[str, str | None]:
    """The distribution's name and version from its metadata headers."""
    text = _read(os.path.join(meta, "METADATA" if suffix == "dist-info" else "PKG-INFO")) or ""
    headers: dict[str, str] = {}
    for line in text.partition("\n\n")[0].splitlines():  # the headers end at the first blank line
        field, _, value = line.partition(":")
        headers.setdefault(field.strip().lower(), value.strip())
    name = headers.get("name") or stem.split("-", 1)[0]
    return name, headers.get("version")


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """``(name, value)`` of each entry in the ``[group]`` section of an ``entry_points.txt``.

    The value is as written, ``[extras]`` included, as :mod:`importlib.metadata` gives it.
    """
    entries, inside = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            inside = line == f"[{group}]"
            continue
        if inside and "=" in line:
            name, _, value = line.partition("=")
            entries.append((name.strip(), value.strip()))
    return entries
