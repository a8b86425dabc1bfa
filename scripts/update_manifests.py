"""Rewrite each plugin's ``tcfg.provides`` entry points from what it registers.

Usage: ``PYTHONPATH=docs/example_plugin python scripts/update_manifests.py [--check]``
with the core and every plugin importable. It loads every plugin's hook module in-process (in entry-point name order,
as discovery does; in-process plugins need no manifest), and for each
``plugins/*/pyproject.toml`` (and the example plugin's) keeps the tag entries (a vendor or name prefix the plugin's
author chooses) and writes every other entry from :func:`tcfg.testing.manifest`.
``--check`` writes nothing and exits 1 when a manifest would change. ``tests/test_lazy_loading.py`` checks the same.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path
from typing import Any

import tomllib

import tcfg
from tcfg.testing import manifest

ROOT = Path(__file__).resolve().parent.parent
HEADER = '[project.entry-points."tcfg.provides"]'


def entry_points(pyproject: Path) -> dict[str, Any]:
    """The ``[project.entry-points]`` tables of ``pyproject``."""
    points: dict[str, Any] = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["entry-points"]
    return points


def in_process(pyprojects: list[Path]) -> tcfg.Registry:
    """A registry of every plugin's hook module, loaded in-process in entry-point name order."""
    hooks = sorted(item for path in pyprojects for item in entry_points(path)["tcfg"].items())
    return tcfg.Registry([importlib.import_module(module) for _, module in hooks], autoload=False)


def rewritten(pyproject: Path, registry: tcfg.Registry) -> str:
    """The text of ``pyproject`` with its ``tcfg.provides`` section holding the plugin's entries."""
    text = pyproject.read_text(encoding="utf-8")
    points = entry_points(pyproject)
    ((_, module),) = points["tcfg"].items()
    tags = sorted(entry for entry in points["tcfg.provides"] if entry.startswith("tag."))
    entries = sorted([*manifest(module, registry), *tags])
    start = text.index(HEADER)
    body = text[start + len(HEADER) :]
    end = re.search(r"^\[", body, flags=re.MULTILINE)
    comments = "".join(line + "\n" for line in body.splitlines() if line.startswith("#"))
    lines = "".join(f'"{entry}" = "{module}"\n' for entry in entries)
    rest = "" if end is None else "\n" + body[end.start() :]
    return text[:start] + HEADER + "\n" + comments + lines + rest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a manifest would change")
    args = parser.parse_args()
    changed = []
    pyprojects = [*sorted(ROOT.glob("plugins/*/pyproject.toml")), ROOT / "docs/example_plugin/pyproject.toml"]
    registry = in_process(pyprojects)
    for pyproject in pyprojects:
        new = rewritten(pyproject, registry)
        if new != pyproject.read_text(encoding="utf-8"):
            changed.append(pyproject.relative_to(ROOT))
            if not args.check:
                pyproject.write_text(new, encoding="utf-8")
    for path in changed:
        print(f"{'would change' if args.check else 'rewrote'} {path}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
