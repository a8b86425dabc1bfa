"""How the model sees a registry, and the composition root's injection points.

The model (``Target(spec)``, ``TargetKind.schema()``, the CPU parser) needs a registry,
and some of its methods (``Target.to_tvm()``, ``TargetKind.schema()``) are carried out
by services above it. Importing upwards would make a cycle, so:

* :class:`~tcfg._model.registry_view.RegistryView` names the few members of a registry
  that the model uses; the model is typed against it, never against the concrete
  ``tcfg.Registry``;
* the package's ``__init__`` (the composition root, which runs before any submodule)
  installs the default-registry provider (:func:`install`) and the services
  (:func:`install_service`) here once, and the model calls :func:`default_registry`
  and :func:`service`. Nothing else is ever installed or patched.

``import tcfg`` loads this module, so it imports nothing, :mod:`typing` included.
"""

from __future__ import annotations

#: ``typing.TYPE_CHECKING`` without importing :mod:`typing`, which ``import tcfg`` must not
#: pay for (docs/performance.md); type checkers treat any ``TYPE_CHECKING`` name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from tcfg._model.registry_view import RegistryView

__all__ = ["default_registry", "install", "install_service", "provider", "service"]


def _unwired() -> RegistryView:
    raise RuntimeError("tcfg is not wired: import the tcfg package, not its private modules alone")


#: The function that returns the process-wide registry: read it as ``view.provider``
#: at each call (``Target()`` does, to save a call level), since :func:`install` replaces it.
provider: Callable[[], RegistryView] = _unwired

_services: dict[str, Callable[..., Any]] = {}


def install(new: Callable[[], RegistryView]) -> None:
    """Set the function that returns the process-wide registry (the composition root does)."""
    global provider
    provider = new


def default_registry() -> RegistryView:
    """The process-wide registry, from the provider :func:`install` set."""
    return provider()


def install_service(name: str, function: Callable[..., Any]) -> None:
    """Make ``function`` the service ``name`` (the composition root does, once per name)."""
    _services[name] = function


def service(name: str) -> Callable[..., Any]:
    """The service ``name`` the composition root installed (``to_tvm``, ``marshmallow_schema``)."""
    try:
        return _services[name]
    except KeyError:
        raise RuntimeError(f"tcfg is not wired: no service {name!r}; import the tcfg package") from None
