"""The base of the core's immutable records (kinds, compilers, libraries, components).

What ``@dataclass(frozen=True)`` would give, written once: equality, hashing and a
repr over the fields a subclass lists in ``_fields``, and no assignment after
``__init__`` (which sets its attributes with :meth:`Record._set`). The core does not
use :mod:`dataclasses` on its start-up path because importing it imports
:mod:`inspect`, which costs a fresh process several milliseconds.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar


__all__ = ["Record"]


class Record:
    """An immutable record compared, hashed and shown by the attributes named in ``_fields``."""

    _fields: ClassVar[tuple[str, ...]] = ()

    def _set(self, **values: Any) -> None:
        """Set attributes during ``__init__`` (records refuse assignment afterwards)."""
        for name, value in values.items():  # one by one: the interpreter reads such attributes fastest
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to {name!r}: a {type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete {name!r}: a {type(self).__name__} is immutable")
