"""The TensorRT version installed on this machine, if any, without loading CUDA.

When the ``tensorrt`` module can be found, the version comes from the package
metadata of the ``tensorrt`` Python distributions (``tensorrt``, ``tensorrt-cu13``,
``tensorrt-cu12``); only when the module carries no metadata (JetPack's Debian
packages) is it imported to read ``tensorrt.__version__``. Without the module,
``importlib.metadata`` (slow to import) is not touched.
"""

from __future__ import annotations

import functools
import re

__all__ = ["installed_version"]

_DISTRIBUTIONS = ("tensorrt", "tensorrt-cu13", "tensorrt-cu12", "tensorrt-cu11")
_LEADING = re.compile(r"([0-9]+)\.([0-9]+)(?:\.([0-9]+))?")


def _major_minor_patch(text: str) -> str | None:
    match = _LEADING.match(text)
    if match is None:
        return None
    patch = int(match[3] or 0)
    return f"{match[1]}.{match[2]}.{patch}" if patch else f"{match[1]}.{match[2]}"


@functools.cache
def installed_version() -> str | None:
    """``"10.3"`` or ``"11.4.1"`` for the installed TensorRT, or None when there is none."""
    from importlib import util

    if util.find_spec("tensorrt") is None:
        return None
    from importlib import metadata

    for dist in _DISTRIBUTIONS:
        try:
            return _major_minor_patch(metadata.version(dist))
        except metadata.PackageNotFoundError:
            continue
    import tensorrt

    return _major_minor_patch(str(tensorrt.__version__))
