"""The READMEs are read on a package index too: their links are absolute, from the one project URL.

The project URL is ``[project.urls] Homepage`` of the root ``pyproject.toml``; a link into
the project names a file that exists (``HOMEPAGE/blob/main/PATH``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
READMES = [ROOT / "README.md", *sorted(ROOT.glob("plugins/*/README.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _homepage() -> str:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        tomllib = pytest.importorskip("tomli")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return str(data["project"]["urls"]["Homepage"]).rstrip("/")


@pytest.mark.parametrize("readme", READMES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_are_absolute_and_resolve(readme: Path) -> None:
    home = _homepage()
    for target in LINK.findall(readme.read_text(encoding="utf-8")):
        if target.startswith("#"):
            continue
        assert target.startswith(("https://", "http://")), f"{readme.name}: relative link {target}"
        if target.startswith(home + "/"):
            rest = target[len(home) + 1 :]
            assert rest.startswith(("blob/main/", "tree/main/")), target
            path = rest.split("/", 2)[2].split("#")[0]
            assert (ROOT / path).exists(), f"{readme.name}: {target} names no file of the project"
