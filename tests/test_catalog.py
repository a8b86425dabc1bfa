"""The docs site's target catalog (``docs/catalog/``) lists every tag with its facts, up to date.

Needs every plugin (the catalog is the whole installation's): it runs in the tox envs
that install them all and skips elsewhere.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

import tcfg

ROOT = Path(__file__).resolve().parents[1]
ALL = {"aarch64", "x86", "cuda", "tensorrt", "rocm", "gpuapi", "hexagon", "apple", "aws", "riscv"}

pytestmark = pytest.mark.skipif(
    set(filter(None, os.environ.get("TCFG_EXPECT_PLUGINS", "").split(","))) != ALL,
    reason="the catalog describes the installation with every plugin (TCFG_EXPECT_PLUGINS lists them all)",
)


def _generator():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "core" / "scripts"))
    import generate_catalog

    return generate_catalog


def test_the_catalog_is_what_the_registry_says_now() -> None:
    from tcfg._registry.registry import default_registry

    generator = _generator()
    written = generator.pages(default_registry())
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "catalog").glob("*.md")}
    assert on_disk == written, "run python core/scripts/generate_catalog.py"


def test_every_tag_variant_and_alias_is_on_its_page() -> None:
    generator = _generator()
    pages = {p.stem: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "catalog").glob("*.md")}
    for name in tcfg.list_tags():
        page = pages[generator.vendor(name)]
        assert f'<a id="{generator.anchor(name)}"></a>\n\n### {name}\n' in page, name
    registry_tags = set(tcfg.list_tags())
    headings = {h for text in pages.values() for h in re.findall(r"^### (\S+)$", text, re.M)}
    assert headings == registry_tags
    from tcfg._registry.registry import default_registry

    registry = default_registry()
    for name in registry_tags:
        entry = registry.tag_entry(name)
        page = pages[generator.vendor(name)]
        for variant in entry.variants:
            assert f"`:{variant}`" in page, (name, variant)
        for alias in entry.aliases:
            assert f"`{alias}`" in page, (name, alias)


def test_anchors_are_unique_and_every_page_is_in_the_nav() -> None:
    generator = _generator()
    ids = [generator.anchor(name) for name in tcfg.list_tags()]
    assert len(ids) == len(set(ids))
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (ROOT / "docs" / "catalog").glob("*.md"):
        assert f"- catalog/{page.name}\n" in nav, page.name
