"""The docs site's target catalog lists every tag with its facts, generated at docs-build time.

The pages come from ``core/scripts/generate_catalog.py``, which mkdocs runs as a hook; no
generated page is committed. These tests need every plugin (the catalog is the whole
installation's): they run in the tox envs that install them all (``all``, ``docs``) and
skip elsewhere. Where the built site is at hand (``TCFG_SITE_DIR``, set by tox's ``docs``
env) they check the built HTML too.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tcfg

ROOT = Path(__file__).resolve().parents[1]
ALL = {"aarch64", "x86", "cuda", "tensorrt", "rocm", "gpuapi", "hexagon", "apple", "aws", "riscv"}
SITE = os.environ.get("TCFG_SITE_DIR")

pytestmark = pytest.mark.skipif(
    set(filter(None, os.environ.get("TCFG_EXPECT_PLUGINS", "").split(","))) != ALL,
    reason="the catalog describes the installation with every plugin (TCFG_EXPECT_PLUGINS lists them all)",
)


def _generator() -> ModuleType:
    sys.path.insert(0, str(ROOT / "core" / "scripts"))
    try:
        import generate_catalog
    finally:
        sys.path.remove(str(ROOT / "core" / "scripts"))
    return generate_catalog


def test_no_generated_page_is_committed() -> None:
    assert not list((ROOT / "docs" / "catalog").glob("*.md")), "the catalog is generated when the site is built"


def test_every_tag_variant_and_alias_is_on_its_page() -> None:
    generator = _generator()
    pages = {name.removesuffix(".md"): text for name, text in generator.generated().items()}
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
    a100 = pages["nvidia"].split('<a id="tag-nvidia-a100">')[1].split("<a id=")[0]
    assert "| capabilities | " in a100 and "`bf16`" in a100 and "`fp8_e4m3`" not in a100


def test_anchors_are_unique_and_the_hook_puts_every_page_in_the_nav() -> None:
    generator = _generator()
    ids = [generator.anchor(name) for name in tcfg.list_tags()]
    assert len(ids) == len(set(ids))
    config: dict[str, Any] = {"nav": [{"Home": "index.md"}, {generator.SECTION: "catalog/index.md"}]}
    generator.on_config(config)
    listed = config["nav"][1][generator.SECTION]
    assert listed[0] == "catalog/index.md"
    assert sorted(listed) == sorted(f"catalog/{n}" for n in generator.generated())
    assert "- Target catalog: catalog/index.md\n" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    with pytest.raises(RuntimeError, match="no 'Target catalog' section"):
        generator.on_config({"nav": [{"Home": "index.md"}]})


def test_a_missing_plugin_fails_the_build(tmp_path: Path) -> None:
    generator = _generator()
    assert generator.missing_plugins() == []
    (tmp_path / "plugins" / "sparc").mkdir(parents=True)
    (tmp_path / "plugins" / "sparc" / "pyproject.toml").write_text("", encoding="utf-8")
    assert generator.missing_plugins(tmp_path) == ["sparc"]


@pytest.mark.skipif(not SITE, reason="TCFG_SITE_DIR (the built site) is set by tox's docs environment only")
def test_every_tag_is_on_the_built_site() -> None:
    generator = _generator()
    missing = []
    for name in tcfg.list_tags():
        page = Path(str(SITE)) / "catalog" / generator.vendor(name) / "index.html"
        html = page.read_text(encoding="utf-8") if page.is_file() else ""
        if f'id="{generator.anchor(name)}"' not in html or f">{name}<" not in html:
            missing.append(name)
    assert missing == []
    index = json_index()
    for name in tcfg.list_tags():
        assert any(name in doc["title"] for doc in index), f"the site's search index has no heading {name!r}"


def json_index() -> list[dict[str, Any]]:
    import json

    data = json.loads((Path(str(SITE)) / "search" / "search_index.json").read_text(encoding="utf-8"))
    return list(data["docs"])
