"""``Target`` and ``TargetKind`` as TVM's Python API has them, over :class:`tcfg.Target`.

A :class:`Target` wraps one :class:`tcfg.Target` (``t.tcfg``) and answers TVM's
questions about it: ``kind``, ``keys``, ``attrs``, ``host``, ``export()``, the properties
(``mcpu``, ``model``, ``libs``, ``max_num_threads``, ...), ``current()``, the ``canon_*``
helpers and ``from_device``. Input is read as TVM reads it (:func:`tcfg.from_tvm`: classic
strings, TVM's dicts and JSON, TVM's own targets); every mistake is a :class:`tcfg.TargetError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import tcfg

__all__ = ["HostWithoutTargetError", "Target", "TargetFeatures", "TargetKind", "list_tags", "register_tag"]


class HostWithoutTargetError(tcfg.TargetError, AssertionError):
    """A host given without a target; an ``AssertionError`` too, which is what TVM raises."""


class TargetKind:
    """A kind as TVM shows it: ``name``, ``default_keys``, ``options``, ``dlpack_device_type``."""

    __slots__ = ("_kind",)

    def __init__(self, kind: tcfg.TargetKind) -> None:
        self._kind = kind

    @property
    def name(self) -> str:
        """The kind's name (``llvm``, ``cuda``, ...)."""
        return self._kind.name

    @property
    def default_keys(self) -> list[str]:
        """The dispatch keys every target of the kind has."""
        return list(self._kind.default_keys)

    @property
    def dlpack_device_type(self) -> int | None:
        """The DLPack device type code of the kind's device (``kDLCPU`` = 1, ``kDLCUDA`` = 2, ...)."""
        return self._kind.dlpack_device_type

    @property
    def default_device_type(self) -> int | None:
        """TVM 0.27's name for :attr:`dlpack_device_type`."""
        return self._kind.dlpack_device_type

    def same_as(self, other: object) -> bool:
        """Whether ``other`` is this kind (TVM compares object identity; kinds are one per name)."""
        return self == other

    @property
    def options(self) -> dict[str, str]:
        """Every attribute name of the kind, with what its values are."""
        return {name: attr.type.description for name, attr in sorted(self._kind.table.items())}

    @staticmethod
    def options_from_name(kind_name: str) -> dict[str, str]:
        """:attr:`options` of the kind ``kind_name``."""
        return TargetKind(tcfg.get_kind(kind_name)).options

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TargetKind) and other._kind == self._kind

    def __hash__(self) -> int:
        return hash(self._kind.name)

    def __repr__(self) -> str:
        return f"TargetKind({self.name!r})"


class TargetFeatures:
    """A target's features as TVM's object shows them: always there (true), read by name."""

    __slots__ = ("_features",)

    def __init__(self, features: Any) -> None:
        self._features = features

    def __getattr__(self, name: str) -> Any:
        return getattr(self._features, name)

    def __getitem__(self, name: str) -> Any:
        return self._features[name]

    def __contains__(self, name: object) -> bool:
        return name in self._features

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return repr(self._features)


def _tvm_value(value: Any) -> Any:
    """An attribute value as TVM's Python API shows it: lists for lists, wrapped targets."""
    if isinstance(value, tcfg.Target):
        return Target(value)
    if isinstance(value, tuple):
        return [_tvm_value(v) for v in value]
    return value


def _coerce(spec: Any, role: str) -> tcfg.Target:
    if isinstance(spec, Target):
        return spec.tcfg
    if isinstance(spec, tcfg.Target):
        return spec
    if isinstance(spec, (str, Mapping)) or callable(getattr(spec, "export", None)):
        return tcfg.from_tvm(str(spec) if isinstance(spec, str) else spec)
    raise tcfg.TargetError(f"{role} has to be a string, a dictionary or a Target, not {type(spec).__name__} {spec!r}")


