"""What became of each plugin, and how a plugin's failure is made, named and reported."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tcfg._registry.discovery import Origin

from tcfg._base.errors import PluginWarning, bounded_repr

__all__ = ["PluginFailure", "PluginRecord", "call_plugin_code", "clash", "short_repr", "type_names", "warn"]


class PluginRecord:
    """What became of one plugin: ``status`` is ``loaded``, ``failed`` or ``disabled``.

    ``error`` says why it is not loaded; ``registered`` lists what it registered, by what.
    ``distribution`` and ``version`` name where it comes from (None for an in-process
    plugin); given an ``origin`` (an installed distribution) instead, they are read from
    it when first asked for.
    """

    __slots__ = ("_distribution", "_origin", "_version", "error", "name", "registered", "status")

    def __init__(
        self,
        name: str,
        distribution: str | None,
        version: str | None,
        status: str,
        error: str | None = None,
        registered: dict[str, list[str]] | None = None,
        *,
        origin: Origin | None = None,
    ) -> None:
        self.name = name
        self._distribution = distribution
        self._version = version
        self._origin = origin
        self.status = status
        self.error = error
        self.registered: dict[str, list[str]] = {} if registered is None else registered

    def _read_origin(self) -> None:
        if self._origin is not None:
            self._distribution, self._version, self._origin = self._origin.name, self._origin.version, None

    @property
    def distribution(self) -> str | None:
        """The distribution the plugin comes from (None for an in-process plugin)."""
        self._read_origin()
        return self._distribution

    @property
    def version(self) -> str | None:
        """Its distribution's version."""
        self._read_origin()
        return self._version

    def __repr__(self) -> str:
        return (
            f"PluginRecord(name={self.name!r}, distribution={self.distribution!r}, version={self.version!r}, "
            f"status={self.status!r}, error={self.error!r}, registered={self.registered!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PluginRecord):
            return NotImplemented
        return self.to_dict() == other.to_dict() and self.registered == other.registered

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-compatible data."""
        return {
            "name": self.name,
            "distribution": self.distribution,
            "version": self.version,
            "status": self.status,
            "error": self.error,
            "registered": {k: sorted(v) for k, v in self.registered.items() if v},
        }


class PluginFailure(Exception):
    """A plugin's registration was refused; the message says why.

    ``rival`` names the plugin that already owns the name the refused plugin claims, if that
    is the reason: the loader hands the name to whichever of the two is ranked first.
    """

    def __init__(self, message: str, rival: str | None = None) -> None:
        super().__init__(message)
        self.rival = rival


def clash(newcomer: str, what: str, owner: str) -> PluginFailure:
    """The failure of a plugin that registers a name another plugin already owns.

    The rule: the first plugin to register a name owns it (the core first, then the
    plugins in order of their entry names); a newcomer claiming it fails as a whole and
    is the one named, and the owner keeps the name. The message says how to hand the
    name over, for when the owner is the impostor.
    """
    remedy = "" if owner == "core" else f"; if {owner!r} should not have it, set TCFG_DISABLED_PLUGINS={owner}"
    return PluginFailure(
        f"plugin {newcomer!r} registers {what}, which plugin {owner!r} already owns "
        f"(the first plugin to register a name keeps it{remedy})",
        rival=owner,
    )


def call_plugin_code(what: str, function: Callable[[], Any]) -> Any:
    """``function()``, a plugin's code run while loading it; anything it raises but Ctrl-C fails the plugin."""
    try:
        return function()
    except (PluginFailure, KeyboardInterrupt):
        raise
    except BaseException as exc:  # a plugin's bug, missing dependency or sys.exit() must not break the others
        raise PluginFailure(f"{what} raised {type(exc).__name__}: {exc}") from exc


def warn(message: str, stacklevel: int = 4) -> None:
    """Issue a :class:`tcfg.PluginWarning` (``warnings`` is imported only when there is one)."""
    import warnings

    warnings.warn(message, PluginWarning, stacklevel=stacklevel + 1)


def short_repr(value: object, limit: int = 80) -> str:
    """``repr(value)``, bounded and safe on any value (:func:`tcfg._base.errors.bounded_repr`), cut to ``limit``."""
    text = bounded_repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def type_names(types: Any) -> str:
    """``int or str`` for a type or a tuple of types."""
    return " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))
