"""The core's own plugin: the ``llvm``, ``c`` and ``composite`` kinds, executors, runtimes, generic LLVM codegen."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tcfg._builtin.composite import COMPOSITE, EXECUTORS, RUNTIMES
from tcfg._model.attrs import Attr, Boolean, Choice, Integer, String, StringList
from tcfg._model.components import Component
from tcfg._model.cpu import CPU_ATTRS, cpu_portable, host_triple, parse_cpu_target
from tcfg._model.kind import TargetKind
from tcfg._model.target import Target
from tcfg.plugin import hookimpl

if TYPE_CHECKING:
    from tcfg._model.codegen import Codegen

_MATTR = StringList(String(r"[+-][A-Za-z0-9_.\-]+", "+feature or -feature"))
_FLOAT_ABI = Choice(("soft", "softfp", "hard"))

_CPU_ATTRS = (
    Attr("mtriple", String(r"[A-Za-z0-9_.]+(-[A-Za-z0-9_.]*)*", "an LLVM triple"), doc="LLVM target triple."),
    Attr(
        "mcpu",
        String(r"[A-Za-z0-9_.\-+]+", "a CPU name"),
        doc="CPU name, as -mcpu for clang and llc; 'native' for this machine.",
    ),
    Attr(
        "march",
        String(r"[A-Za-z0-9_.\-+]+", "an architecture"),
        doc="Architecture with extensions, as clang's -march.",
    ),
    Attr("mattr", _MATTR, doc="LLVM target features to add (+x) or remove (-x)."),
    Attr("mabi", String(), doc="ABI name, as llc -target-abi."),
    Attr("mfloat-abi", _FLOAT_ABI, doc="Floating-point ABI."),
)

#: TVM's fine-grained fast-math flags of the llvm kind: (suffix, the LLVM fast-math flag's meaning).
_FAST_MATH_FLAGS = (
    ("nnan", "assume no NaN arguments or results"),
    ("ninf", "assume no infinite arguments or results"),
    ("nsz", "ignore the sign of zero"),
    ("arcp", "allow reciprocals instead of division"),
    ("contract", "allow floating-point contraction (fused multiply-add)"),
    ("reassoc", "allow reassociation"),
)

LLVM = TargetKind(
    name="llvm",
    device_type="cpu",
    dlpack_device_type=1,  # kDLCPU
    attrs=(
        *_CPU_ATTRS,
        Attr("num-cores", Integer(minimum=1), doc="Number of cores to parallelise over."),
        Attr("opt-level", Integer(minimum=0, maximum=3), doc="LLVM optimisation level (default 2)."),
        Attr("fast-math", Boolean(), default=False, doc="Allow fast-math floating-point transformations (all flags)."),
        *(
            Attr(f"fast-math-{flag}", Boolean(), doc=f"LLVM fast-math flag {flag}: {meaning} (TVM's option).")
            for flag, meaning in _FAST_MATH_FLAGS
        ),
        Attr("vector-width", Integer(minimum=1), doc="Preferred vector width in bits."),
        Attr("jit", Choice(("mcjit", "orcjit")), doc="The LLVM JIT engine that runs the code in-process (TVM's)."),
        Attr(
            "cl-opt",
            StringList(String(r"[A-Za-z0-9_.\-]+(:[A-Za-z]+)?(=[^,]*)?", "an LLVM option: name[:type][=value]")),
            doc="LLVM command-line options to set for code generation, as TVM's -cl-opt.",
        ),
    ),
    default_keys=("cpu",),
    parser=parse_cpu_target,
    parse_reads=CPU_ATTRS,
    portable=cpu_portable,
    doc="A CPU, compiled through LLVM.",
)

C = TargetKind(
    name="c",
    device_type="cpu",
    dlpack_device_type=1,  # kDLCPU
    attrs=(
        *_CPU_ATTRS,
        Attr("workspace-byte-alignment", Integer(minimum=1), doc="Alignment of workspace buffers in bytes."),
        Attr("constants-byte-alignment", Integer(minimum=1), doc="Alignment of constant buffers in bytes."),
    ),
    default_keys=("cpu",),
    parser=parse_cpu_target,
    portable=cpu_portable,
    parse_reads=tuple(attr.name for attr in _CPU_ATTRS),  # CPU_ATTRS but vector-width, which c lacks
    doc="A CPU, compiled through generated C source (microcontrollers included).",
)


@hookimpl
def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
    for kind in (LLVM, C, COMPOSITE):
        register(kind)


@hookimpl
def tcfg_register_executors(register: Callable[[Component], None]) -> None:
    for executor in EXECUTORS:
        register(executor)


@hookimpl
def tcfg_register_runtimes(register: Callable[[Component], None]) -> None:
    for runtime in RUNTIMES:
        register(runtime)


@hookimpl(trylast=True)
def tcfg_codegen(target: Target) -> Codegen | None:
    """LLVM flags as given, for CPU targets that no vendor plugin handles."""
    if target.kind.name not in ("llvm", "c"):
        return None
    from tcfg._model.codegen import LLVMCodegen  # codegen is not on the start-up path

    attrs = target.attrs
    return LLVMCodegen(
        triple=attrs.get("mtriple") or host_triple(),
        cpu=attrs.get("mcpu") or "generic",
        features=tuple(attrs.get("mattr", ())),
        float_abi=attrs.get("mfloat-abi"),
        opt_level=attrs.get("opt-level", 2),
        notes=("no installed plugin knows this architecture: features are passed through as given",),
    )


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """A composite runs on a composite each of whose devices runs one of the composite's devices."""
    if code.kind.name != "composite":
        return None
    if machine.kind.name != "composite":
        return False
    devices = code.attrs["devices"]
    return all(any(device.runs_on(found) for device in devices) for found in machine.attrs["devices"])
