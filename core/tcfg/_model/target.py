"""The :class:`Target`: an immutable, hashable, value-compared description of what to compile for."""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextvars import ContextVar
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NoReturn

from tcfg._base.errors import TargetError, bounded_repr, shorten
from tcfg._model import view
from tcfg._model.features import Features, FeatureValue
from tcfg._model.kind import attr_of, attr_type_failed
from tcfg._model.portable import Answers, answers

if TYPE_CHECKING:
    from tcfg._model.codegen import Codegen
    from tcfg._model.kind import Compiler, TargetKind
    from tcfg._model.registry_view import RegistryView

__all__ = ["Target"]

_PLAIN = (str, int, bool)  # attribute values that are their own JSON form
#: The targets of the enclosing ``with target:`` blocks, innermost last. A context
#: variable, so that threads and asyncio tasks each see their own.
_current: ContextVar[tuple[Target, ...]] = ContextVar("tcfg_current_target", default=())


class Target:
    """What to compile for: a kind, its attributes, keys, features and an optional host.

    ``Target(spec, host=None, *, registry=None)`` accepts the string grammar
    (``"llvm -mcpu=cortex-a72"``), JSON text, a dict, a tag name (with overrides),
    or another Target. Equal targets print the same ``str()``, ``to_json()`` and
    ``export()``, and each rebuilds an equal target.

    ``with target:`` makes it :meth:`current` in this thread or asyncio task until the
    block ends. The open blocks are always the ``with`` statements still running: leaving
    one closes any block opened inside it and left open (a generator suspended inside its
    own ``with``), with a :class:`tcfg.TargetError` saying so, so that :meth:`current` is
    never a target whose block has ended.
    """

    __slots__ = (
        "_attrs",
        "_compiler",
        "_config",
        "_defaults",
        "_feature_values",
        "_features",
        "_given",
        "_hash",
        "_json",
        "_keys",
        "_kind",
        "_registry",
        "_str",
        "_why",
    )

    # Immutable by construction: every public attribute is a read-only property over a
    # private slot, and a slotted class accepts no other attributes. (Overriding
    # ``__setattr__`` instead would make every slot write in :meth:`_make` a Python
    # call, about 1 µs per target.)
    _kind: TargetKind
    _compiler: Compiler | None
    _defaults: Mapping[str, Any]  # shared with other targets: never written
    _given: dict[str, Any]
    _attrs: Mapping[str, Any] | None  # the two merged, on first use
    _config: dict[str, Any]
    _keys: tuple[str, ...]
    _feature_values: Mapping[str, FeatureValue]
    _why: Mapping[str, str]
    _features: Features | None
    _registry: RegistryView
    _hash: int | None
    _str: str | None
    _json: str | None

    def __new__(cls, spec: Any, host: Any = None, *, registry: RegistryView | None = None) -> Target:
        made: Target = (registry or view.provider()).target(spec, host)
        return made

    @classmethod
    def _make(
        cls,
        kind: TargetKind,
        compiler: Compiler | None,
        defaults: Mapping[str, Any],
        given: dict[str, Any],  # what overrides the defaults: given, after parsing
        config: dict[str, Any],  # in canonical order: the kind's attributes, then the compiler's
        keys: tuple[str, ...],
        features: Mapping[str, FeatureValue],
        why: Mapping[str, str],
        registry: RegistryView,
    ) -> Target:
        self = object.__new__(cls)
        self._kind = kind
        self._compiler = compiler
        self._defaults = defaults
        self._given = given
        self._config = config
        self._keys = keys
        self._feature_values = features
        self._why = why
        self._registry = registry
        self._attrs = self._features = self._hash = self._str = self._json = None
        return self

    # -- reading ---------------------------------------------------------------------

    @property
    def kind(self) -> TargetKind:
        """The target's kind."""
        return self._kind

    @property
    def attrs(self) -> Mapping[str, Any]:
        """The attributes: those given (after parsing) plus the kind's defaults; read-only."""
        attrs = self._attrs
        if attrs is None:
            attrs = self._attrs = MappingProxyType({**self._defaults, **self._given})
        return attrs

    def _get(self, name: str) -> Any:
        """``attrs.get(name)``, without merging the attributes."""
        given = self._given
        return given[name] if name in given else self._defaults.get(name)

    @property
    def config(self) -> Mapping[str, Any]:
        """The configured attributes: those that differ from the defaults, in canonical order."""
        return MappingProxyType(self._config)

    @property
    def keys(self) -> tuple[str, ...]:
        """Dispatch keys: the user's, then the parsers', then the kind's defaults."""
        return self._keys

    @property
    def features(self) -> Features:
        """The derived features (``target.features.neon``)."""
        features = self._features
        if features is None:
            features = Features(self._feature_values, self._why, self._registry.features, self._portable)
            self._features = features
        return features

    def _portable(self) -> Answers:
        """The portable vocabulary's answers for this target, from its kind's ``portable`` function."""
        kind = self._kind
        return answers(self, kind.portable, f"the kind {kind.name!r}", kind.features)

    @property
    def host(self) -> Target | None:
        """The host target, or None."""
        host: Target | None = self._get("host")
        return host

    @property
    def tag(self) -> str | None:
        """The tag this target was built from, or None."""
        tag: str | None = self._get("tag")
        return tag

    @property
    def registry(self) -> RegistryView:
        """The registry this target was built with."""
        return self._registry

    # -- printing --------------------------------------------------------------------

    def _attr_type(self, name: str) -> Any:
        attr = attr_of(self._kind, self._compiler, name)
        assert attr is not None  # the builder checked every configured name
        return attr.type

    def _type_failed(self, exc: BaseException, name: str, method: str) -> NoReturn:
        """Raise the error for the type of attribute ``name`` whose ``method`` raised ``exc`` printing this target."""
        shown = f"{self._kind.name} {shorten(self._config)}"  # not str(self): that may be what failed
        attr_type_failed(exc, self._registry, self._kind, self._compiler, name, method, shown)

    def __str__(self) -> str:
        text = self._str
        if text is None:
            parts = [self._kind.name]
            for name, value in self._config.items():
                if value is True:
                    parts.append(f"-{name}")
                elif value is False:
                    parts.append(f"-{name}=false")
                else:
                    try:
                        parts.append(f"-{name}={self._attr_type(name).to_text(value)}")
                    except BaseException as exc:
                        self._type_failed(exc, name, "to_text")
            text = " ".join(parts)
            self._str = text
        return text

    def export(self) -> dict[str, Any]:
        """The canonical configuration as JSON-compatible data (no derived facts)."""
        out: dict[str, Any] = {"kind": self._kind.name}
        for name, value in self._config.items():
            try:
                out[name] = value if type(value) in _PLAIN else self._attr_type(name).to_json(value)
            except BaseException as exc:
                self._type_failed(exc, name, "to_json")
        return out

    def to_json(self) -> str:
        """``export()`` as canonical JSON text."""
        text = self._json
        if text is None:
            text = json.dumps(self.export(), ensure_ascii=False)
            self._json = text
        return text

    def to_tvm(self) -> dict[str, Any]:
        """A dict that ``tvm.target.Target`` of Apache TVM 0.27 accepts, describing the same device.

        Attributes TVM's kind lacks are dropped; ``tcfg.from_tvm`` reads TVM's targets back.
        """
        tvm: dict[str, Any] = view.service("to_tvm")(self)
        return tvm

    def __repr__(self) -> str:
        return f"Target({str(self)!r})"

    # -- identity --------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Target):
            return NotImplemented
        return self._kind.name == other._kind.name and self._config == other._config

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash((self._kind.name, frozenset(self._config.items())))
            self._hash = value
        return value

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled as its JSON text, rebuilt with the process-wide registry when unpickled.

        A target of another registry is refused (:class:`tcfg.TargetError`): the process-wide
        registry may hold other plugins, and would rebuild it with other features.
        """
        if self._registry is not view.default_registry():
            raise TargetError(
                f"target {str(self)!r} was built with a registry other than the process-wide one, so it "
                "cannot be pickled (unpickling rebuilds with the process-wide registry); pickle target.to_json() "
                "and rebuild it with tcfg.Target(text, registry=...)"
            )
        return (_rebuild, (self.to_json(),))

    def __copy__(self) -> Target:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Target:
        return self

    # -- deriving --------------------------------------------------------------------

    def with_host(self, host: Any) -> Target:
        """This target with ``host`` (a spec or Target) as its host."""
        registry = self._registry
        made: Target = registry.with_attrs(self, {"host": registry.nested(host)})
        return made

    def without_host(self) -> Target:
        """This target without a host."""
        if self.host is None:
            return self
        made: Target = self._registry.with_attrs(self, {"host": None})
        return made

    def is_specialization_of(self, other: Target) -> bool:
        """Same kind, and every attribute ``other`` configures has the same value here."""
        if not isinstance(other, Target):
            raise TargetError(
                f"is_specialization_of needs a Target, not {type(other).__name__} {bounded_repr(other)}; "
                "make one with tcfg.Target(...)"
            )
        if self._kind.name != other._kind.name:
            return False
        attrs = self.attrs
        missing = object()
        return all(attrs.get(k, missing) == v for k, v in other._config.items())

    def runs_on(self, machine: Target) -> bool:
        """Whether code built for this target runs on ``machine``, a Target describing a real device.

        The contract's rule, answered by the plugin owning this target's kind or CPU
        architecture: CPUs need the same architecture and ABI, and every feature this
        target uses present in ``machine``; CUDA follows the cubin and PTX rules (``sm_90a``
        code runs only on sm_90; PTX is JIT-compiled forward); ROCm follows LLVM's target-ID
        rule (same gfx processor; ``xnack``/``sramecc`` given in the code must be given alike in
        ``machine``); a composite runs on a composite each of whose devices runs one of its
        devices. Devices of different device types never run each other's code, and this
        target's host, if any, must run on ``machine``'s host when ``machine`` has one.
        A ``machine`` that is not a Target, or a kind no installed plugin answers for, is a
        :class:`tcfg.TargetError`.
        """
        answer: bool = self._registry.runs_on(self, machine)
        return answer

    def codegen(self) -> Codegen:
        """The codegen configuration that the plugin owning this kind provides."""
        codegen: Codegen = self._registry.codegen(self)
        return codegen

    # -- context ---------------------------------------------------------------------

    def __enter__(self) -> Target:
        """Open a ``with target:`` block: :meth:`current` is this target until the block closes."""
        _current.set((*_current.get(), self))
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the innermost open block of this target, and with it any block opened inside it.

        The rule: the open blocks are always the ``with`` statements still running in this
        thread or asyncio task, innermost last. Blocks close innermost first; one left open
        inside another (entered by hand, or by a generator suspended inside the block) is
        closed with it, and the :class:`tcfg.TargetError` that says so is raised after the
        blocks are closed, so that :meth:`current` is never left at a block that has ended.
        Closing a target with no open block raises that error and changes nothing.
        """
        stack = _current.get()
        if stack and stack[-1] is self:
            _current.set(stack[:-1])
            return
        index = next((i for i in range(len(stack) - 1, -1, -1) if stack[i] is self), None)
        if index is None:
            inner = f"the innermost is {str(stack[-1])!r}" if stack else "no block is open"
            raise TargetError(
                f"leaving the 'with' block of target {str(self)!r}, which has no open block: {inner} "
                "(nothing was closed)"
            )
        left = stack[index + 1 :]
        _current.set(stack[:index])
        raise TargetError(
            f"leaving the 'with' block of target {str(self)!r} out of order: the innermost is {str(stack[-1])!r}; "
            f"{len(left)} block(s) opened inside it and left open are closed with it "
            "(blocks must close innermost first)"
        )

    @staticmethod
    def current() -> Target | None:
        """The target of the innermost open ``with target:`` block in this thread or asyncio task, or None.

        Each thread and each asyncio task has its own blocks (a task starts with those open
        where it was created); see :meth:`__exit__` for blocks closed out of order.
        """
        stack = _current.get()
        return stack[-1] if stack else None


def _rebuild(text: str) -> Target:
    return Target(text)
