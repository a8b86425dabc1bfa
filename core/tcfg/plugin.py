"""Everything a plugin author imports: the hook marker, the types hooks register and return,
and the helpers for clear errors. Plugins import from here (and from ``tcfg``) only.

See :mod:`tcfg.hookspecs` for the hooks and ``docs/plugins.md`` for a guide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from tcfg._base_errors import AttributeValueError, TargetError, closest, describe_choices
from tcfg._base_features import Feature, FeatureValue, feature_name
from tcfg._base_files import package_json
from tcfg._base_hooks import hookimpl
from tcfg._model_components import Component
from tcfg._model_cpu import CPU_ATTRS, CpuParser, arch_family, host_triple
from tcfg._model_kind import Compiler, Derived, DeriveRequest, Library, TargetKind
from tcfg._model_schema import (
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
from tcfg._model_target import Target
from tcfg.hookspecs import TagRegistrar, TagSpec

if TYPE_CHECKING:
    from tcfg._model_codegen import Codegen, LLVMCodegen

__all__ = [
    "CPU_ATTRS",
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
    "NamedTuple",
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
        from tcfg import _model_codegen

        value = getattr(_model_codegen, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tcfg.plugin' has no attribute {name!r}")
