"""The docs site's target catalog, generated from the registry when the site is built.

mkdocs loads this file as a hook (``hooks:`` in ``mkdocs.yml``): :func:`on_config` fills
the "Target catalog" nav section and :func:`on_files` adds the pages, generated from the
installed registry, as files of the build, so the catalog always says what the plugins
of the building environment say (tox's ``docs`` env installs every plugin of this
repository; the build fails if one of them is missing). No generated page is committed.

One page per vendor (the part of a tag's name before ``/``) and an index: for each tag,
an anchor (``#nvidia/a100`` works as ``#tag-nvidia-a100``), its description, other
names (aliases: TVM's, marketing names), the target it builds, its kind and device type,
keys, configured facts, portable capabilities (``fp16``, ``vector_bits``, ...), features,
variants (``NAME:VARIANT``), the plugin that registers
it and the source its facts are cited from.

``python core/scripts/generate_catalog.py DIR`` writes the same pages into ``DIR`` to
read them without building the site.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: The nav section the hook fills, and the folder of the site the pages go to.
SECTION = "Target catalog"
FOLDER = "catalog"
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


def _portable(target: Any) -> str:
    """The portable capabilities the target has (``tcfg._model.portable``): true ones by name, others with a value."""
    answers = target.features.portable()
    items = [
        f"`{n}`" if a.value is True else f"`{n}`={a.value}"
        for n, a in answers.items()
        if a.value is not None and a.value is not False
    ]
    return ", ".join(items)


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
    portable = _portable(target)
    if portable:
        rows.append(("capabilities", portable))
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
        "one page per vendor. Generated from the registry when this site was built "
        "(`core/scripts/generate_catalog.py`); "
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
    return [f"{FOLDER}/index.md", *(f"{FOLDER}/{n}" for n in sorted(names) if n != "index.md")]


def missing_plugins(root: Path = ROOT) -> list[str]:
    """The plugins of this repository (``plugins/*/pyproject.toml``) whose entry point is not installed.

    The catalog describes every plugin: a site built without one would silently lack its tags.
    """
    from importlib.metadata import entry_points

    installed = {ep.name for ep in entry_points(group="tcfg")}
    wanted = sorted(p.parent.name for p in root.glob("plugins/*/pyproject.toml"))
    return [name for name in wanted if name not in installed]


def generated() -> dict[str, str]:
    """The catalog's pages (file name -> Markdown) from the default registry of this environment.

    A :class:`RuntimeError` names the repository's plugins that are not installed.
    """
    from tcfg._registry.registry import default_registry

    absent = missing_plugins()
    if absent:
        raise RuntimeError(
            f"the target catalog needs every plugin installed; missing: {', '.join(absent)} "
            "(tox -e docs installs them all)"
        )
    return pages(default_registry())


_PAGES: dict[str, str] = {}


def on_config(config: Any) -> Any:
    """mkdocs hook: generate the pages and list them under the nav's "Target catalog" section."""
    _PAGES.clear()
    _PAGES.update(generated())
    entries = nav(_PAGES)
    for item in config["nav"] or []:
        if isinstance(item, dict) and SECTION in item:
            item[SECTION] = entries
            return config
    raise RuntimeError(f"mkdocs.yml's nav has no {SECTION!r} section for the catalog pages")


def on_files(files: Any, config: Any) -> Any:
    """mkdocs hook: add the generated pages to the build (nothing is written into ``docs/``)."""
    from mkdocs.structure.files import File

    for name, text in _PAGES.items():
        files.append(File.generated(config, f"{FOLDER}/{name}", content=text))
    return files


def main() -> int:
    args = sys.argv[1:]
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: generate_catalog.py DIR  (writes the catalog pages into DIR)", file=sys.stderr)
        return 2
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    written = generated()
    for name, text in written.items():
        (out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(written)} pages to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
