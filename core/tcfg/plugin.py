"""Everything a plugin author imports: the hook marker, the types hooks register and return,
and the helpers for clear errors. Plugins import from here (and from ``tcfg``) only.

See :mod:`tcfg.hookspecs` for the hooks and ``docs/plugins.md`` for a guide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

from tcfg._base.errors import AttributeValueError, TargetError, closest, describe_choices
from tcfg._base.files import package_json
from tcfg._base.recordings import SOURCES as DETECT_SOURCES
from tcfg._model.attrs import (
    Attr,
    AttrType,
    Boolean,
    BuildContext,
    Choice,
    Integer,
    IntegerChoice,
    InvalidValue,
    LongValue,
    String,
    StringList,
    TargetList,
    TargetValue,
)
from tcfg._model.components import Component
from tcfg._model.cpu import CPU_ATTRS, CpuParser, arch_family, host_triple
from tcfg._model.features import Feature, FeatureValue, feature_name
from tcfg._model.kind import Compiler, Derived, DeriveRequest, Library, TargetKind
from tcfg._model.target import Target
from tcfg.hookspecs import TagRegistrar, TagSpec

if TYPE_CHECKING:
    from tcfg._model.codegen import Codegen, LLVMCodegen

#: Marks a plugin's hook implementation: ``@hookimpl def tcfg_register_kinds(register): ...``
#: (pluggy's marker for the project ``tcfg``; ``tryfirst``, ``trylast``, ``specname`` as in pluggy).
hookimpl = pluggy.HookimplMarker("tcfg")

__all__ = [
    "CPU_ATTRS",
    "DETECT_SOURCES",
    "Attr",
    "AttrType",
    "AttributeValueError",
    "Boolean",
    "BuildContext",
    "Choice",
    "Codegen",
    "Compiler",
    "Component",
    "CpuParser",
    "DeriveRequest",
    "Derived",
    "Feature",
    "FeatureValue",
    "Integer",
    "IntegerChoice",
    "InvalidValue",
    "LLVMCodegen",
    "Library",
    "LongValue",
    "String",
    "StringList",
    "TagRegistrar",
    "TagSpec",
    "Target",
    "TargetError",
    "TargetKind",
    "TargetList",
    "TargetValue",
    "arch_family",
    "closest",
    "describe_choices",
    "feature_name",
    "hookimpl",
    "host_triple",
    "package_json",
]


def __getattr__(name: str) -> Any:
    """``Codegen`` and ``LLVMCodegen``, imported on first use (codegen is not on the start-up path)."""
    if name in ("Codegen", "LLVMCodegen"):
        from tcfg._model import codegen

        value = getattr(codegen, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tcfg.plugin' has no attribute {name!r}")
