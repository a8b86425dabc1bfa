"""``CompilationConfig``: one canonical form for "compile for these targets, on this host".

It accepts one target, a list, TVM's legacy ``{device: target}`` dict, or a composite
target, and canonicalises them:

- one host for every leaf device: an explicit ``host`` wins; otherwise the host the
  devices already name (they must agree); otherwise the single CPU target among them;
  otherwise this machine's ``llvm``. A device whose own host differs from the chosen
  one is an error (TVM's ``CheckAndUpdateHostConsistency`` silently overwrote it).
  Composite devices keep their own hosts; when every device is composite and no host
  is given, the configuration has none.
- ``target_for(device_type)`` is the least-specialised target of that device type (the
  one every other target of that type specialises, as Collage needs:
  ``cuda -arch=sm_80`` before ``cuda -arch=sm_80 -compiler=tensorrt``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from tcfg._base.errors import TargetError
from tcfg._model.kind import DLPACK_DEVICES  # DLPack device type numbers: keys of the legacy dict form

if TYPE_CHECKING:
    from tcfg._model.components import ComponentValue, Role
    from tcfg._model.target import Target
    from tcfg._registry.registry import Registry

__all__ = ["CompilationConfig"]


class CompilationConfig:
    """Targets, one host, an executor and a runtime, canonicalised; compared by value."""

    __slots__ = ("executor", "host", "registry", "runtime", "targets")

    targets: tuple[Target, ...]
    host: Target | None
    executor: ComponentValue | None
    runtime: ComponentValue | None
    registry: Registry

    def __init__(
        self,
        targets: Any,
        host: Any = None,
        executor: Any = None,
        runtime: Any = None,
        *,
        registry: Registry | None = None,
    ) -> None:
        from tcfg._model.target import Target
        from tcfg._registry.registry import default_registry

        reg = registry if registry is not None else default_registry()
        self.registry = reg
        devices = _devices(targets, reg)
        if len(devices) == 1 and devices[0].kind.name == "composite":
            composite = devices[0]
            devices = list(composite.attrs["devices"])
            host = _agree("host", host, composite.host, reg)
            executor = _agree("executor", executor, composite.attrs.get("executor"), reg)
            runtime = _agree("runtime", runtime, composite.attrs.get("runtime"), reg)
        if not devices:
            raise TargetError("a compilation configuration needs at least one target")
        self.host = _choose_host(devices, None if host is None else Target(host, registry=reg))
        self.targets = tuple(dict.fromkeys(_with_host(d, self.host) for d in devices))
        self.executor = None if executor is None else _component("executor", executor, reg)
        self.runtime = None if runtime is None else _component("runtime", runtime, reg)
        if self.executor is not None or self.runtime is not None:
            self.to_target()  # their rules (a cuda-graph runtime needs a CUDA device) see the devices

    def target_for(self, device_type: str) -> Target:
        """The least-specialised target of ``device_type``; ambiguity is an error."""
        found = [t for t in self.targets if t.kind.device_type == device_type]
        if not found:
            have = sorted({t.kind.device_type for t in self.targets})
            raise TargetError(f"no target for device type {device_type!r}; this configuration has {have}")
        least = [t for t in found if all(o.is_specialization_of(t) for o in found)]
        if len(least) != 1:
            raise TargetError(
                f"device type {device_type!r} is ambiguous: none of "
                + ", ".join(repr(str(t)) for t in found)
                + " is specialised by all the others"
            )
        return least[0]

    def to_target(self) -> Target:
        """The configuration as one composite target (devices' shared host written once)."""
        from tcfg._model.target import Target

        config: dict[str, Any] = {
            "kind": "composite",
            "devices": [_strip_host(t, self.host) for t in self.targets],
        }
        if self.host is not None:
            config["host"] = self.host
        if self.executor is not None:
            config["executor"] = self.executor
        if self.runtime is not None:
            config["runtime"] = self.runtime
        return Target(config, registry=self.registry)

    def export(self) -> dict[str, Any]:
        """The composite target's ``export()``; ``CompilationConfig(cfg.export()) == cfg``."""
        return self.to_target().export()

    def _key(self) -> tuple[Any, ...]:
        return (self.targets, self.host, self.executor, self.runtime)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CompilationConfig):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"CompilationConfig({str(self.to_target())!r})"


