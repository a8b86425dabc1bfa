"""TVM's generic functions (``tvm.target.generic_func``, ``GenericFunc``, ``get_native_generic_func``,
``override_native_generic_func``, as TVM v0.18 documents them), dispatching on the current target's keys.

The contract, TVM's (``python/tvm/target/generic_func.py`` and ``src/target/generic_func.cc``):

* a call looks at ``Target.current()`` only (not at the arguments); the first of its ``keys``
  that has an implementation runs; with no target, or no key registered, the default runs;
* ``get_native_generic_func(name)`` returns the one :class:`GenericFunc` of that name in a
  process-wide registry, creating an empty one the first time;
* ``GenericFunc.register(func, key_list, allow_override=False)`` and
  ``set_default(func, allow_override=False)`` refuse to replace an implementation unless
  ``allow_override``; ``get_packed_func()`` is what a call would run now;
* ``override_native_generic_func(name)`` decorates a default: it replaces the registry entry's
  default (always allowed) and returns a function whose ``register(key, func=None,
  override=True)`` adds implementations; keyword arguments are refused, as TVM's packed calls
  take none.
* ``generic_func(fdefault)`` is the registry-free Python form: ``register(key, func=None,
  override=False)``, ``fdefault``, ``dispatch_dict``, ``get_packed_func()``; keyword arguments
  are passed through.

Every misuse (a key that is not a non-empty string, a function that is not callable, a key
already taken, a call with nothing to run) is a :class:`tcfg.TargetError` naming the function,
the key and the keys registered.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable
from typing import Any

import tcfg
from tcfg._services.dispatch import KeyedImpls

__all__ = ["GenericFunc", "generic_func", "get_native_generic_func", "override_native_generic_func"]

Func = Callable[..., Any]


class GenericFunc:
    """TVM's native generic function: a name, a default and implementations by target key."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self._default: Func | None = None
        self._impls: KeyedImpls[Any] = KeyedImpls(f"generic function {name!r}")
        self._lock = threading.Lock()

    def set_default(self, func: Func, allow_override: bool = False) -> None:
        """Make ``func`` the default; replacing one needs ``allow_override``."""
        func = self._impls.function(func)
        with self._lock:
            if self._default is not None and not allow_override:
                raise tcfg.TargetError(
                    f"{self._impls.owner} already has a default ({self._default.__name__}); "
                    "pass allow_override=True to replace it"
                )
            self._default = func

    def register(self, func: Func, key_list: str | Iterable[str], allow_override: bool = False) -> None:
        """Run ``func`` for targets with any key of ``key_list``; a taken key needs ``allow_override``."""
        self._impls.add(func, key_list, allow_override, flag="allow_override")

    @property
    def keys(self) -> list[str]:
        """The keys that have an implementation."""
        return sorted(self._impls.impls)

    def get_packed_func(self) -> Func | None:
        """What a call would run now: the current target's first registered key's function, else the default."""
        return self._impls.pick(tcfg.Target.current()) or self._default

    def __call__(self, *args: Any) -> Any:
        func = self.get_packed_func()
        if func is None:
            now = tcfg.Target.current()
            raise tcfg.TargetError(
                f"{self._impls.owner}: no implementation for target {str(now) if now else None!r} "
                f"(its keys: {list(now.keys) if now else []}; registered keys: {self.keys}) and no default"
            )
        return func(*args)

    def __repr__(self) -> str:
        return f"GenericFunc({self.name!r}, keys={self.keys})"


_REGISTRY: dict[str, GenericFunc] = {}
_REGISTRY_LOCK = threading.Lock()


def get_native_generic_func(name: str) -> GenericFunc:
    """The process-wide generic function called ``name``, created empty the first time."""
    if not isinstance(name, str) or not name:
        raise tcfg.TargetError(f"get_native_generic_func({name!r}): the name must be a non-empty string")
    with _REGISTRY_LOCK:
        return _REGISTRY.setdefault(name, GenericFunc(name))


def _registrar(impls: KeyedImpls[Any], default_override: bool) -> Callable[..., Any]:
    """TVM's ``register(key, func=None, override=...)``: registers ``func``, or returns a decorator."""

    def register(key: str | Iterable[str], func: Func | None = None, override: bool = default_override) -> Any:
        keys = impls.keys_of(key)

        def do_register(myf: Func) -> Func:
            impls.add(myf, keys, override)
            return myf

        return do_register(func) if func is not None else do_register

    return register


def override_native_generic_func(func_name: str) -> Callable[[Func], Func]:
    """Decorator: make the decorated function the default of the registry's ``func_name``."""
    node = get_native_generic_func(func_name)

    def decorate(fdefault: Func) -> Func:
        node.set_default(fdefault, allow_override=True)

        @functools.wraps(fdefault)
        def dispatch(*args: Any, **kwargs: Any) -> Any:
            if kwargs:
                raise tcfg.TargetError(
                    f"{node._impls.owner}: keyword arguments {sorted(kwargs)} cannot be passed to a native "
                    "generic function; pass them by position"
                )
            return node(*args)

        wrapper: Any = dispatch
        wrapper.fdefault = fdefault
        wrapper.generic_func_node = node
        wrapper.register = _registrar(node._impls, True)
        return dispatch

    return decorate


def generic_func(fdefault: Func) -> Func:
    """Decorator: ``fdefault`` becomes a function that dispatches on the current target's keys."""
    impls: KeyedImpls[Any] = KeyedImpls(f"generic function {getattr(fdefault, '__name__', fdefault)!r}")
    fdefault = impls.function(fdefault)

    def get_packed_func() -> Func:
        return impls.pick(tcfg.Target.current()) or fdefault

    @functools.wraps(fdefault)
    def dispatch(*args: Any, **kwargs: Any) -> Any:
        return get_packed_func()(*args, **kwargs)

    wrapper: Any = dispatch
    wrapper.fdefault = fdefault
    wrapper.dispatch_dict = impls.impls
    wrapper.get_packed_func = get_packed_func
    wrapper.register = _registrar(impls, False)
    return dispatch
