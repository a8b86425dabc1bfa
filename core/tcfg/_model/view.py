"""How the model sees a registry, and the composition root's injection points.

The model (``Target(spec)``, ``TargetKind.schema()``, the CPU parser) needs a registry,
and some of its methods (``Target.to_tvm()``, ``TargetKind.schema()``) are carried out
by services above it. Importing upwards would make a cycle, so:

* :class:`RegistryView` names the few members of a registry that the model uses; the
  model is typed against it, never against the concrete ``tcfg.Registry``;
* the package's ``__init__`` (the composition root, which runs before any submodule)
  installs the default-registry provider (:func:`install`) and the services
  (:func:`install_service`) here once, and the model calls :func:`default_registry`
  and :func:`service`. Nothing else is ever installed or patched.

Types that live above this module (``Target``, ``Codegen``, ``CpuParser``,
``Component``) appear as ``Any`` here: naming them would close an import circle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tcfg._model.features import FeatureIndex

__all__ = ["RegistryView", "default_registry", "install", "install_service", "provider", "service"]


class RegistryView(Protocol):
    """The members of a registry the model uses; ``tcfg.Registry`` is one."""

    @property
    def features(self) -> FeatureIndex:
        """Every declared feature name and alias."""

    def target(self, spec: Any, host: Any = None) -> Any:
        """The ``Target`` for ``spec`` (with ``host``)."""

    def nested(self, spec: Any) -> Any:
        """The ``Target`` for ``spec`` as an attribute value one level down."""

    def with_attrs(self, target: Any, changes: Mapping[str, Any]) -> Any:
        """``target`` with some configured attributes replaced (None removes one)."""

    def nested_context(self, depth: int) -> Any:
        """The ``BuildContext`` for attribute values of a target at nesting ``depth``."""

    def owner(self, space: str, name: str) -> str:
        """The plugin that registered ``name`` in ``space`` (``kind``)."""

    def codegen(self, target: Any) -> Any:
        """The ``Codegen`` the first willing plugin gives for ``target``."""

    def cpu_parsers(self, arch: str | None = None) -> Sequence[Any]:
        """The registered ``CpuParser``s, in plugin order (given ``arch``: at least those claiming it)."""

    def unclaimed_arch(self, arch: str, triple: str) -> None:
        """Say that no installed CPU parser claims ``arch`` (if a known plugin would)."""

    def components(self, role: Any) -> Mapping[str, Any]:
        """The registered executors or runtimes (``Component``) by name."""


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
