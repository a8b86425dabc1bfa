"""Every distribution in the repository is ready to publish.

The metadata checks read each ``pyproject.toml``. The artifact checks run where tox's
``package`` environment has built every sdist and wheel into ``TCFG_DIST_DIR`` (and
``twine check --strict`` has passed on them): each ships the LICENSE, and the core's
sdist holds the core only.
"""

from __future__ import annotations

import os
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = sorted(p.parent for p in (ROOT / "plugins").glob("*/pyproject.toml"))
PROJECTS = [ROOT, *PLUGINS, ROOT / "docs" / "example_plugin"]
DIST = os.environ.get("TCFG_DIST_DIR")

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")


def project(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads((path / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return data


CORE = project(ROOT)


@pytest.mark.parametrize("path", PROJECTS, ids=lambda p: p.name)
def test_metadata_is_complete_and_consistent(path: Path) -> None:
    meta = project(path)
    assert meta["license"] == "Apache-2.0" and meta["license-files"] == ["LICENSE"]
    assert (path / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    assert meta["readme"] == "README.md" and (path / "README.md").is_file()
    assert meta["requires-python"] == CORE["requires-python"]
    assert meta["classifiers"] == CORE["classifiers"] and meta["urls"] == CORE["urls"]
    assert meta["authors"] == CORE["authors"]
    if path != ROOT:
        core_deps = [d for d in meta["dependencies"] if d.startswith("tcfg-core")]
        assert core_deps == ["tcfg-core>=0.1,<0.2"], "plugins depend on the 0.x hook API, bounded"
        assert not any(d.startswith("tcfg ") or d == "tcfg" for d in meta["dependencies"])


@pytest.mark.parametrize("path", PROJECTS[1:], ids=lambda p: p.name)
def test_llvm_extra_is_the_cores(path: Path) -> None:
    extras = project(path).get("optional-dependencies", {})
    if "llvm" in extras:
        assert extras["llvm"] == ["tcfg-core[llvm]>=0.1,<0.2"]


def test_supported_pythons_are_tested() -> None:
    """Each Python the classifiers claim has a tox environment (py310 ... the newest)."""
    tox = (ROOT / "tox.ini").read_text(encoding="utf-8")
    claimed = [c.rsplit(" ", 1)[1] for c in CORE["classifiers"] if c.count("::") == 2 and c[-1].isdigit()]
    versions = [v for v in claimed if v.startswith("3.")]
    assert versions[0] == CORE["requires-python"].removeprefix(">=")
    for version in (versions[0], versions[-1]):
        assert f"[testenv:py{version.replace('.', '')}]" in tox


def test_every_script_directory_is_type_checked() -> None:
    """The lint environment runs mypy over each folder of scripts (tox expands no globs, so each is named)."""
    lint = (ROOT / "tox.ini").read_text(encoding="utf-8").split("[testenv:lint]", 1)[1].split("\n[", 1)[0]
    checked = {
        word
        for line in lint.splitlines()
        if line.strip().startswith("mypy") or line.startswith("        ")
        for word in line.replace("\\", " ").split()
    }
    folders = [
        p
        for p in (
            *ROOT.glob("plugins/*/scripts"),
            ROOT / "core" / "scripts",
            ROOT / "interop" / "scripts",
            ROOT / "scripts",
            ROOT / "bench",
        )
        if any(p.glob("*.py"))
    ]
    missing = [str(p.relative_to(ROOT)) for p in folders if str(p.relative_to(ROOT)) not in checked]
    assert not missing, f"add these folders to a mypy line of tox.ini's lint environment: {missing}"


needs_dist = pytest.mark.skipif(DIST is None, reason="TCFG_DIST_DIR is set by tox's package environment only")


def artifacts(suffix: str) -> list[Path]:
    found = sorted(Path(DIST or ".").glob(f"*{suffix}"))
    assert len(found) == len(PROJECTS), found
    return found


@needs_dist
@pytest.mark.parametrize("suffix", [".whl", ".tar.gz"])
def test_every_artifact_ships_the_license(suffix: str) -> None:
    for path in artifacts(suffix):
        if suffix == ".whl":
            names = zipfile.ZipFile(path).namelist()
            assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), path.name
        else:
            with tarfile.open(path) as tar:
                members = {m.name.split("/", 1)[1]: m for m in tar.getmembers() if "/" in m.name}
            assert "LICENSE" in members and members["LICENSE"].isfile(), path.name


@needs_dist
def test_core_sdist_holds_the_core_only() -> None:
    (sdist,) = Path(DIST or ".").glob("tcfg_core-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = [m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name]
    stray = [n for n in names if not n.startswith("core/tcfg/") and "/" in n]
    assert not stray, stray
