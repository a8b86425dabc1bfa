"""The composition root's one injection point: how lower layers reach the default registry.

The model layer (``Target(spec)``, ``TargetKind.schema()``) needs the process-wide
registry, which lives in the engine layer above it. Importing upwards would make a
cycle, so the package's ``__init__`` (the composition root, which runs before any
submodule) installs a provider here once, and lower layers call
:func:`default_registry`. Nothing else is ever installed or patched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for annotations only: the engine is above this layer
    from tcfg._engine_registry import Registry

__all__ = ["default_registry", "install", "provider"]


def _unwired() -> Registry:
    raise RuntimeError("tcfg is not wired: import the tcfg package, not its private modules alone")


#: The function that returns the process-wide registry: read it as ``_base_wiring.provider``
#: at each call (``Target()`` does, to save a call level), since :func:`install` replaces it.
provider: Callable[[], Registry] = _unwired


def install(new: Callable[[], Registry]) -> None:
    """Set the function that returns the process-wide registry (the composition root does)."""
    global provider
    provider = new


def default_registry() -> Registry:
    """The process-wide registry, from the provider :func:`install` set."""
    return provider()
