"""The ``composite`` kind: a host, devices (composite themselves or not), an executor and a runtime.

Executors and runtimes belong here, not on leaf kinds. The core registers TVM's
executors ``graph``, ``vm`` and ``aot`` and runtimes ``cpp`` and ``crt``, with TVM's
options; plugins add more with ``tcfg_register_executors`` / ``tcfg_register_runtimes``
(the cuda plugin's ``cuda-graph`` runtime), whose rules the composite's parser applies.
"""

from __future__ import annotations

from functools import partial

from tcfg._base.errors import AttributeValueError, plugin_code
from tcfg._model.attrs import Attr, Boolean, Choice, Integer, TargetList
from tcfg._model.components import ROLES, Component, ComponentType
from tcfg._model.kind import Derived, DeriveRequest, TargetKind
from tcfg._model.portable import none, vocabulary

__all__ = ["COMPOSITE", "EXECUTORS", "RUNTIMES"]


_COMPOSITE = Derived(keys=("composite",))


def _parse_composite(request: DeriveRequest) -> Derived:
    """Refuse a composite without devices, or one whose executor or runtime's rule refuses it."""
    if not request.attrs.get("devices"):
        raise AttributeValueError("a composite target needs at least one target in -devices")
    for role in ROLES:
        chosen = request.attrs.get(role)
        if chosen is None:
            continue
        spec = request.registry.components(role)[chosen.name]
        rule, what = spec.rule, f"the rule of the {role} {chosen.name!r}"
        reason = None if rule is None else plugin_code(partial(str, what), partial(rule, request))
        if reason is not None:
            raise AttributeValueError(f"-{role}={chosen.name}: {reason}")
    return _COMPOSITE


COMPOSITE = TargetKind(
    name="composite",
    device_type="composite",
    dlpack_device_type=1,  # kDLCPU: TVM runs a composite on its host
    attrs=(
        Attr("devices", TargetList(), doc="The device targets (composite ones included)."),
        Attr("executor", ComponentType("executor"), doc="What drives the program: graph, vm, aot, ..."),
        Attr("runtime", ComponentType("runtime"), doc="The runtime linked with it: cpp, crt, ..."),
    ),
    parser=_parse_composite,
    portable=lambda target: none(
        "a composite is a system of several targets: read the portable names of its host and devices", vocabulary()
    ),
    doc="A system: a host, its devices, an executor and a runtime. Composites nest.",
)

_ALIGN = Integer(minimum=1)

EXECUTORS = (
    Component(
        "graph",
        (Attr("link-params", Boolean(), default=False, doc="Embed parameters in the module."),),
        doc="TVM's graph executor: a static graph of operator calls.",
    ),
    Component("vm", doc="TVM's virtual machine: bytecode with dynamic shapes and control flow."),
    Component(
        "aot",
        (
            Attr(
                "interface-api",
                Choice(("packed", "c")),
                default="packed",
                doc="The entry point's calling convention.",
            ),
            Attr("unpacked-api", Boolean(), default=False, doc="Call operators with plain C arguments."),
            Attr("workspace-byte-alignment", _ALIGN, doc="Alignment of workspace buffers."),
            Attr("constant-byte-alignment", _ALIGN, doc="Alignment of constant buffers."),
            Attr("link-params", Boolean(), default=False, doc="Embed parameters in the module."),
        ),
        doc="Ahead-of-time: the whole program compiled to one function.",
    ),
)

RUNTIMES = (
    Component(
        "cpp",
        (Attr("system-lib", Boolean(), default=False, doc="Register functions in a system library."),),
        doc="The C++ runtime.",
    ),
    Component(
        "crt",
        (Attr("system-lib", Boolean(), default=False, doc="Register functions in a system library."),),
        doc="The C runtime, for microcontrollers.",
    ),
)
