"""Hook markers and hook collection in pluggy's format, without importing pluggy.

``hookspec`` and ``hookimpl`` mark functions exactly as ``pluggy.HookspecMarker("tcfg")``
and ``pluggy.HookimplMarker("tcfg")`` do (the attributes ``tcfg_spec`` and ``tcfg_impl``
with pluggy's option dicts), so a plugin marked with either is valid for both, and a
``pluggy.PluginManager("tcfg")`` accepts :mod:`tcfg.hookspecs` and every tcfg plugin.
The registry collects and calls implementations itself (:func:`collect`): importing
pluggy costs a fresh process about 18 ms (most of it ``inspect``), more than the rest of
tcfg's start-up together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, NamedTuple, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["HookImpl", "argnames", "collect", "spec_table"]

PROJECT = "tcfg"
_SPEC = f"{PROJECT}_spec"
_IMPL = f"{PROJECT}_impl"


class HookImpl(NamedTuple):
    """One marked implementation: the hook it implements, the function, and its place in the order."""

    hook: str
    function: Callable[..., Any]
    tryfirst: bool
    trylast: bool


def argnames(function: Callable[..., Any]) -> tuple[str, ...] | None:
    """The names of ``function``'s required arguments (``self`` of a bound method aside), or None if unknown.

    As pluggy counts them: arguments with defaults are not passed and do not count.
    """
    func = getattr(function, "__func__", function)
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    names = code.co_varnames[: code.co_argcount]
    defaults = getattr(func, "__defaults__", None) or ()
    if defaults:
        names = names[: -len(defaults)]
    if func is not function:  # a bound method: its first argument is bound
        names = names[1:]
    return tuple(names)


def spec_table(module: ModuleType) -> dict[str, tuple[str, ...]]:
    """The hooks ``module`` specifies (functions marked with :func:`hookspec`), with their argument names."""
    table: dict[str, tuple[str, ...]] = {}
    for name, value in vars(module).items():
        if callable(value) and isinstance(getattr(value, _SPEC, None), dict):
            table[name] = argnames(value) or ()
    return table


def collect(plugin: object, specs: Mapping[str, tuple[str, ...]]) -> list[HookImpl]:
    """The marked hook implementations of ``plugin`` (a module or object), checked against ``specs``.

    Raises ``ValueError`` naming the function for an implementation of no hook in
    ``specs`` (unless marked ``optionalhook``), a hook wrapper (tcfg calls no wrappers),
    or one asking for arguments its hook does not pass.
    """
    found: list[HookImpl] = []
    for attr in sorted(dir(plugin)):
        try:
            value = getattr(plugin, attr)
        except Exception:  # a property of an object plugin that fails: not a hook
            continue
        opts = getattr(value, _IMPL, None) if callable(value) else None
        if not isinstance(opts, dict):
            continue
        hook = opts.get("specname") or attr
        if hook not in specs:
            if opts.get("optionalhook"):
                continue
            raise ValueError(f"{attr} implements {hook!r}, which is not a tcfg hook; the hooks are {sorted(specs)}")
        if opts.get("wrapper") or opts.get("hookwrapper"):
            raise ValueError(f"{attr} is a hook wrapper; tcfg calls plain hook implementations only")
        wanted = argnames(value)
        if wanted is None:
            raise ValueError(f"{attr} is not a Python function, so its arguments cannot be checked")
        extra = [name for name in wanted if name not in specs[hook]]
        if extra:
            raise ValueError(f"{attr} asks for {extra}, which {hook} does not pass (it passes {list(specs[hook])})")
        found.append(HookImpl(hook, value, bool(opts.get("tryfirst")), bool(opts.get("trylast"))))
    return found
