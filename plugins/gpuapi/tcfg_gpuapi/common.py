"""Checks every GPU API kind of this plugin makes: the host is a CPU, thread limits agree."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tcfg.plugin import AttributeValueError

__all__ = ["check_cpu_host", "check_threads"]


def check_cpu_host(kind: str, host: Any) -> None:
    """Refuse a host that is not a CPU target: it runs the host side of the device's code."""
    if host is None or host.kind.device_type == "cpu":
        return
    raise AttributeValueError(
        f"-host={host}: the host of a {kind} target runs its host-side code, so it must be a CPU target "
        f"(such as llvm or c); kind {host.kind.name!r} is a {host.kind.device_type} device"
    )


def check_threads(attrs: Mapping[str, Any]) -> None:
    """Refuse ``max_num_threads`` above ``max_threads_per_block`` (where the kind has both)."""
    threads, most = attrs.get("max_num_threads"), attrs.get("max_threads_per_block")
    if threads is not None and most is not None and threads > most:
        raise AttributeValueError(f"-max_num_threads={threads} exceeds -max_threads_per_block={most}")
