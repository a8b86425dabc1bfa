"""How the target builder sees a registry: :class:`Tables`, the members it reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from tcfg._model.registry_view import RegistryView

if TYPE_CHECKING:
    from tcfg._build.memo import BuildState
    from tcfg._model.kind import Compiler, Derived, DeriveRequest, Library, TargetKind

__all__ = ["Tables"]


class Tables(RegistryView, Protocol):
    """What the builder reads of a registry: its tables, lookups that load plugins, and advice.

    ``tcfg.Registry`` is one; the builder never names it.
    """

    #: The loaded kinds by name (a miss is looked up with :meth:`find_kind`).
    kinds: dict[str, TargetKind]
    #: The plugins implementing ``tcfg_derive_target``, in calling order.
    derive_hooks: list[str]
    #: What the builder remembers for this registry (the builder's own state, which the
    #: registry only holds).
    build_state: BuildState

    def find_kind(self, name: str) -> TargetKind | None:
        """The kind ``name`` (loading the plugin that declares it), or None."""

    def list_kinds(self) -> list[str]:
        """Every kind name, sorted."""

    def find_tag(self, name: str) -> Any:
        """The tag entry ``name`` resolves to (loading the tags it may be one of), or None."""

    def list_tags(self, prefix: str | None = None, aliases: bool = False) -> list[str]:
        """Every tag name (starting with ``prefix``), sorted."""

    def unknown_tag(self, name: str) -> str:
        """Why ``name`` resolves to no tag."""

    def missing_plugin(self, space: str, name: str, uninstalled_only: bool = False) -> str | None:
        """Which known plugin, not loaded here, provides ``name`` in ``space``; None if none."""

    def find_compiler(self, kind: str, name: str) -> Compiler | None:
        """The compiler ``name`` of ``kind`` (loading the plugin that declares it), or None."""

    def compilers(self, kind: str | None = None) -> dict[str, Compiler]:
        """The BYOC compilers registered for ``kind``."""

    def libraries(self, kind: str) -> Sequence[Library]:
        """The ``-libs`` libraries registered for ``kind``."""

    def call_derive_hooks(self, request: DeriveRequest) -> list[tuple[str, Derived]]:
        """What each ``tcfg_derive_target`` implementation adds for ``request``."""

    def with_attrs(self, target: Any, changes: Mapping[str, Any]) -> Any:
        """``target`` with some configured attributes replaced (None removes one)."""
