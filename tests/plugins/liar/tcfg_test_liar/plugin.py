"""Declares the kind 'liar' in its manifest but also registers 'undeclared'."""

from typing import Any

from tcfg.plugin import TargetKind, hookimpl


@hookimpl
def tcfg_register_kinds(register: Any) -> None:
    register(TargetKind("liar", "cpu"))
    register(TargetKind("undeclared", "cpu"))
