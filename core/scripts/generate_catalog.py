"""Generate the docs site's target catalog (``docs/catalog/``) from the registry.

``python core/scripts/generate_catalog.py`` (with the core and every plugin installed)
writes one page per vendor (the part of a tag's name before ``/``) and an index: for
each tag, an anchor (``#nvidia/a100`` works as ``#tag-nvidia-a100``), its description,
other names (aliases: TVM's, marketing names), the target it builds, its kind and
device type, keys, configured facts, features, variants (``NAME:VARIANT``), the plugin
that registers it and the source its facts are cited from. ``--check`` exits 1 if the
pages on disk differ from what the registry gives now (``tests/test_catalog.py`` runs it).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[2] / "docs" / "catalog"
_FEATURES_SHOWN = 40


def anchor(name: str) -> str:
    """The HTML id of tag ``name`` on its page (``nvidia/a100`` -> ``tag-nvidia-a100``)."""
    return "tag-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def vendor(name: str) -> str:
    return name.split("/", 1)[0]


def _cell(value: Any) -> str:
    text = ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def _features(target: Any) -> str:
    items = [f"`{n}`" if v is True else f"`{n}`={v}" for n, v in target.features.items()]
    more = len(items) - _FEATURES_SHOWN
    return ", ".join(items[:_FEATURES_SHOWN]) + (f" and {more} more" if more > 0 else "") or "(none)"


def tag_section(registry: Any, name: str) -> list[str]:
    """The Markdown of one tag: heading with anchor, description, and a facts table."""
    entry = registry.tag_entry(name)
    target = entry.target
    lines = [f'<a id="{anchor(name)}"></a>', "", f"### {name}", ""]
    if entry.description:
        lines += [entry.description, ""]
    rows: list[tuple[str, str]] = [
        ("target", f"`{_cell(target)}`"),
        ("kind", f"`{target.kind.name}` (device type `{target.kind.device_type}`)"),
        ("keys", _cell(target.keys)),
    ]
    if entry.aliases:
        rows.append(("also named", ", ".join(f"`{a}`" for a in entry.aliases)))
    for key, value in dict(entry.config).items():
        if key not in ("kind", "tag") and not isinstance(value, (dict, list)):
            rows.append((f"`{key}`", _cell(value)))
    rows.append(("features", _features(target)))
    for variant in entry.variants:
        rows.append((f"`:{variant}`", f"`{_cell(registry.tag_entry(f'{name}:{variant}').target)}`"))
    rows.append(("plugin", f"`{entry.owner}`"))
    if entry.source:
        rows.append(("source", _cell(entry.source)))
    lines += ["| | |", "|---|---|", *(f"| {k} | {v} |" for k, v in rows), ""]
    return lines


def pages(registry: Any) -> dict[str, str]:
    """File name -> Markdown text, for every vendor page and the index."""
    names = registry.list_tags()
    by_vendor: dict[str, list[str]] = {}
    for name in names:
        by_vendor.setdefault(vendor(name), []).append(name)
    out: dict[str, str] = {}
    index = [
        "# Target catalog",
        "",
        "Every tag the installed plugins register, with its facts and where they come from, "
        "one page per vendor. Generated from the registry by `core/scripts/generate_catalog.py`; "
        "`tcfg tags` and `tcfg show TAG` say the same from a terminal.",
        "",
        "| vendor | tags |",
        "|---|---|",
    ]
    for key in sorted(by_vendor):
        tags = by_vendor[key]
        index.append(f"| [{key}]({key}.md) | {len(tags)} |")
        body = [
            f"# {key}",
            "",
            f"{len(tags)} tag{'s' if len(tags) != 1 else ''}. Each heading's anchor is `#{anchor(tags[0])}` style.",
            "",
        ]
        for name in tags:
            body += tag_section(registry, name)
        out[f"{key}.md"] = "\n".join(body).rstrip() + "\n"
    out["index.md"] = "\n".join(index) + "\n"
    return out


def nav(names: Iterable[str]) -> list[str]:
    """The mkdocs ``nav`` entries of the catalog pages."""
    return ["catalog/index.md", *(f"catalog/{n}" for n in sorted(names) if n != "index.md")]


def main() -> int:
    from tcfg._registry.registry import default_registry

    written = pages(default_registry())
    if "--check" in sys.argv[1:]:
        stale = [n for n, text in written.items() if not (OUT / n).is_file() or (OUT / n).read_text() != text]
        extra = [p.name for p in OUT.glob("*.md") if p.name not in written]
        if stale or extra:
            print(f"docs/catalog is out of date: {', '.join(stale + extra)}; run core/scripts/generate_catalog.py")
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.md"):
        if old.name not in written:
            old.unlink()
    for name, text in written.items():
        (OUT / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(written)} pages to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
