"""``generic_func``: functions that dispatch on a target's keys."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from tcfg._base.errors import TargetError
from tcfg._model.target import Target

__all__ = ["GenericFunc", "generic_func"]

R = TypeVar("R")


class GenericFunc(Generic[R]):
    """A function with implementations per target key and a default.

    A call dispatches on the first :class:`Target` among its arguments, else on
    ``Target.current()``: the first of the target's keys that has an implementation
    wins; with none (or no target), the default runs.
    """

    def __init__(self, default: Callable[..., R]) -> None:
        self.default = default
        self._impls: dict[str, Callable[..., R]] = {}
        functools.update_wrapper(self, default)

    def register(
        self, keys: str | Iterable[str], *, override: bool = False
    ) -> Callable[[Callable[..., R]], Callable[..., R]]:
        """Decorator: use the decorated function for targets with any of ``keys``."""
        names = [keys] if isinstance(keys, str) else list(keys)

        def decorate(function: Callable[..., R]) -> Callable[..., R]:
            taken = [k for k in names if k in self._impls and not override]
            if taken:
                raise TargetError(
                    f"{self.default.__name__} already has implementations for keys {taken}; "
                    "pass override=True to replace them"
                )
            for key in names:
                self._impls[key] = function
            return function

        return decorate

    def dispatch(self, target: Target | None) -> Callable[..., R]:
        """The implementation a call with ``target`` would run."""
        if target is not None:
            for key in target.keys:
                impl = self._impls.get(key)
                if impl is not None:
                    return impl
        return self.default

    def __call__(self, *args: Any, **kwargs: Any) -> R:
        target = next((a for a in (*args, *kwargs.values()) if isinstance(a, Target)), None)
        return self.dispatch(target if target is not None else Target.current())(*args, **kwargs)


def generic_func(default: Callable[..., R]) -> GenericFunc[R]:
    """Decorator: make ``default`` a :class:`GenericFunc` that dispatches by target keys."""
    return GenericFunc(default)
