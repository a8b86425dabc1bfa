"""The one bounded cache type of the core: a dict that is cleared whole when it is full."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeVar

    K = TypeVar("K")
    V = TypeVar("V")

__all__ = ["Memo"]


class Memo(dict["K", "V"]):  # generic in K and V (quoted: the type variables exist for the type checker only)
    """A bounded memo for pure computations: a dict, cleared whole when full.

    Read it with ``get`` (a plain dict lookup, the fast path); store with :meth:`put`.
    Clearing whole instead of evicting one entry keeps a store as cheap as a dict
    assignment; the caches it serves hold results that are cheap to make again.
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def put(self, key: K, value: V) -> None:
        """Store ``value`` for ``key``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
