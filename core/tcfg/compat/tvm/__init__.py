"""TVM's Python ``tvm.target`` surface over tcfg: change one import, keep the code.

``from tcfg.compat import tvm as target`` where a program had ``from tvm import target``:
``target.Target("cuda -arch=sm_80")``, ``Target.canon_target_and_host(...)``,
``Target.current(allow_none=False)``, ``t.mcpu``, ``t.max_num_threads``, the helpers
``target.cuda()``, ``target.arm_cpu("rasp4b")``, ... and ``target.codegen.llvm_cpu_has_features``
answer as TVM 0.23 does, from tcfg's tables (LLVM 22's facts), without importing TVM.
Where TVM's answer is wrong (a feature LLVM removed, ``+64bit`` on riscv32), tcfg keeps
the truth; docs/from-tvm.md lists each difference and why.
"""

from __future__ import annotations

from tcfg.compat.tvm import codegen, detect_target, tag
from tcfg.compat.tvm.codegen import llvm_cpu_has_features, target_has_features
from tcfg.compat.tvm.generic import GenericFunc, generic_func, get_native_generic_func, override_native_generic_func
from tcfg.compat.tvm.helpers import (
    adreno,
    arm_cpu,
    bifrost,
    cuda,
    hexagon,
    intel_graphics,
    mali,
    rasp,
    riscv_cpu,
    rocm,
    stm32,
)
from tcfg.compat.tvm.target import Target, TargetKind, list_tags, register_tag

__all__ = [
    "GenericFunc",
    "Target",
    "TargetKind",
    "adreno",
    "arm_cpu",
    "bifrost",
    "codegen",
    "detect_target",
    "cuda",
    "generic_func",
    "get_native_generic_func",
    "hexagon",
    "intel_graphics",
    "list_tags",
    "llvm_cpu_has_features",
    "mali",
    "override_native_generic_func",
    "rasp",
    "register_tag",
    "riscv_cpu",
    "rocm",
    "stm32",
    "tag",
    "target_has_features",
]
