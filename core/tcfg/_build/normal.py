"""Normal forms of what a user configures, so that equal targets print the same.

* An empty ``tag`` (TVM's "no tag") and empty ``keys`` items mean nothing: they are dropped
  (:func:`without_empty`); given keys that leave the target's keys as they would be are not
  configuration either (:func:`keys_change`).
* A ``tag`` must name a registered tag whose configuration the target carries (:func:`check_tag`):
  each attribute the tag configures is set, to the tag's value or an override (a tag with
  overrides keeps its name), so ``cuda -tag=nvidia/a100`` does not claim an A100 it was not
  built from.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcfg._base.errors import AttributeValueError, UnknownTagError, shorten

if TYPE_CHECKING:
    from tcfg._build.tables import Tables
    from tcfg._model.target import Target

__all__ = ["check_tag", "keys_change", "without_empty"]


def without_empty(attrs: dict[str, Any]) -> dict[str, Any]:
    """``attrs`` without an empty ``tag`` and without empty ``keys`` (the whole list if nothing is left).

    ``attrs`` itself when it holds neither (the common case: no copy).
    """
    keys = attrs.get("keys")
    if attrs.get("tag") != "" and keys != () and not (isinstance(keys, tuple) and "" in keys):
        return attrs
    out = dict(attrs)
    if out.get("tag") == "":
        del out["tag"]
    keys = out.get("keys")
    if isinstance(keys, tuple) and "" in keys:
        kept = tuple(k for k in keys if k)
        if kept:
            out["keys"] = kept
        else:
            del out["keys"]
    elif keys == ():
        del out["keys"]
    return out


def keys_change(with_given: tuple[str, ...], derived: tuple[str, ...]) -> bool:
    """Whether the given keys change the target's keys (``with_given``) from the ``derived`` ones."""
    return with_given != derived


_checking = threading.local()  # the tags whose own targets this thread is building


def check_tag(registry: Tables, target: Target, tag: str, text: Any) -> None:
    """Refuse ``-tag=NAME`` unless NAME is a registered tag (or variant, or alias) of the target's kind
    whose every configured attribute ``target`` sets too (to the tag's value or an override)."""
    building: set[str] = _checking.__dict__.setdefault("names", set())
    if tag in building:
        return  # the tag's own target, being built for the registry
    building.add(tag)
    try:
        entry = registry.find_tag(tag)
    finally:
        building.discard(tag)
    if entry is None:
        raise UnknownTagError(f"target {shorten(text)!r}: -tag={tag}: {registry.unknown_tag(tag)}")
    base = entry.target
    mine = target.attrs
    missing = [f"-{name}={value}" for name, value in base._config.items() if mine.get(name) is None]
    if base.kind.name != target.kind.name or missing:
        what = f"kind {base.kind.name!r}" if base.kind.name != target.kind.name else ", ".join(missing[:6])
        raise AttributeValueError(
            f"target {shorten(text)!r}: -tag={tag} names a tag this target was not built from (the tag "
            f"configures {what}); build from the tag instead ({tag!r}, with overrides if needed)"
        )
