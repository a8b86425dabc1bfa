"""In-process plugins used by the core's tests: a kind with every attribute type, a BYOC
compiler, features with aliases, a CPU sub-parser and tags."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tcfg.plugin import (
    Attr,
    AttributeValueError,
    Boolean,
    Choice,
    Compiler,
    CpuParser,
    Derived,
    DeriveRequest,
    Feature,
    Integer,
    LLVMCodegen,
    String,
    StringList,
    TargetKind,
    TargetValue,
    hookimpl,
)


def _parse_accel(request: DeriveRequest) -> Derived:
    attrs = dict(request.attrs)
    gen = attrs.get("gen")
    if gen is None:
        return Derived(keys=("accel",))
    if gen > 3:
        raise AttributeValueError(f"-gen={gen}: the accelerator has generations 1 to 3")
    attrs.setdefault("lanes", 8 * gen)
    features: dict[str, Any] = {"vector_lanes": attrs["lanes"]}
    why = {"vector_lanes": f"-gen={gen} has {8 * gen} lanes unless -lanes says otherwise"}
    if gen >= 2:
        features["int8_dot"] = True
        why["int8_dot"] = f"-gen={gen} (generation 2 and later)"
    return Derived(attrs=attrs, keys=("accel", f"accel_gen{gen}"), features=features, why=why)


def _parse_turbo(request: DeriveRequest) -> Derived:
    if request.attrs.get("turbo_level", 1) > 1 and not request.features.get("int8_dot"):
        raise AttributeValueError("turbo levels above 1 need generation 2 or later")
    return Derived(keys=("turbo",), features={"turbo_ready": True})


ACCEL = TargetKind(
    name="accel",
    device_type="accel",
    attrs=(
        Attr("gen", Integer(minimum=1), doc="Hardware generation."),
        Attr("lanes", Integer(minimum=1), doc="Vector lanes."),
        Attr("mode", Choice(("fast", "exact")), default="exact", doc="Numerics."),
        Attr("ecc", Boolean(), default=True, doc="Error-correcting memory."),
        Attr("units", StringList(), doc="Functional units."),
        Attr("label", String(), doc="Free text."),
        Attr("peer", TargetValue(), doc="A peer target."),
    ),
    default_keys=("accel", "device"),
    parser=_parse_accel,
    features=(
        Feature("vector_lanes", "Number of vector lanes."),
        Feature("int8_dot", "8-bit dot products.", aliases=("has_int8_dot", "dot-i8")),
    ),
    doc="A test accelerator.",
)

TURBO = Compiler(
    name="turbo",
    kinds=("accel",),
    attrs=(Attr("turbo_level", Integer(minimum=1, maximum=3), default=1, doc="Aggressiveness."),),
    parser=_parse_turbo,
    features=(Feature("turbo_ready", "The turbo compiler accepts this target."),),
)


class AccelPlugin:
    """Registers the accel kind, the turbo compiler and two tags."""

    tcfg_plugin_name = "accel"

    @hookimpl
    def tcfg_register_kinds(self, register: Callable[[TargetKind], None]) -> None:
        register(ACCEL)

    @hookimpl
    def tcfg_register_compilers(self, register: Callable[[Compiler], None]) -> None:
        register(TURBO)

    @hookimpl
    def tcfg_register_tags(self, register: Any) -> None:
        register("acme/a2", {"kind": "accel", "gen": 2}, description="Acme A2", source="test")
        register("acme/a2,board-1.0", {"tag": "acme/a2", "host": "llvm -mtriple=x86_64-linux-gnu"})

    @hookimpl
    def tcfg_codegen(self, target: Any) -> Any:
        return None


class ToyCpuParser(CpuParser):
    """Claims riscv64 triples and 'toy-*' CPUs; 'toy-v' has vectors."""

    name = "toy"
    arches = ("riscv64",)
    features = (Feature("toy_vector", "Vectors.", aliases=("has_toy_vector",)),)

    def claims_cpu(self, mcpu: str) -> bool:
        return mcpu.startswith("toy-")

    def cpu_names(self) -> list[str]:
        return ["toy-generic", "toy-v"]

    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        attrs = dict(request.attrs)
        cpu = attrs.get("mcpu", "toy-generic")
        if cpu not in ("toy-generic", "toy-v"):
            raise AttributeValueError(f"unknown toy CPU {cpu!r}")
        attrs.setdefault("mtriple", "riscv64-unknown-linux-gnu")
        feats = {"toy_vector": True} if cpu == "toy-v" else {}
        return Derived(attrs=attrs, keys=("toy_cpu",), features=feats, why={"toy_vector": f"-mcpu={cpu}"})


class ToyCpuPlugin:
    tcfg_plugin_name = "toy"

    @hookimpl
    def tcfg_register_cpu_parsers(self, register: Callable[[CpuParser], None]) -> None:
        register(ToyCpuParser())

    @hookimpl
    def tcfg_codegen(self, target: Any) -> Any:
        if target.kind.name == "llvm" and "toy_cpu" in target.keys:
            return LLVMCodegen(triple=target.attrs["mtriple"], cpu=target.attrs.get("mcpu", "generic"))
        return None


class LabelPlugin:
    """Adds a feature to every llvm target through tcfg_derive_target."""

    tcfg_plugin_name = "label"

    @hookimpl
    def tcfg_register_features(self, register: Callable[[Feature], None]) -> None:
        register(Feature("labelled", "The target carries a -model.", aliases=("has_label",)))

    @hookimpl
    def tcfg_derive_target(self, request: DeriveRequest) -> Derived | None:
        if request.kind == "llvm" and "model" in request.attrs:
            return Derived(keys=("labelled",), features={"labelled": True}, why={"labelled": "-model is set"})
        return None


def plugin_with(name: str, **hooks: Callable[..., Any]) -> object:
    """A plugin object named ``name`` whose hooks are the given functions."""
    namespace: dict[str, Any] = {"tcfg_plugin_name": name}
    for hook, function in hooks.items():
        namespace[hook] = staticmethod(hookimpl(function))
    return type(f"Plugin_{name}", (), namespace)()
