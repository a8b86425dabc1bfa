"""The TensorRT support tables (``data/tensorrt.json``), loaded once on first use.

Versions are ``MAJOR.MINOR`` or ``MAJOR.MINOR.PATCH`` text; :func:`parse_version`
turns them into comparable tuples. Devices are keyed by compute capability
(``"8.7"``); :func:`device` answers what a TensorRT version can build for one.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from tcfg.plugin import AttributeValueError, package_json

__all__ = [
    "DeviceFacts",
    "Version",
    "cite",
    "data",
    "device",
    "format_version",
    "parse_version",
]

#: A TensorRT version as ``(major, minor, patch)``.
Version = tuple[int, int, int]

_VERSION = re.compile(r"([0-9]+)\.([0-9]+)(?:\.([0-9]+))?\Z")


@functools.cache
def data() -> dict[str, Any]:
    """The parsed data file (read once)."""
    loaded: dict[str, Any] = package_json("tcfg_tensorrt", "data/tensorrt.json")
    return loaded


def format_version(version: Version) -> str:
    """``(10, 3, 0)`` as ``"10.3"``; a non-zero patch is kept (``"11.4.1"``)."""
    major, minor, patch = version
    return f"{major}.{minor}.{patch}" if patch else f"{major}.{minor}"


@functools.cache
def parse_version(text: str) -> Version:
    """A known TensorRT version as a tuple; unknown majors or too-new minors are refused."""
    match = _VERSION.match(text)
    if match is None:
        raise AttributeValueError(
            f"-trt_version={text}: expected MAJOR.MINOR or MAJOR.MINOR.PATCH, such as 10.3 or 11.4.1"
        )
    major, minor, patch = int(match[1]), int(match[2]), int(match[3] or 0)
    releases = data()["releases"]
    known = releases.get(str(major))
    if known is None:
        raise AttributeValueError(
            f"-trt_version={text}: TensorRT {major}.x is not modelled; this plugin knows "
            + " and ".join(f"{m}.0 to {m}.{r['latest_minor']}" for m, r in releases.items())
        )
    if minor > known["latest_minor"]:
        raise AttributeValueError(
            f"-trt_version={text}: the newest TensorRT {major}.x these tables know is "
            f"{major}.{known['latest_minor']} (compiled {data()['compiled']}); its rules for {text} are unknown"
        )
    return (major, minor, patch)


def cite(keys: list[str]) -> str:
    """The titles and addresses of the sources named by ``keys``."""
    sources = data()["sources"]
    return "; ".join(f"{sources[k]['title']} <{sources[k]['url']}>" for k in keys)


def _in_ranges(version: Version, ranges: list[dict[str, Any]]) -> dict[str, Any] | None:
    for span in ranges:
        low = parse_version(span["from"])
        high = span["to"]
        if version >= low and (high is None or version <= _upper(parse_version(high))):
            return span
    return None


def _upper(version: Version) -> Version:
    """``"10.7"`` as an upper bound covers every 10.7.x patch release."""
    major, minor, patch = version
    return (major, minor, patch if patch else 1 << 30)


class DeviceFacts(NamedTuple):
    """What one TensorRT version offers on one compute capability."""

    compute_capability: str
    example: str
    supported: bool
    reason: str
    precisions: frozenset[str]
    dla_cores: int
    dla_supported: bool
    dla_reason: str
    sparsity: bool
    sources: str


@functools.cache
def device(compute_capability: str, version: Version) -> DeviceFacts:
    """The facts for ``compute_capability`` (``"8.7"``) under TensorRT ``version``."""
    row = data()["devices"].get(compute_capability)
    shown = format_version(version)
    if row is None:
        reason = f"{data()['older_reason']}; compute capability {compute_capability} is not in its support matrix"
        return DeviceFacts(compute_capability, "", False, reason, frozenset(), 0, False, "", False, "")
    named = f"compute capability {compute_capability} ({row['example']})"
    span = _in_ranges(version, row["support"])
    reason = "" if span else f"TensorRT {shown} does not support {named}: {row['unsupported_reason']}"
    dla_span = _in_ranges(version, row.get("dla_support", [])) if row["dla_cores"] else None
    if not row["dla_cores"]:
        dla_reason = f"{named} has no DLA; only Jetson Xavier (7.2) and Orin (8.7) do"
    elif dla_span is None:
        dla_reason = f"TensorRT {shown} has no DLA support for {row['example']}: {row['dla_unsupported_reason']}"
    else:
        dla_reason = ""
    keys = list(dict.fromkeys([*row["sources"], *(span["sources"] if span else [])]))
    return DeviceFacts(
        compute_capability=compute_capability,
        example=row["example"],
        supported=span is not None,
        reason=reason,
        precisions=frozenset(row["precisions"]),
        dla_cores=row["dla_cores"],
        dla_supported=dla_span is not None,
        dla_reason=dla_reason,
        sparsity=row["sparsity"],
        sources=cite(keys),
    )
