"""What a loaded plugin registered, as the ``tcfg.provides`` entries its manifest must declare."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tcfg._registry.records import PluginRecord
    from tcfg._registry.registry import Registry

__all__ = ["provided"]


def provided(registry: Registry, record: PluginRecord) -> list[str]:
    """The ``SPACE.NAME`` entries (tags aside) that cover what ``record``'s plugin registered, sorted.

    Kinds, CPU architectures, compilers, libraries, executors, runtimes, features and
    feature aliases; a tag entry is a vendor or a name prefix its author chooses, so tags
    are not listed.
    """
    got = record.registered
    found = {("kind", name) for name in got.get("kinds", [])}
    found |= {("compiler", qualified.split(":", 1)[1]) for qualified in got.get("compilers", [])}
    found |= {("library", qualified.split(":", 1)[1]) for qualified in got.get("libraries", [])}
    found |= {(role, name) for role in ("executor", "runtime") for name in got.get(f"{role}s", [])}
    found |= {("feature", name) for name in got.get("features", [])}
    plugin = record.name
    for parser in registry.cpu_parsers():
        found |= {("arch", arch) for arch in parser.arches if registry.owner("CPU architecture", arch) == plugin}
    found |= {
        ("feature", alias) for alias in registry.features.aliases if registry.owner("feature alias", alias) == plugin
    }
    return sorted(f"{space}.{name}" for space, name in found)
