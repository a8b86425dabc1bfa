"""Install advice: which known plugin provides a kind, a tag or a CPU architecture that is missing here.

The table of known plugins is the core's data (``data/known_plugins.json``), read on
first use: only error and warning paths need it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from tcfg._base.files import package_json
from tcfg._registry.discovery import env_flag
from tcfg._registry.records import PluginRecord

__all__ = ["UNINSTALLED", "missing_plugin", "plugin_state"]

#: The state of a known plugin that is not installed (as opposed to disabled or failed).
UNINSTALLED = "not installed"


@cache
def _known_plugins() -> dict[str, Any]:
    plugins: dict[str, Any] = package_json("tcfg", "data/known_plugins.json")["plugins"]
    return plugins


def missing_plugin(space: str, name: str, state_of: Callable[[str], str], uninstalled_only: bool = False) -> str | None:
    """Which known plugin, not loaded here, provides the ``kind``, ``tag`` or ``arch`` ``name``; None if none.

    ``state_of(short)`` is a known plugin's state here (:func:`plugin_state`). A tag is
    matched by its longest known prefix. With ``uninstalled_only``, None unless every
    such plugin is missing from the installation (not merely disabled or failed).
    """
    known = _known_plugins()
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
    states = [(known[short]["distribution"], state_of(short)) for short in providers]
    absent = [(dist, state) for dist, state in states if state != "loaded"]
    if not absent or (uninstalled_only and any(state != UNINSTALLED for _, state in absent)):
        return None
    listed = ", ".join(f"{dist} ({state})" for dist, state in absent)
    if len(absent) < len(states):
        loaded = ", ".join(dist for dist, state in states if state == "loaded")
        listed = f"{loaded} (loaded) and {listed}"
    fix = " ".join(dist for dist, _ in absent)
    verb = "come from" if space == "tag" else "is provided by"
    return f"{what} {verb} {listed}: pip install {fix}"


def plugin_state(records: Iterable[PluginRecord], short: str, autoload: bool, environ: Mapping[str, str]) -> str:
    """``loaded``, ``not installed``, or why the known plugin ``short`` is not loaded (from its record)."""
    package = f"tcfg_{short}"
    for record in records:
        if record.name == short or record.name.split(".")[0] == package:
            if record.status == "loaded":
                return "loaded"
            return f"{record.status}: {record.error}" if record.error else record.status
    if not autoload:
        return "not loaded: this registry loads only the plugins it was given"
    if env_flag(environ, "TCFG_DISABLE_PLUGIN_AUTOLOAD"):
        return "not loaded: TCFG_DISABLE_PLUGIN_AUTOLOAD is set"
    return UNINSTALLED