class Target:
    """TVM's ``tvm.target.Target``: built from a string, a dict, JSON, a tag or a target, with a host.

    ``Target(target, host=None)``; ``t.tcfg`` is the :class:`tcfg.Target` it describes.
    Targets compare and hash by value.
    """

    __slots__ = ("_target",)

    def __init__(self, target: Any, host: Any = None) -> None:
        if target is None:
            raise tcfg.TargetError("target has to be a string, a dictionary or a Target, not None")
        made = _coerce(target, "target")
        if host is not None:
            made = made.with_host(_coerce(host, "target host"))
        self._target = made

    # -- what TVM's object holds ------------------------------------------------------------
    @property
    def tcfg(self) -> tcfg.Target:
        """The :class:`tcfg.Target` this describes."""
        return self._target

    @property
    def kind(self) -> TargetKind:
        return TargetKind(self._target.kind)

    @property
    def keys(self) -> list[str]:
        return list(self._target.keys)

    @property
    def host(self) -> Target | None:
        host = self._target.host
        return None if host is None else Target(host)

    @property
    def tag(self) -> str:
        return self._target.tag or ""

    @property
    def attrs(self) -> Mapping[str, Any]:
        """The attributes (given and defaults), lists as lists, nested targets as :class:`Target`."""
        skip = {"keys", "tag", "host"}
        return MappingProxyType({k: _tvm_value(v) for k, v in self._target.attrs.items() if k not in skip})

    @property
    def features(self) -> TargetFeatures:
        """The target's features (``t.features.has_dotprod``, ``t.features.is_aarch64``, ...)."""
        return TargetFeatures(self._target.features)

    def export(self) -> dict[str, Any]:
        """The dict TVM 0.27's ``Target`` takes (:meth:`tcfg.Target.to_tvm`)."""
        return self._target.to_tvm()

    def with_host(self, host: Any = None) -> Target:
        return Target(self._target.without_host() if host is None else self._target.with_host(_coerce(host, "host")))

    def get_target_device_type(self) -> int:
        """The DLPack device type of the target's device: ``-target_device_type`` if given, else the kind's."""
        given = self._target.attrs.get("target_device_type")
        if given is not None:
            return int(given)
        code = self._target.kind.dlpack_device_type
        if code is None:
            raise tcfg.TargetError(f"target {str(self._target)!r}: kind {self.kind.name!r} names no DLPack device")
        return code

    def get_kind_attr(self, attr_name: str) -> Any:
        """A kind attribute TVM registers; tcfg answers only ``default_device_type``."""
        if attr_name == "default_device_type":
            return self.kind.dlpack_device_type
        raise tcfg.TargetError(
            f"kind {self.kind.name!r}: {attr_name!r} is a TVM kind attribute tcfg does not have "
            "(it has 'default_device_type')"
        )

    # -- TVM's properties -------------------------------------------------------------------
    def _need(self, name: str) -> Any:
        value = self._target.attrs.get(name)
        if value is None:
            raise tcfg.TargetError(
                f"target {str(self._target)!r} has no {name!r} (kind {self.kind.name!r} attributes: "
                f"{', '.join(sorted(self._target.kind.table))})"
            )
        return value

    @property
    def arch(self) -> str:
        return str(self._target.attrs.get("arch") or "")

    @property
    def max_num_threads(self) -> int:
        return int(self._need("max_num_threads"))

    @property
    def max_block_size_x(self) -> int:
        return int(self._need("max_block_size_x"))

    @property
    def max_block_size_y(self) -> int:
        return int(self._need("max_block_size_y"))

    @property
    def thread_warp_size(self) -> int:
        return int(self._need("thread_warp_size"))

    @property
    def max_shared_memory_per_block(self) -> int:
        return int(self._need("max_shared_memory_per_block"))

    @property
    def max_function_args(self) -> int:
        return int(self._target.attrs.get("max_function_args") or 0)

    @property
    def vtcm_capacity(self) -> int:
        return int(self._target.attrs.get("vtcm-capacity") or 0)

    @property
    def l2_cache_size_bytes(self) -> int:
        return int(self._target.attrs.get("l2_cache_size_bytes") or 0)

    @property
    def device_name(self) -> str:
        return str(self._target.attrs.get("device") or "")

    @property
    def model(self) -> str:
        return str(self._target.attrs.get("model") or "unknown")

    @property
    def mcpu(self) -> str:
        return str(self._target.attrs.get("mcpu") or "")

    @property
    def mattr(self) -> list[str]:
        return list(self._target.attrs.get("mattr") or ())

    @property
    def libs(self) -> list[str]:
        return list(self._target.attrs.get("libs") or ())

    @property
    def supports_integer_dot_product(self) -> bool:
        """Given as an attribute (vulkan), else CUDA from sm_61 (``dp4a``), else False."""
        given = self._target.attrs.get("supports_integer_dot_product")
        if given:
            return bool(given)
        if self.kind.name == "cuda" and self.arch:
            digits = "".join(c for c in self.arch.split("_", 1)[-1] if c.isdigit())
            return bool(digits) and int(digits) >= 61
        return False

    @property
    def supports_cooperative_matrix(self) -> bool:
        return bool(self._target.attrs.get("supports_cooperative_matrix"))

    # -- scope ---------------------------------------------------------------------------
    def __enter__(self) -> Target:
        self._target.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._target.__exit__(*exc)

    @staticmethod
    def current(allow_none: bool = True) -> Target | None:
        """The target of the innermost ``with`` block; None outside one, unless ``allow_none`` is false."""
        now = tcfg.Target.current()
        if now is None:
            if not allow_none:
                raise tcfg.TargetError("no target is set: enter 'with Target(...):' or pass a target")
            return None
        return Target(now)

    @staticmethod
    def target_or_current(target: Any) -> Target:
        """``target`` as a :class:`Target`, or the current one when it is None (an error if neither)."""
        if target is None:
            now = Target.current()
            if now is None:
                raise tcfg.TargetError("Target is not set in env or passed as argument")
            return now
        return target if isinstance(target, Target) else Target(target)

    @staticmethod
    def list_kinds() -> list[str]:
        return tcfg.list_kinds()

    # -- canonical forms -------------------------------------------------------------------
    @staticmethod
    def canon_target(target: Any) -> Target | None:
        """``target`` (None, a Target, a string or a dict) as a :class:`Target` (None stays None)."""
        if target is None:
            return None
        return target if isinstance(target, Target) else Target(target)

    @staticmethod
    def canon_target_and_host(target: Any, target_host: Any = None) -> tuple[Target | None, Target | None]:
        """``(target, host)``: ``target_host`` set as the target's host when it has none; the host returned
        is the result's host."""
        canon = Target.canon_target(target)
        if canon is None:
            if target_host is not None:
                raise HostWithoutTargetError(
                    f"Target host is not empty when target is empty (host {str(target_host)!r}, target None)"
                )
            return None, None
        if canon.host is None and target_host is not None:
            canon = canon.with_host(Target.canon_target(target_host))
        return canon, canon.host

    @staticmethod
    def canon_multi_target(multi_targets: Any) -> list[Target] | None:
        """A list of :class:`Target`: from one target-like value, a list of them, or a dict of them
        keyed by device type (TVM's legacy heterogeneous form; the keys are ignored)."""
        if multi_targets is None:
            return None
        if isinstance(multi_targets, Mapping) and "kind" not in multi_targets:
            return Target.canon_multi_target(list(multi_targets.values()))
        if isinstance(multi_targets, (list, tuple)):
            return [Target(t) if not isinstance(t, Target) else t for t in multi_targets]
        return [Target.canon_target(multi_targets)]  # type: ignore[list-item]

    @staticmethod
    def canon_multi_target_and_host(target: Any, target_host: Any = None) -> list[Target]:
        """:meth:`canon_multi_target`, each given ``target_host`` as its host when the first has none."""
        raw = Target.canon_multi_target(target)
        if not raw:
            raise HostWithoutTargetError(f"no targets given ({target!r}); give a target, a list or a dict of them")
        if raw[0].host is None and target_host is not None:
            host = Target.canon_target(target_host)
            raw = [t.with_host(host) for t in raw]
        return raw

    @staticmethod
    def canon_target_map_and_host(
        target_map: Mapping[Any, Any], target_host: Any = None
    ) -> tuple[dict[Target, Any], Target | None]:
        """``target_map`` with canonical :class:`Target` keys that all carry one host, and that host."""
        out: dict[Target, Any] = {}
        host: Target | None = None
        for spec, module in target_map.items():
            canon = Target.canon_target(spec)
            if canon is None:
                raise tcfg.TargetError(f"target map {dict(target_map)!r} has a None target")
            if host is None:
                host = canon.host if canon.host is not None else Target.canon_target(target_host)
            if canon.host is None and host is not None:
                canon = canon.with_host(host)
            out[canon] = module
        return out, host

    @staticmethod
    def from_device(device: Any) -> Target:
        """The target of a device of this machine: ``"cpu"``, ``"cuda"``, ..., a DLPack device type
        code, or an object with ``device_type`` (or ``dlpack_device_type()``) and ``device_id``."""
        from tcfg.compat.tvm.device import from_device

        return Target(from_device(device))

    # -- value semantics -------------------------------------------------------------------
    def same_as(self, other: object) -> bool:
        """Whether ``other`` wraps the very same :class:`tcfg.Target` (TVM's object identity)."""
        return isinstance(other, Target) and other._target is self._target

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Target):
            return self._target == other._target
        if isinstance(other, tcfg.Target):
            return self._target == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._target)

    def __str__(self) -> str:
        return str(self._target)

    def __repr__(self) -> str:
        return f"Target({str(self._target)!r})"


def list_tags() -> dict[str, Target]:
    """Every registered tag, as a :class:`Target` (TVM's ``tvm.target.tag.list_tags``)."""
    return {name: Target(name) for name in tcfg.list_tags()}


def register_tag(name: str, config: Mapping[str, Any], override: bool = False) -> Target:
    """Register tag ``name`` (checked first, as :func:`tcfg.register_tag` does) and return its target."""
    tcfg.register_tag(name, dict(config), override=override)
    return Target(name)
