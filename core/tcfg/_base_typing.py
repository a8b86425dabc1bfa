"""What the core needs of :mod:`typing` at run time, without importing :mod:`typing`.

Importing ``typing`` costs a fresh process about 3 ms, and each ``typing.NamedTuple``
class about 0.1 ms more (it compiles every field's annotation): together a fifth of
the start-up budget (see docs/performance.md). So the modules on the start-up path
import the real names for the type checker only, and these at run time::

    TYPE_CHECKING = False
    if TYPE_CHECKING:
        from typing import NamedTuple
    else:
        from tcfg._base_typing import NamedTuple

(mypy treats a module's own ``TYPE_CHECKING`` as true.) ``tests/test_typing_free.py``
checks that these behave as :mod:`typing`'s do and that the start-up path never imports
:mod:`typing`.
"""

from __future__ import annotations

import collections

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["NamedTuple", "Protocol", "overload"]

#: ``collections.namedtuple``, called with names known only at run time (which mypy's
#: special case of it does not take).
_namedtuple: Any = collections.namedtuple
#: What a class body holds besides fields and methods (not copied to the named tuple).
_BOOKKEEPING = frozenset({"__annotations__", "__module__", "__qualname__", "__slots__", "__orig_bases__"})


class _NamedTupleMeta(type):
    """Builds a ``NamedTuple`` subclass statement into a :func:`collections.namedtuple` class."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, object]) -> type:
        if not bases:  # NamedTuple itself
            return super().__new__(mcls, name, bases, namespace)
        annotations = namespace.get("__annotations__", {})
        assert isinstance(annotations, dict)
        fields = list(annotations)
        defaults = [namespace[field] for field in fields if field in namespace]
        if defaults and any(field not in namespace for field in fields[len(fields) - len(defaults) :]):
            raise TypeError(f"{name}: a field without a default follows one with a default")
        module = namespace.get("__module__")
        cls: type = _namedtuple(name, fields, defaults=defaults, module=module if isinstance(module, str) else None)
        for key, value in namespace.items():
            if key not in _BOOKKEEPING and key not in annotations:
                setattr(cls, key, value)
        cls.__qualname__ = str(namespace.get("__qualname__", name))
        cls.__annotations__ = dict(annotations)
        return cls


class NamedTuple(metaclass=_NamedTupleMeta):
    """``class Point(NamedTuple): x: int; y: int = 0`` makes a named tuple, as ``typing.NamedTuple`` does."""


#: A protocol class needs nothing at run time: it is a plain base class there.
Protocol = object


def overload(function: object) -> object:
    """``typing.overload`` at run time: the implementation defined last replaces the overloads."""
    return function
