"""The x86 plugin's BYOC compiler ``dnnl`` (oneDNN) and the ``-libs`` libraries of x86 ``llvm``/``c`` targets.

The facts (which architecture family, which CPU feature) are in ``data/byoc.json`` with
their sources. A rule reads the target's triple (this machine's, when the target has
none) and the features the x86 CPU parser derived; a target of another architecture,
or an x86 CPU without the needed feature, is refused with the reason and where the
compiler or library is valid.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from tcfg.plugin import (
    AttributeValueError,
    Compiler,
    Derived,
    DeriveRequest,
    Library,
    arch_family,
    host_triple,
    package_json,
)

__all__ = ["compilers", "libraries"]

#: The kinds the compiler and the libraries are registered for.
KINDS = ("llvm", "c")


@functools.cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_x86", "data/byoc.json")
    return data


def refusal(name: str, request: DeriveRequest) -> str | None:
    """Why ``name`` (a key of the data's ``requirements``) cannot serve this target, or None."""
    need = _data()["requirements"][name]
    triple = request.attrs.get("mtriple") or host_triple()
    family = arch_family(triple)
    source = _data()["sources"][need["source"]]
    cite = f"(source: {source['title']}, {source['date']})"
    if family not in need["arches"]:
        return f"{name} runs on {need['where']}, and this target's triple {triple!r} is {family} {cite}"
    feature = need["feature"]
    if feature is not None and not request.features.get(feature):
        cpu = request.attrs.get("mcpu", "generic")
        return f"{name} needs {feature.upper().replace('_', '.')}, which -mcpu={cpu} lacks {cite}"
    return None


def _parse_dnnl(request: DeriveRequest) -> Derived:
    reason = refusal("dnnl", request)
    if reason is not None:
        raise AttributeValueError(f"-compiler=dnnl: {reason}; valid on {_data()['requirements']['dnnl']['where']}")
    return _DNNL


_DNNL = Derived(keys=("dnnl",))


def compilers() -> tuple[Compiler, ...]:
    """The ``dnnl`` compiler (TVM's oneDNN BYOC) for ``llvm`` and ``c`` targets."""
    return (
        Compiler(
            "dnnl",
            KINDS,
            parser=_parse_dnnl,
            doc="oneDNN (formerly DNNL, MKL-DNN): convolutions, matmuls and fused operators on x86-64 CPUs.",
        ),
    )


def _rule(name: str) -> Callable[[DeriveRequest], str | None]:
    def rule(request: DeriveRequest) -> str | None:
        return refusal(name, request)

    return rule


def libraries() -> tuple[Library, ...]:
    """The ``-libs`` names of x86 ``llvm``/``c`` targets: mkl, dnnl, openblas."""
    docs = {"mkl": "Intel oneMKL (BLAS)", "dnnl": "oneDNN", "openblas": "OpenBLAS (BLAS)"}
    need = _data()["requirements"]
    return tuple(
        Library(name, KINDS, doc, rule=_rule(name), where=need[name]["where"], source=_data()["source"])
        for name, doc in docs.items()
    )
