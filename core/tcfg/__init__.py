"""tcfg: what exactly am I compiling for?

Importing ``tcfg`` does no work: plugins are found and loaded on the first registry
query (building a target, listing kinds or tags), and modules are imported on first
use of the names below.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tcfg import _base_wiring
from tcfg._base_errors import (
    AttributeValueError,
    PluginError,
    PluginWarning,
    TargetError,
    TargetSyntaxError,
    UnknownAttributeError,
    UnknownKindError,
    UnknownTagError,
)
from tcfg._base_version import __version__ as __version__

if TYPE_CHECKING:
    from tcfg._engine_registry import PluginRecord, Registry
    from tcfg._model_kind import TargetKind
    from tcfg._model_target import Target
    from tcfg._service_config import CompilationConfig
    from tcfg._service_dispatch import GenericFunc, generic_func
    from tcfg._service_tuning import TuningRecord
    from tcfg._service_tvm import from_tvm


__all__ = [
    "AttributeValueError",
    "CompilationConfig",
    "GenericFunc",
    "PluginError",
    "PluginRecord",
    "PluginWarning",
    "Registry",
    "Target",
    "TargetError",
    "TargetKind",
    "TargetSyntaxError",
    "TuningRecord",
    "UnknownAttributeError",
    "UnknownKindError",
    "UnknownTagError",
    "from_tvm",
    "generic_func",
    "get_kind",
    "get_tag",
    "list_kinds",
    "list_tags",
    "plugins",
    "register_tag",
]

_LAZY = {
    "Target": "tcfg._model_target",
    "Registry": "tcfg._engine_registry",
    "PluginRecord": "tcfg._engine_registry",
    "TargetKind": "tcfg._model_kind",
    "GenericFunc": "tcfg._service_dispatch",
    "generic_func": "tcfg._service_dispatch",
    "CompilationConfig": "tcfg._service_config",
    "TuningRecord": "tcfg._service_tuning",
    "from_tvm": "tcfg._service_tvm",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tcfg' has no attribute {name!r}")
    __import__(module)
    value = getattr(sys.modules[module], name)
    globals()[name] = value
    return value


def _wire() -> Registry:
    """The process-wide registry, on the first call: imports the engine and wires it in directly.

    Later calls of ``_base_wiring.default_registry()`` go straight to the engine's function.
    """
    from tcfg._engine_registry import default_registry

    _base_wiring.install(default_registry)
    return default_registry()


_base_wiring.install(_wire)  # the composition root's one injection point
_registry = _base_wiring.default_registry


def list_kinds() -> list[str]:
    """The names of all registered kinds, sorted."""
    return _registry().list_kinds()


def get_kind(name: str) -> TargetKind:
    """The kind ``name``; :class:`UnknownKindError` lists the closest names."""
    return _registry().get_kind(name)


def list_tags(prefix: str | None = None, aliases: bool = False) -> list[str]:
    """The names of all registered tags (starting with ``prefix``), sorted; their aliases too if ``aliases``."""
    return _registry().list_tags(prefix, aliases)


def get_tag(name: str) -> dict[str, Any]:
    """The config of tag ``name`` (an alias, or ``NAME:VARIANT``); :class:`UnknownTagError` says why not."""
    return _registry().get_tag(name)


def register_tag(
    name: str,
    config: Any,
    override: bool = False,
    *,
    aliases: Sequence[str] = (),
    variants: Mapping[str, Any] | None = None,
) -> None:
    """Register tag ``name`` as ``config`` (with its ``aliases`` and ``variants``), validated before it is stored."""
    _registry().register_tag(name, config, override, aliases=aliases, variants=variants)


def plugins() -> list[PluginRecord]:
    """One record per discovered plugin: name, distribution, version, status, error, registrations."""
    return _registry().plugins()
