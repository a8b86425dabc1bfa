"""Registers a valid tag and an invalid one: the invalid one fails when it is looked up."""

from typing import Any

from tcfg.plugin import hookimpl


@hookimpl
def tcfg_register_tags(register: Any) -> None:
    register("invalid/good", {"kind": "llvm", "mtriple": "loongarch64-linux-gnu"})
    register("invalid/bad", {"kind": "llvm", "num-cores": "four"})
