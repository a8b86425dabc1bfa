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
from tcfg._model.portable import CPU_ONLY, FORMATS, GPU_ONLY, MATRIX, Answer, Answers, from_attrs, from_vendor, none
from tcfg._model.target import Target
from tcfg.hookspecs import TagRegistrar, TagSpec

if TYPE_CHECKING:
    from tcfg._model.codegen import Codegen, LLVMCodegen
    from tcfg._model.compilers import compensate, first_knowing, gcc_cpu_options, require_known, without_opt_level
    from tcfg._model.compilers import drift as compiler_drift
    from tcfg._model.compilers import known_names as compiler_names
    from tcfg._model.compilers import knows as compiler_knows
    from tcfg._model.compilers import undo as undo_drift
    from tcfg._model.compilers import versions as compiler_versions
    from tcfg._model.cpu_runs import cpu_runs_on

#: Marks a plugin's hook implementation: ``@hookimpl def tcfg_register_kinds(register): ...``
#: (pluggy's marker for the project ``tcfg``; ``tryfirst``, ``trylast``, ``specname`` as in pluggy).
hookimpl = pluggy.HookimplMarker("tcfg")

__all__ = [
    "CPU_ONLY",
    "FORMATS",
    "GPU_ONLY",
    "MATRIX",
    "Answer",
    "Answers",
    "from_attrs",
    "from_vendor",
    "none",
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
    "compensate",
    "compiler_drift",
    "compiler_knows",
    "compiler_names",
    "compiler_versions",
    "cpu_runs_on",
    "describe_choices",
    "feature_name",
    "first_knowing",
    "gcc_cpu_options",
    "hookimpl",
    "host_triple",
    "package_json",
    "require_known",
    "undo_drift",
    "without_opt_level",
]

#: Names imported on first use, and the ``tcfg._model`` module and name each is.
_LAZY = {
    "Codegen": ("codegen", "Codegen"),
    "LLVMCodegen": ("codegen", "LLVMCodegen"),
    "compensate": ("compilers", "compensate"),
    "compiler_drift": ("compilers", "drift"),
    "compiler_knows": ("compilers", "knows"),
    "compiler_names": ("compilers", "known_names"),
    "compiler_versions": ("compilers", "versions"),
    "cpu_runs_on": ("cpu_runs", "cpu_runs_on"),
    "first_knowing": ("compilers", "first_knowing"),
    "gcc_cpu_options": ("compilers", "gcc_cpu_options"),
    "undo_drift": ("compilers", "undo"),
    "require_known": ("compilers", "require_known"),
    "without_opt_level": ("compilers", "without_opt_level"),
}


def __getattr__(name: str) -> Any:
    """``Codegen``, ``LLVMCodegen`` and the compiler-version helpers, imported on first use (not at start-up)."""
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(f"tcfg._model.{module}"), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tcfg.plugin' has no attribute {name!r}")
