"""Everything a plugin author imports: the hook marker and the types hooks register.

See :mod:`tcfg.hookspecs` for the hooks and ``docs/plugins.md`` for a guide.
"""

from __future__ import annotations

import pluggy

from tcfg.codegen import Codegen, LLVMCodegen
from tcfg.components import Component
from tcfg.cpu import CpuParser, arch_family, host_triple
from tcfg.errors import AttributeValueError, TargetError
from tcfg.features import Feature
from tcfg.kind import Compiler, Derived, DeriveRequest, TargetKind
from tcfg.schema import Attr, AttrType, Boolean, Choice, Integer, String, StringList, TargetList, TargetValue

__all__ = [
    "Attr",
    "AttrType",
    "AttributeValueError",
    "Boolean",
    "Choice",
    "Codegen",
    "Compiler",
    "Component",
    "CpuParser",
    "DeriveRequest",
    "Derived",
    "Feature",
    "Integer",
    "LLVMCodegen",
    "String",
    "StringList",
    "TargetError",
    "TargetKind",
    "TargetList",
    "TargetValue",
    "arch_family",
    "hookimpl",
    "host_triple",
]

#: Marks a plugin's hook implementations: ``@hookimpl def tcfg_register_kinds(register): ...``
hookimpl = pluggy.HookimplMarker("tcfg")
