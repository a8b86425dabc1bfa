"""What the interop tests share: the installed tags, and which plugin an error asks for."""

from __future__ import annotations

import re

import tcfg


def plugin_of(error: tcfg.TargetError) -> str | None:
    """The ``tcfg-plugin-*`` that an unknown-kind or unknown-tag error says to install, if any."""
    found = re.search(r"tcfg-plugin-[a-z0-9_-]+", str(error))
    return found.group(0) if found else None


def tag_targets() -> list[tuple[str, tcfg.Target]]:
    """Every installed tag (aliases left out) as ``(name, target)``."""
    return [(name, tcfg.Target(name)) for name in tcfg.list_tags()]
