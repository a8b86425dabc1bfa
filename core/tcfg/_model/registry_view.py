"""How the model sees a registry: :class:`RegistryView`, the few registry members the model uses.

The model is typed against this Protocol, never against the concrete ``tcfg.Registry``.
It lives apart from :mod:`tcfg._model.view` (the injection slot that ``import tcfg``
loads) so that importing tcfg does not import :mod:`typing`; the model's modules name it
under ``TYPE_CHECKING``. Types that live above the model (``Target``, ``Codegen``,
``CpuParser``, ``Component``) appear as ``Any``: naming them would close an import circle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tcfg._model.features import FeatureIndex

__all__ = ["RegistryView"]


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

    def runs_on(self, code: Any, machine: Any) -> bool:
        """Whether code built for the ``Target`` ``code`` runs on ``machine``."""

    def cpu_parsers(self, arch: str | None = None) -> Sequence[Any]:
        """The registered ``CpuParser``s, in plugin order (given ``arch``: at least those claiming it)."""

    def unclaimed_arch(self, arch: str, triple: str) -> None:
        """Say that no installed CPU parser claims ``arch`` (if a known plugin would)."""

    def components(self, role: Any) -> Mapping[str, Any]:
        """The registered executors or runtimes (``Component``) by name."""