def _devices(targets: Any, reg: Registry) -> list[Target]:
    from tcfg._model.target import Target

    if isinstance(targets, Target | str):
        return [Target(targets, registry=reg)]
    if isinstance(targets, Mapping):
        if "kind" in targets or "tag" in targets:
            return [Target(targets, registry=reg)]
        out = []
        for device, spec in targets.items():
            target = Target(spec, registry=reg)
            name = DLPACK_DEVICES.get(device) if isinstance(device, int) else device
            if name not in (target.kind.name, target.kind.device_type):
                raise TargetError(
                    f"legacy target dict: key {device!r} does not match {str(target)!r} "
                    f"(kind {target.kind.name!r}, device type {target.kind.device_type!r})"
                )
            out.append(target)
        return out
    if isinstance(targets, Sequence):
        return [Target(t, registry=reg) for t in targets]
    raise TargetError(
        f"cannot make a compilation configuration from {type(targets).__name__}; "
        "expected a target, a list of targets, a {device: target} dict or a composite target"
    )


def _agree(what: Literal["host"] | Role, given: Any, from_composite: Any, reg: Registry) -> Any:
    if given is None:
        return from_composite
    if from_composite is None:
        return given
    if what == "host":
        from tcfg._model.target import Target

        same = Target(given, registry=reg) == from_composite
    else:
        same = _component(what, given, reg) == from_composite
    if not same:
        raise TargetError(f"the {what} argument {given!r} contradicts the composite target's {what} {from_composite!r}")
    return given


def _component(role: Role, value: Any, reg: Registry) -> ComponentValue:
    """``value`` (a name, dict or ComponentValue) checked as a registered ``role``."""
    from tcfg._model.attrs import InvalidValue
    from tcfg._model.components import ComponentType

    try:
        return ComponentType(role).check(value, reg.nested_context(0))
    except InvalidValue as exc:
        raise TargetError(f"{role} {value!r}: {exc}") from None


def _is_self_hosted(target: Target) -> bool:
    return target.kind.name == "composite" or target.kind.device_type == "cpu"


def _choose_host(devices: list[Target], explicit: Target | None) -> Target | None:
    from tcfg._model.target import Target

    leaves = [d for d in devices if not _is_self_hosted(d)]
    named = list(dict.fromkeys(d.host for d in leaves if d.host is not None))
    if explicit is not None:
        for device in leaves:
            if device.host is not None and device.host != explicit:
                raise TargetError(
                    f"target {str(device)!r} has host {str(device.host)!r}, "
                    f"but the configuration's host is {str(explicit)!r}"
                )
        return explicit
    if len(named) > 1:
        raise TargetError("the targets name different hosts: " + ", ".join(repr(str(h)) for h in named))
    if named:
        return named[0]
    cpus = list(dict.fromkeys(d.without_host() for d in devices if d.kind.device_type == "cpu"))
    if len(cpus) > 1:
        raise TargetError(
            "several CPU targets could be the host (" + ", ".join(repr(str(c)) for c in cpus) + "); pass host="
        )
    if cpus:
        return cpus[0]
    if all(d.kind.name == "composite" for d in devices):
        return None
    registry = devices[0].registry
    return Target("llvm", registry=registry)


def _with_host(device: Target, host: Target | None) -> Target:
    if host is None or _is_self_hosted(device) or device.host == host:
        return device
    return device.with_host(host)


def _strip_host(device: Target, host: Target | None) -> Target:
    if host is not None and device.host == host and not _is_self_hosted(device):
        return device.without_host()
    return device
