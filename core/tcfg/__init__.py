"""tcfg: what exactly am I compiling for?

Importing ``tcfg`` does no work: plugins are found and loaded on the first registry
query (building a target, listing kinds or tags), and modules are imported on first
use of the names below.
"""

from __future__ import annotations

import sys

from tcfg._base.errors import (
    AttributeValueError,
    PluginError,
    PluginWarning,
    TargetError,
    TargetSyntaxError,
    UnknownAttributeError,
    UnknownKindError,
    UnknownTagError,
)
from tcfg._base.version import __version__ as __version__
from tcfg._model import view

#: ``typing.TYPE_CHECKING`` without importing :mod:`typing`: importing tcfg does no work,
#: and :mod:`typing` alone would double a bare interpreter's start-up (docs/performance.md).
#: Type checkers treat any ``TYPE_CHECKING`` name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from tcfg._model.kind import TargetKind
    from tcfg._model.registry_view import RegistryView
    from tcfg._model.target import Target
    from tcfg._registry.registry import PluginRecord, Registry
    from tcfg._services.config import CompilationConfig
    from tcfg._services.dispatch import GenericFunc, generic_func
    from tcfg._services.from_tvm import from_tvm
    from tcfg._services.pick import pick
    from tcfg._services.tuning import TuningRecord


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
    "detect",
    "from_tvm",
    "generic_func",
    "get_kind",
    "get_tag",
    "list_kinds",
    "list_tags",
    "pick",
    "plugins",
    "register_tag",
]

_LAZY = {
    "Target": "tcfg._model.target",
    "Registry": "tcfg._registry.registry",
    "PluginRecord": "tcfg._registry.registry",
    "TargetKind": "tcfg._model.kind",
    "GenericFunc": "tcfg._services.dispatch",
    "generic_func": "tcfg._services.dispatch",
    "CompilationConfig": "tcfg._services.config",
    "TuningRecord": "tcfg._services.tuning",
    "from_tvm": "tcfg._services.from_tvm",
    "pick": "tcfg._services.pick",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tcfg' has no attribute {name!r}")
    __import__(module)
    value = getattr(sys.modules[module], name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public API only (what ``tcfg.<TAB>`` completes): ``__all__``, the version and the public modules."""
    return sorted([*__all__, "__version__", "cli", "hookspecs", "plugin", "testing"])


def _wire() -> Registry:
    """The process-wide registry, on the first call: imports the registry and wires it in directly.

    Later calls of ``view.default_registry()`` go straight to the registry module's function.
    """
    from tcfg._registry.registry import default_registry

    view.install(default_registry)
    return default_registry()


def _default_registry() -> Registry:
    from tcfg._registry.registry import default_registry

    return default_registry()


def _to_tvm(target: Target) -> dict[str, Any]:
    from tcfg._services.to_tvm import to_tvm

    return to_tvm(target)


def _marshmallow_schema(kind: TargetKind, registry: RegistryView) -> type[Any]:
    from tcfg._services.marshmallow import marshmallow_schema

    return marshmallow_schema(kind, registry)


# The composition root's injection points: what the model reaches above itself.
view.install(_wire)
view.install_service("to_tvm", _to_tvm)
view.install_service("marshmallow_schema", _marshmallow_schema)


def list_kinds() -> list[str]:
    """The names of all registered kinds, sorted."""
    return _default_registry().list_kinds()


def get_kind(name: str) -> TargetKind:
    """The kind ``name``; :class:`UnknownKindError` lists the closest names."""
    return _default_registry().get_kind(name)


def list_tags(prefix: str | None = None, aliases: bool = False) -> list[str]:
    """The names of all registered tags (starting with ``prefix``), sorted; their aliases too if ``aliases``."""
    return _default_registry().list_tags(prefix, aliases)


def get_tag(name: str) -> dict[str, Any]:
    """The config of tag ``name`` (an alias, or ``NAME:VARIANT``); :class:`UnknownTagError` says why not."""
    return _default_registry().get_tag(name)


def register_tag(
    name: str,
    config: Any,
    override: bool = False,
    *,
    aliases: Sequence[str] = (),
    variants: Mapping[str, Any] | None = None,
) -> None:
    """Register tag ``name`` as ``config`` (with its ``aliases`` and ``variants``), validated before it is stored."""
    _default_registry().register_tag(name, config, override, aliases=aliases, variants=variants)


def plugins() -> list[PluginRecord]:
    """One record per discovered plugin: name, distribution, version, status, error, registrations."""
    return _default_registry().plugins()


def detect(sources: Mapping[str, str | Sequence[str]] | None = None) -> list[Target]:
    """Targets for this machine's devices, or for the machine that ``sources`` records.

    ``sources`` maps a recorded source's name (``"cpuinfo"``, ``"nvidia-smi"``,
    ``"rocminfo"``, ``"vulkaninfo"``: ``tcfg.plugin.DETECT_SOURCES``) to its text; see
    :meth:`Registry.detect`.
    """
    return _default_registry().detect(sources)
