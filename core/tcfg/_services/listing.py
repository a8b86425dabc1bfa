"""What ``tcfg kinds``, ``tcfg tags`` and ``tcfg plugins`` print with ``--json``.

Each function returns JSON-compatible data holding every fact the command's text output
shows, and more:

- :func:`kinds_data`: per kind its name, device type, plugin, description, default keys,
  every attribute (type in words, JSON Schema, default, description, aliases), the
  compilers it takes (each with its description and the attributes it adds), and the
  features the kind registers;
- :func:`tags_data`: per listed name (an alias is a row of its own, as in the text output,
  with ``alias_of``) its description, target, kind, device type, keys, configuration,
  plugin, source, aliases and variants (each with its target and configuration);
- :func:`plugins_data`: per plugin its name, status, distribution, version, error, what it
  registered (names, by what) and how many of each (the text output's counts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tcfg._model.attrs import Attr
    from tcfg._registry.registry import Registry

__all__ = ["kinds_data", "plugins_data", "tags_data"]


def _attribute(attr: Attr, schema: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "name": attr.name,
        "type": attr.type.description,
        "schema": schema,
        "default": None if attr.default is None else attr.type.to_json(attr.default),
        "default_text": None if attr.default is None else attr.type.to_text(attr.default),
        "doc": attr.doc,
        "aliases": list(attr.aliases),
    }


def kinds_data(registry: Registry) -> list[dict[str, Any]]:
    """Every registered kind, in :meth:`Registry.list_kinds` order (see the module docstring)."""
    out = []
    for name in registry.list_kinds():
        kind = registry.get_kind(name)
        properties = kind.json_schema().get("properties", {})
        compilers = registry.compilers(name)
        out.append(
            {
                "name": kind.name,
                "device_type": kind.device_type,
                "plugin": registry.owner("kind", kind.name),
                "doc": kind.doc,
                "default_keys": list(kind.default_keys),
                "attributes": [_attribute(attr, properties.get(attr.name)) for attr in kind.table.values()],
                "compilers": {
                    cname: {
                        "doc": compiler.doc,
                        "plugin": registry.owner("compiler", f"{name}:{cname}"),
                        "attributes": [_attribute(attr, None) for attr in compiler.attrs],
                        "features": [feature.name for feature in compiler.features],
                    }
                    for cname, compiler in sorted(compilers.items())
                },
            }
        )
    return out


def _variant(registry: Registry, name: str) -> dict[str, Any]:
    entry = registry.tag_entry(name)
    return {"target": str(entry.target), "config": dict(entry.config), "description": entry.description}


def tags_data(registry: Registry, names: Iterable[str]) -> list[dict[str, Any]]:
    """One row per name of ``names`` (as :meth:`Registry.list_tags` gives them; see the module docstring)."""
    out: list[dict[str, Any]] = []
    for name in names:
        entry = registry.tag_entry(name)
        if entry.name != name:
            out.append({"name": name, "alias_of": entry.name})
            continue
        target = entry.target
        out.append(
            {
                "name": entry.name,
                "description": entry.description,
                "target": str(target),
                "kind": target.kind.name,
                "device_type": target.kind.device_type,
                "keys": list(target.keys),
                "config": dict(entry.config),
                "plugin": entry.owner,
                "source": entry.source,
                "aliases": list(entry.aliases),
                "variants": {v: _variant(registry, f"{entry.name}:{v}") for v in entry.variants},
            }
        )
    return out


def plugins_data(registry: Registry) -> list[dict[str, Any]]:
    """Every discovered plugin's record, with the counts of what it registered (see the module docstring)."""
    out = []
    for record in registry.plugins():
        data = record.to_dict()
        data["counts"] = {sort: len(names) for sort, names in data["registered"].items()}
        out.append(data)
    return out
