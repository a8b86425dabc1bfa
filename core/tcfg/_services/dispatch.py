"""``generic_func``: functions that dispatch on a target's keys.

:class:`KeyedImpls` is the one table of implementations by target key; tcfg's
:class:`GenericFunc` and TVM's generic functions (``tcfg.compat.tvm.generic``) are views of it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from tcfg._base.errors import TargetError
from tcfg._model.target import Target

__all__ = ["GenericFunc", "KeyedImpls", "generic_func"]

R = TypeVar("R")


class KeyedImpls(Generic[R]):
    """Implementations by target key, for the function ``owner`` names (in errors).

    ``add`` refuses a key that is not a non-empty string, a function that is not
    callable, and a key already taken unless ``override`` (the error names the option as
    the caller spells it, ``flag``); ``pick`` is the implementation of the first
    of a target's keys that has one. ``impls`` is the table itself (TVM's ``dispatch_dict``).
    """

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.impls: dict[str, Callable[..., R]] = {}
        self._lock = threading.Lock()

    def keys_of(self, key_list: object) -> list[str]:
        """``key_list`` (one key or several) as a list, or a TargetError naming the bad key."""
        keys = [key_list] if isinstance(key_list, str) else key_list
        if not isinstance(keys, Iterable):
            raise TargetError(f"{self.owner}: key {key_list!r} must be a target key (str) or a list of them")
        found = list(keys)
        for key in found:
            if not isinstance(key, str) or not key:
                raise TargetError(
                    f"{self.owner}: key {key!r} in {key_list!r} must be a non-empty target key "
                    "such as 'cuda', 'gpu', 'cpu'"
                )
        return found

    def function(self, func: object) -> Callable[..., R]:
        """``func`` if it can be called, else a TargetError naming it."""
        if not callable(func):
            raise TargetError(f"{self.owner}: {func!r} is not a function")
        return func

    def add(self, func: object, key_list: object, override: bool = False, flag: str = "override") -> None:
        """Run ``func`` for targets with any key of ``key_list``; a taken key needs ``override``."""
        function, keys = self.function(func), self.keys_of(key_list)
        with self._lock:
            taken = [key for key in keys if key in self.impls]
            if taken and not override:
                raise TargetError(
                    f"{self.owner}: key {taken[0]!r} already has an implementation "
                    f"(registered keys: {', '.join(sorted(self.impls))}); "
                    f"pass {flag}=True to replace it"
                )
            self.impls.update(dict.fromkeys(keys, function))

    def pick(self, target: Target | None) -> Callable[..., R] | None:
        """The implementation of ``target``'s first key that has one (None: no target, or no such key)."""
        if target is not None:
            for key in target.keys:
                impl = self.impls.get(key)
                if impl is not None:
                    return impl
        return None


class GenericFunc(Generic[R]):
    """A function with implementations per target key and a default.

    A call dispatches on the first :class:`Target` among its arguments, else on
    ``Target.current()``: the first of the target's keys that has an implementation
    wins; with none (or no target), the default runs.
    """

    def __init__(self, default: Callable[..., R]) -> None:
        self.default = default
        self._impls: KeyedImpls[R] = KeyedImpls(f"generic function {getattr(default, '__name__', default)!r}")
        functools.update_wrapper(self, default)

    def register(
        self, keys: str | Iterable[str], *, override: bool = False
    ) -> Callable[[Callable[..., R]], Callable[..., R]]:
        """Decorator: use the decorated function for targets with any of ``keys``."""
        names = self._impls.keys_of(keys)

        def decorate(function: Callable[..., R]) -> Callable[..., R]:
            self._impls.add(function, names, override)
            return function

        return decorate

    def dispatch(self, target: Target | None) -> Callable[..., R]:
        """The implementation a call with ``target`` would run."""
        return self._impls.pick(target) or self.default

    def __call__(self, *args: Any, **kwargs: Any) -> R:
        target = next((a for a in (*args, *kwargs.values()) if isinstance(a, Target)), None)
        return self.dispatch(target if target is not None else Target.current())(*args, **kwargs)


def generic_func(default: Callable[..., R]) -> GenericFunc[R]:
    """Decorator: make ``default`` a :class:`GenericFunc` that dispatches by target keys."""
    return GenericFunc(default)
