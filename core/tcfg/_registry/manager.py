"""The one module that knows pluggy: tcfg's :class:`pluggy.PluginManager` and how hooks are called.

tcfg is stricter than pluggy where a failure must have an owner:

* a plugin implementing a name that is no tcfg hook (without ``optionalhook``), a hook
  wrapper, or an implementation asking for an argument its hook does not pass is
  refused, by name (:class:`InvalidPlugin`), and nothing of it stays registered;
* hooks are called one plugin at a time (:meth:`Manager.call`), through pluggy (so
  ``TCFG_TRACE_PLUGINS=1`` traces every call), in pluggy's order
  (:meth:`Manager.implementers`), which is made the plugins' rank order whatever the
  order they were loaded in: the answer of a lazily loaded registry equals the answer
  of one that loaded everything.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import pluggy

from tcfg import hookspecs

__all__ = ["InvalidPlugin", "Manager"]

PROJECT = "tcfg"


class InvalidPlugin(Exception):
    """A plugin's hook implementations are invalid; the message names the function and why."""


class Manager:
    """A ``pluggy.PluginManager("tcfg")`` holding the loaded plugins, each under its name and rank.

    ``trace`` (``TCFG_TRACE_PLUGINS=1``) writes each hook call and its result to stderr.
    """

    def __init__(self, trace: bool = False) -> None:
        self._pm = pluggy.PluginManager(PROJECT)
        self._pm.add_hookspecs(hookspecs)
        self._ranks: dict[str, int] = {}
        self._callers: dict[tuple[str, str], Any] = {}
        if trace:
            self._pm.add_hookcall_monitoring(_before, _after)

    def block(self, name: str) -> None:
        """Never register a plugin named ``name`` (``TCFG_DISABLED_PLUGINS``)."""
        self._pm.set_blocked(name)

    def add(self, name: str, plugin: object, rank: int) -> None:
        """Register ``plugin`` as ``name``, checked strictly, called in ``rank`` order among the others.

        Raises :class:`InvalidPlugin` (with nothing registered) when pluggy refuses it or
        tcfg's stricter checks do.
        """
        later = sorted((r, n) for n, r in self._ranks.items() if r > rank)
        held = [(n, self._pm.unregister(name=n)) for _, n in later]  # re-registered after it: pluggy's order is LIFO
        try:
            self._register(name, plugin)
            self._ranks[name] = rank
        finally:
            for other, obj in held:
                self._pm.register(obj, name=other)
            self._callers.clear()

    def _register(self, name: str, plugin: object) -> None:
        for other, held in self._pm.list_name_plugin():
            if isinstance(held, _Handle) and held.tcfg_plugin_object is plugin:
                raise InvalidPlugin(f"the same plugin object is already registered, as {other!r}")
        try:
            registered = self._pm.register(self._handle(plugin), name=name)
        except pluggy.PluginValidationError as exc:
            lines = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
            raise InvalidPlugin(f"invalid hook implementation: {lines}") from None
        except ValueError as exc:  # a name or object already registered
            raise InvalidPlugin(str(exc)) from None
        except Exception as exc:  # reading the plugin's attributes raised
            raise InvalidPlugin(f"its hooks could not be read: {type(exc).__name__}: {exc}") from None
        if registered is None:
            raise InvalidPlugin(f"the plugin name {name!r} is blocked")
        try:
            self._check(name)
        except InvalidPlugin:
            self._pm.unregister(name=name)
            raise

    def _handle(self, plugin: object) -> _Handle:
        """``plugin``'s hook implementations (as pluggy finds them, without running properties) on a handle."""
        handle = _Handle(plugin)
        for attr in dir(plugin):
            if self._pm.parse_hookimpl_opts(plugin, attr) is not None:
                setattr(handle, attr, getattr(plugin, attr))
        return handle

    def _check(self, name: str) -> None:
        """tcfg's rules beyond pluggy's: only tcfg hooks, no wrappers."""
        plugin = self._pm.get_plugin(name)
        for caller in self._pm.get_hookcallers(plugin) or ():
            for impl in caller.get_hookimpls():
                if impl.plugin_name != name:
                    continue
                function = getattr(impl.function, "__name__", repr(impl.function))
                if caller.spec is None and not impl.optionalhook:
                    raise InvalidPlugin(
                        f"{function} implements {caller.name!r}, which is not a tcfg hook; "
                        f"the hooks are {sorted(hook_names())}"
                    )
                if impl.hookwrapper or impl.wrapper:
                    raise InvalidPlugin(f"{function} is a hook wrapper; tcfg calls plain hook implementations only")

    def remove(self, name: str) -> None:
        """Unregister the plugin ``name`` (if registered): none of its hooks is called again."""
        if self._ranks.pop(name, None) is not None:
            self._pm.unregister(name=name)
            self._callers.clear()

    def implements(self, name: str, hook: str) -> bool:
        """Whether the registered plugin ``name`` implements ``hook``."""
        return any(impl.plugin_name == name for impl in getattr(self._pm.hook, hook).get_hookimpls())

    def implementers(self, hook: str, taking: str | None = None) -> list[str]:
        """The registered plugins implementing ``hook``, in pluggy's calling order (each once); only
        those whose implementation names the argument ``taking``, if given."""
        impls = reversed(getattr(self._pm.hook, hook).get_hookimpls())
        if taking is not None:
            impls = (impl for impl in impls if taking in impl.argnames)
        return list(dict.fromkeys(impl.plugin_name for impl in impls))

    def call(self, name: str, hook: str, **kwargs: Any) -> list[Any]:
        """Call plugin ``name``'s implementations of ``hook`` alone; their results that are not None.

        Exceptions pass through: the caller decides whose failure it is.
        """
        caller = self._callers.get((name, hook))
        if caller is None:
            others = [obj for other, obj in self._pm.list_name_plugin() if other != name and obj is not None]
            caller = self._callers[(name, hook)] = self._pm.subset_hook_caller(hook, remove_plugins=others)
        result = caller(**kwargs)
        if caller.spec is not None and caller.spec.opts.get("firstresult"):
            return [] if result is None else [result]
        found: list[Any] = result
        return found


class _Handle:
    """A plugin as pluggy holds it: its hook implementations, hashable by identity (pluggy keeps
    plugins in sets, and a plugin object need not be hashable)."""

    def __init__(self, plugin: object) -> None:
        self.tcfg_plugin_object = plugin

    def __dir__(self) -> list[str]:
        """The hook implementations only: what pluggy looks through when the handle is registered."""
        return [name for name in vars(self) if name != "tcfg_plugin_object"]

    def __repr__(self) -> str:
        return repr(self.tcfg_plugin_object)


def hook_names() -> list[str]:
    """Every hook tcfg specifies."""
    return [name for name in vars(hookspecs) if name.startswith("tcfg_") and callable(getattr(hookspecs, name))]


def _before(hook: str, impls: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
    names = ", ".join(impl.plugin_name for impl in impls)
    print(f"tcfg: {hook} of {names or 'no plugin'} ({', '.join(sorted(kwargs))})", file=sys.stderr)


def _after(outcome: Any, hook: str, impls: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
    exception = outcome.exception
    shown = f"raised {type(exception).__name__}: {exception}" if exception else f"-> {_short(outcome.get_result())}"
    print(f"tcfg: {hook} {shown}", file=sys.stderr)


def _short(value: object, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
