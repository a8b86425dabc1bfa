"""Reading a package's data files: the one way plugins (and the core) load their JSON tables."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

__all__ = ["package_json"]


def package_json(package: str, path: str) -> Any:
    """The JSON file ``path`` (``/``-separated, relative to the package's directory) of ``package``, parsed.

    ``package`` must be imported (a plugin names itself, ``__package__``). The file is
    read straight from the package's directory, as installed wheels and editable
    installs have it, rather than through :mod:`importlib.resources`, whose import
    alone costs a fresh process several milliseconds.
    """
    anchor = sys.modules[package].__file__
    if anchor is None:
        raise FileNotFoundError(f"package {package!r} has no directory to read {path!r} from")
    with open(os.path.join(os.path.dirname(anchor), *path.split("/")), encoding="utf-8") as handle:
        return json.load(handle)
