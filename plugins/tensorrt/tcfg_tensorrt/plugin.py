"""The hook implementations of the tensorrt plugin: the ``tensorrt`` compiler, its codegen, tags.

Importing this module reads no data and imports no TensorRT: the support tables are
read when the registry first loads, and ``tensorrt`` only by the functions that use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tcfg.plugin import Compiler, TagRegistrar, Target, hookimpl

if TYPE_CHECKING:
    from tcfg.plugin import Codegen


@hookimpl
def tcfg_register_compilers(register: Callable[[Compiler], None]) -> None:
    from tcfg_tensorrt.byoc import make_compiler

    register(make_compiler())


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_cuda import gpu_tags
    from tcfg_tensorrt.tags import trt_tags

    hosts = {
        tag.name: tag.config["host"] for tag in gpu_tags() if isinstance(tag.config, dict) and "host" in tag.config
    }
    for tag in trt_tags(hosts):
        register(tag)


@hookimpl(tryfirst=True)
def tcfg_codegen(target: Target) -> Codegen | None:
    """The TensorRT codegen for ``cuda`` targets with ``-compiler=tensorrt``; None for others."""
    if target.kind.name != "cuda" or target.attrs.get("compiler") != "tensorrt":
        return None
    from tcfg_tensorrt.codegen import codegen_for

    return codegen_for(target)
