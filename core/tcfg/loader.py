"""Finding plugins: the ``tcfg`` entry-point group, filtered by the ``TCFG_*`` environment."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["Candidate", "Skipped", "discover", "env_flag"]

GROUP = "tcfg"


def env_flag(environ: Mapping[str, str], name: str) -> bool:
    """Whether the environment variable ``name`` is set to a true value (1, true, yes, on)."""
    return environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _names(value: str) -> set[str]:
    return {part.strip() for part in value.split(",") if part.strip()}


@dataclass(frozen=True)
class Candidate:
    """A plugin to load: its entry-point name, distribution, version and loader."""

    name: str
    distribution: str | None
    version: str | None
    load: Callable[[], object]


@dataclass(frozen=True)
class Skipped:
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
    from importlib.metadata import entry_points

    only = _names(env["TCFG_LOAD_PLUGINS"]) if "TCFG_LOAD_PLUGINS" in env else None
    blocked = _names(env.get("TCFG_DISABLED_PLUGINS", ""))
    load: list[Candidate] = []
    skip: list[Skipped] = []
    for ep in sorted(entry_points(group=GROUP), key=lambda e: (e.name, e.value)):
        dist = getattr(ep, "dist", None)
        dist_name = dist.name if dist is not None else None
        version = dist.version if dist is not None else None
        if only is not None and ep.name not in only:
            skip.append(Skipped(ep.name, dist_name, version, "not listed in TCFG_LOAD_PLUGINS"))
        elif ep.name in blocked:
            skip.append(Skipped(ep.name, dist_name, version, "listed in TCFG_DISABLED_PLUGINS"))
        else:
            load.append(Candidate(ep.name, dist_name, version, ep.load))
    return load, skip
