"""The complete description of a target as JSON-compatible data: what ``tcfg ... --json`` prints.

``describe(target)`` holds everything tcfg knows about a target, nested targets
described the same way:

- ``target`` (canonical text), ``kind``, ``device_type``, ``keys``, ``tag``;
- ``config`` (``export()``: what was configured, which rebuilds the target) and
  ``attrs`` (every attribute, defaults included, each in its JSON form; nested targets
  as their canonical text, described under ``host`` and ``devices``);
- ``features`` (those the target has, with their values);
- ``host`` (its description, or None) and, for a composite, ``devices``;
- ``codegen`` (``t.codegen().to_dict()``), or None for a kind without a code generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcfg._base.errors import TargetError

if TYPE_CHECKING:
    from tcfg._model.target import Target

__all__ = ["describe", "json_value"]


def describe(target: Target) -> dict[str, Any]:
    """The complete description of ``target`` (see the module docstring)."""
    attrs = {name: json_value(target, name, value) for name, value in target.attrs.items() if name != "host"}
    out: dict[str, Any] = {
        "target": str(target),
        "kind": target.kind.name,
        "device_type": target.kind.device_type,
        "keys": list(target.keys),
        "tag": target.tag,
        "config": target.export(),
        "attrs": attrs,
        "features": {name: value for name, value in target.features.items()},
        "host": None if target.host is None else describe(target.host),
    }
    devices = target.attrs.get("devices")
    if isinstance(devices, tuple) and devices:
        out["devices"] = [describe(device) for device in devices]
    out["codegen"] = _codegen(target)
    return out


def json_value(target: Target, name: str, value: Any) -> Any:
    """Attribute ``name``'s ``value`` in JSON form; a nested target (or list of them) as canonical text."""
    from tcfg._model.target import Target as TargetClass

    if isinstance(value, TargetClass):
        return str(value)
    if isinstance(value, tuple) and value and all(isinstance(v, TargetClass) for v in value):
        return [str(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return target._attr_type(name).to_json(value)


def _codegen(target: Target) -> dict[str, Any] | None:
    """``target.codegen().to_dict()``, or None when its kind has no code generator in tcfg."""
    try:
        config: dict[str, Any] = target.codegen().to_dict()
    except TargetError as exc:
        if str(exc).startswith("no installed plugin generates code"):
            return None
        raise
    return config
