"""Registers a kind, then its tag hook raises: nothing of it may remain."""

from typing import Any

from tcfg.plugin import TargetKind, hookimpl


@hookimpl
def tcfg_register_kinds(register: Any) -> None:
    register(TargetKind("raising-kind", "cpu"))


@hookimpl
def tcfg_register_tags(register: Any) -> None:
    raise RuntimeError("the tag table is corrupt")
