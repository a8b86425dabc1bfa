"""The plugin guide documents every hook, and its example plugin works in-process too."""

from __future__ import annotations

import inspect
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tcfg
from tcfg import hookspecs

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
HOOKS = [name for name, f in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("tcfg_")]


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_is_in_the_guide_and_has_a_docstring(hook: str) -> None:
    assert f"`{hook}(" in GUIDE
    assert (getattr(hookspecs, hook).__doc__ or "").strip()


def test_example_plugin_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "docs" / "example_plugin"))
    from tcfg_example_loongarch import plugin

    reg = tcfg.Registry(plugins=[plugin], autoload=False)
    t = tcfg.Target("llvm -mtriple=loongarch64 -mcpu=la464", registry=reg)
    assert t.features.lasx and t.features.simd_bits == 256 and t.keys == ("loongarch_cpu", "cpu")
    assert t.features.explain("lasx") == "lasx = True: -mcpu=la464 has it"
    assert tcfg.Target("loongson/3a6000", registry=reg).attrs["num-cores"] == 4
    with pytest.raises(tcfg.AttributeValueError, match="did you mean 'la464'"):
        tcfg.Target("llvm -mtriple=loongarch64 -mcpu=la446", registry=reg)
    cg = tcfg.Target("c -mcpu=la464 -mattr=+frecipe", registry=reg).codegen().to_dict()
    assert cg["cpu"] == "la464" and cg["features"] == "+frecipe"
    sys.modules.pop("tcfg_example_loongarch.plugin", None)


#: The built site (tox's docs environment builds it and sets this), for the browser check below.
SITE = os.environ.get("TCFG_SITE_DIR")


def _catalog_pages() -> list[str]:
    """The vendors of the catalog the docs build generated (none where the site was not built)."""
    if not SITE:
        return []
    return sorted(p.parent.name for p in (Path(SITE) / "catalog").glob("*/index.html"))


@pytest.mark.skipif(not SITE, reason="TCFG_SITE_DIR (the built site) is set by tox's docs environment only")
@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium to look at the built pages")
@pytest.mark.parametrize("page", _catalog_pages())
def test_each_catalog_page_renders_its_tables_in_a_browser(page: str) -> None:
    """Headless Chromium loads the built page and runs its scripts: every tag's anchor is there,
    and the theme's script has wrapped at least one table per tag (a page that failed to render
    its tables, or lost them in the build, has fewer)."""
    built = Path(str(SITE)) / "catalog" / page / "index.html"
    source = built.read_text(encoding="utf-8")
    count = re.search(r"<p>(\d+) tags?\. ", source)
    assert count is not None, f"catalog/{page} does not say how many tags it lists"
    command = [
        "chromium",
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--virtual-time-budget=3000",
        "--dump-dom",
        built.as_uri(),
    ]
    html = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout
    assert html.count('class="md-typeset__table"') >= int(count.group(1))
    missing = [a for a in re.findall(r'<a id="(tag-[^"]+)"', source) if f'id="{a}"' not in html]
    assert missing == []


@pytest.mark.skipif(not SITE, reason="TCFG_SITE_DIR (the built site) is set by tox's docs environment only")
def test_the_build_generated_a_catalog_page_per_vendor() -> None:
    vendors = {name.split("/", 1)[0] for name in tcfg.list_tags()}
    assert set(_catalog_pages()) == vendors
