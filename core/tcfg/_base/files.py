"""Reading a package's data files: the one way plugins (and the core) load their JSON tables."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["package_json"]


def package_json(package: str, path: str) -> Any:
    """The JSON file ``path`` (``/``-separated, relative to the package's directory) of ``package``, parsed.

    Read with :mod:`importlib.resources`, so that a package installed in a zip file (or
    through any importer that serves resources) reads its tables as a wheel's does. A
    missing file raises :class:`FileNotFoundError`; ``package`` is imported if it is not.
    """
    resource = resources.files(package)
    for part in path.split("/"):
        resource = resource / part
    return json.loads(resource.read_text(encoding="utf-8"))
