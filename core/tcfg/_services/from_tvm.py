"""Reading Apache TVM's targets: :func:`from_tvm`, the inverse of ``Target.to_tvm()``.

``from_tvm(tvm.target.Target(t.to_tvm()).export()) == t`` for every target whose
attributes TVM has, and for every target built from a tag of ours (TVM keeps the tag
name, and the tag brings back the attributes TVM has no place for).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tcfg._base.errors import TargetError, UnknownTagError, bounded_repr, shorten
from tcfg._base.grammar import MAX_TEXT
from tcfg._build.memo import MAX_NESTING
from tcfg._model.target import Target
from tcfg._registry.registry import Registry, default_registry
from tcfg._services.to_tvm import to_tvm, tvm_kinds

__all__ = ["from_tvm"]


def from_tvm(source: Any, *, registry: Registry | None = None) -> Target:
    """The tcfg target that a TVM target describes.

    ``source`` is a ``tvm.target.Target`` (anything with an ``export()`` method: TVM is
    never imported here), its export dict, JSON text, or a classic string of TVM up to
    0.2x (``-keys``, ``-device``, ``-model``, ``-libs`` included). TVM's derived
    ``feature.*`` keys, an empty ``tag`` and a value TVM fixes (rocm's ``mtriple``) are
    ignored; the trailing keys that TVM or tcfg derive are dropped, those before them
    kept as given; a tag tcfg knows is rebuilt from the tag. A kind or attribute tcfg lacks is a
    :class:`TargetError` naming it, with the valid choices.
    """
    registry = registry or default_registry()
    return _read(_config(source, registry), registry)


def _config(source: Any, registry: Registry) -> dict[str, Any]:
    """``source`` as a dict of plain values (the TVM form), whatever form it came in."""
    if isinstance(source, str):
        text = source.strip()
        if not text.startswith("{"):  # the classic string: tcfg's own grammar reads it
            return registry.target(text).export()
        if len(text) > 2 * MAX_TEXT:  # (TVM's JSON repeats defaults tcfg's text drops: twice the limit)
            raise TargetError(
                f"TVM target {shorten(text, 80)!r} is {len(text)} characters of JSON, more than twice the limit "
                f"of {MAX_TEXT} that every target form shares"
            )
        try:
            source = json.loads(text)
        except ValueError as exc:
            raise TargetError(f"TVM target {shorten(text)!r}: invalid JSON: {exc}") from None
        except RecursionError:
            raise TargetError(f"TVM target {shorten(text)!r}: the JSON nests too deeply") from None
    try:
        value = _plain(source, [0])
    except _Refused as exc:
        raise TargetError(f"TVM target {shorten(source)!r} is refused: {exc}") from None
    if not isinstance(value, dict):
        raise TargetError(
            f"TVM target {shorten(source)!r}: expected a tvm.target.Target, a dict, JSON text or a target string, "
            f"not {type(source).__name__}"
        )
    return value


def _plain(value: Any, budget: list[int], path: tuple[int, ...] = ()) -> Any:
    """TVM's containers and nested targets (``Map``, ``Array``, ``Target``) as dicts and lists.

    Bounded: a value nested deeper than :data:`MAX_NESTING`, one that holds itself, or one
    with more items and text than :data:`MAX_TEXT` (``budget[0]`` counts what was read)
    is refused as soon as that is seen, whatever its size.
    """
    budget[0] += 1
    if value is None or isinstance(value, (bool, float)):
        return value
    if isinstance(value, str):
        budget[0] += len(value)
        if budget[0] > MAX_TEXT:
            raise _Refused(f"it is longer than {MAX_TEXT} characters as text")
        return value if type(value) is str else str(value)  # TVM's String is a str subclass
    if isinstance(value, int):
        budget[0] += value.bit_length() * 3 // 10
        return value
    if budget[0] > MAX_TEXT:
        raise _Refused(f"it is longer than {MAX_TEXT} characters as text")
    if id(value) in path:
        raise _Refused("it contains itself (a cycle)")
    if len(path) >= MAX_NESTING:
        raise _Refused(f"it nests more than {MAX_NESTING} levels of dicts and lists deep")
    inner = (*path, id(value))
    try:
        export = getattr(value, "export", None)
        if callable(export):  # a tvm.target.Target, or one of ours
            return _plain(export(), budget, inner)
        if isinstance(value, Mapping) or hasattr(value, "items"):
            return {_key(key): _plain(item, budget, inner) for key, item in value.items()}
        items = iter(value)
        return [_plain(item, budget, inner) for item in items]
    except (_Refused, TargetError):
        raise
    except Exception as exc:  # not a TVM value, or a container that fails to read
        shown, why = bounded_repr(value), f"{type(exc).__name__}: {shorten(exc)}"
        raise TargetError(f"TVM target value {shown} ({type(value).__name__}) is not a TVM value: {why}") from None


def _key(key: Any) -> str:
    """A dict key as text (TVM's keys are strings); any other key shown as a bounded repr."""
    return key if type(key) is str else shorten(key)


class _Refused(Exception):
    """A TVM value past the limits; the message says which (see :func:`_plain`)."""


def _read(config: dict[str, Any], registry: Registry) -> Target:
    kind = config.get("kind")
    if kind is None and isinstance(config.get("tag"), str):  # TVM 0.27: {"tag": NAME, overrides...}
        registry.get_tag(config["tag"])  # an unknown tag is an UnknownTagError with the closest names
        kind = _tag_kind(config["tag"], registry)
        config = {**config, "kind": kind}
    if not isinstance(kind, str):
        raise TargetError(f"TVM target {shorten(config)!r}: 'kind' must be a kind name, got {bounded_repr(kind)}")
    fixed = tvm_kinds()["fixed"].get(kind, {})
    spec: dict[str, Any] = {}
    for name, value in config.items():
        if name.startswith("feature.") or (name == "tag" and value == "") or (name in fixed and fixed[name] == value):
            continue  # derived by TVM, TVM's "no tag", or the one value TVM allows
        if name == "host" and isinstance(value, dict):
            value = _read(value, registry)
        elif name == "devices" and isinstance(value, list):
            value = [_read(device, registry) if isinstance(device, dict) else device for device in value]
        spec[name] = value
    keys = spec.pop("keys", None)
    if keys is not None and not (isinstance(keys, list) and all(type(key) is str for key in keys)):
        spec["keys"], keys = keys, None  # not TVM's keys: the builder says what is wrong with them
    tag = spec.get("tag")
    try:
        if isinstance(tag, str) and _tag_kind(tag, registry) == kind:
            _from_tag(spec, registry.target({"tag": tag}), registry)
        target = registry.target(spec)
        if isinstance(keys, list) and keys:
            given = _given_keys(keys, target, spec.get("device"))
            if given:
                target = registry.target({**spec, "keys": given})
    except TargetError as exc:
        raise type(exc)(f"from_tvm: {exc}") from None
    return target


def _from_tag(spec: dict[str, Any], base: Target, registry: Registry) -> None:
    """Make ``spec`` build from its tag, ``base``: the tag brings back what TVM has no place for.

    A nested target (a host, a composite's devices) that reads the same as the tag's
    own after a trip through TVM is the tag's own, and is left to the tag.
    """
    del spec["kind"]
    for name, value in list(spec.items()):
        mine = base.attrs.get(name)
        if isinstance(mine, Target):
            lossy: Any = _read(to_tvm(mine), registry)
        elif isinstance(mine, tuple) and mine and isinstance(mine[0], Target):
            lossy = [_read(to_tvm(device), registry) for device in mine]
        else:
            continue
        if lossy == value:
            del spec[name]


def _tag_kind(name: str, registry: Registry) -> Any:
    """The kind of tcfg's tag ``name``, or None if tcfg has no such tag."""
    try:
        return registry.get_tag(name).get("kind")
    except UnknownTagError:
        return None


def _given_keys(keys: list[Any], target: Target, device: Any) -> list[Any]:
    """``keys`` without the trailing ones that tcfg (``target.keys``) or TVM derive.

    TVM's keys are the given ones, then the ``device`` name, then the kind's defaults.
    """
    tvm_kind = tvm_kinds()["kinds"].get(target.kind.name, {})
    derived = {*target.keys, *tvm_kind.get("default_keys", ()), device}
    end = len(keys)
    while end and keys[end - 1] in derived:
        end -= 1
    return keys[:end]
