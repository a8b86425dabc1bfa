"""TVM's string helpers (``cuda()``, ``rocm()``, ``mali()``, ``arm_cpu("rasp4b")``, ...): the target
each one makes in TVM v0.23, built by tcfg. The presets (board tables, STM32 series, Hexagon
versions and VTCM sizes) are TVM's, in ``data/tvm_compat.json``; ``options`` (a string or a
list of options) are added after the preset's, an option given twice kept once, as in TVM.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import tcfg
from tcfg._base.errors import describe_choices
from tcfg.compat.tvm.data import table
from tcfg.compat.tvm.target import Target

__all__ = [
    "adreno",
    "arm_cpu",
    "bifrost",
    "cuda",
    "hexagon",
    "intel_graphics",
    "mali",
    "rasp",
    "riscv_cpu",
    "rocm",
    "stm32",
]

Options = str | Sequence[str] | None


def _merge(opts: list[str], more: Options) -> list[str]:
    extra = more.split() if isinstance(more, str) else list(more or ())
    return opts + [o for o in extra if o not in opts]


def _make(head: str, opts: list[str]) -> Target:
    return Target(" ".join([head, *opts]))


def cuda(model: str = "unknown", arch: str | None = None, options: Options = None) -> Target:
    """A CUDA target (``-arch`` given or in ``options``; tcfg's default arch otherwise)."""
    opts = _merge([f"-model={model}"], options)
    if arch:
        opts = _merge([f"-arch={arch}"], opts)
    return _make("cuda", opts)


def rocm(model: str = "unknown", options: Options = None) -> Target:
    """A ROCm target."""
    return _make("rocm", _merge([f"-model={model}"], options))


def mali(model: str = "unknown", options: Options = None) -> Target:
    """An Arm Mali GPU through OpenCL."""
    return _make("opencl", _merge(["-device=mali", f"-model={model}"], options))


def bifrost(model: str = "unknown", options: Options = None) -> Target:
    """An Arm Mali GPU of the Bifrost architecture through OpenCL."""
    return _make("opencl", _merge(["-device=bifrost", f"-model={model}"], options))


def intel_graphics(model: str = "unknown", options: Options = None) -> Target:
    """An Intel GPU through OpenCL (16-wide subgroups)."""
    return _make("opencl", _merge(["-device=intel_graphics", f"-model={model}", "-thread_warp_size=16"], options))


def adreno(model: str = "unknown", options: Options = None, cfg: str | None = None, backend: str = "opencl") -> Target:
    """A Qualcomm Adreno GPU through OpenCL or Vulkan."""
    if backend not in ("opencl", "vulkan"):
        raise tcfg.TargetError(f"adreno(backend={backend!r}): the backend must be 'opencl' or 'vulkan'")
    keys = f"adreno,{backend},gpu" + (f",{cfg}" if cfg else "")
    return _make(backend, _merge(["-device=adreno", f"-keys={keys}", f"-model={model}"], options))


def arm_cpu(model: str = "unknown", options: Options = None) -> Target:
    """An Arm CPU: a board or phone TVM knows (``rasp4b``, ``pixel2``, ...), or ``-model=MODEL``."""
    preset = table()["helpers"]["arm_cpu"].get(model, [f"-model={model}"])
    return _make("llvm", _merge(["-keys=arm_cpu,cpu", "-device=arm_cpu", *preset], options))


def rasp(options: Options = None) -> Target:
    """A Raspberry Pi 3B (TVM's deprecated spelling of ``arm_cpu("rasp3b")``)."""
    return arm_cpu("rasp3b", options)


def riscv_cpu(model: str = "sifive-u54", options: Options = None) -> Target:
    """A RISC-V CPU: one TVM has a preset for, or ``-model=MODEL``."""
    preset = table()["helpers"]["riscv_cpu"].get(model, [f"-model={model}"])
    return _make("llvm", _merge(["-keys=arm_cpu,cpu", "-device=arm_cpu", *preset], options))


def stm32(series: str = "unknown", options: Options = None) -> Target:
    """An STM32 microcontroller series (``stm32H7xx``, ...) as a ``c`` target."""
    presets = table()["helpers"]["stm32"]
    if series not in presets:
        raise tcfg.TargetError(f"stm32({series!r}): not an STM32 series TVM knows; {describe_choices(series, presets)}")
    return _make("c", _merge(list(presets[series]), options))


def hexagon(cpu_ver: str = "v68", **kwargs: Any) -> Target:
    """A Hexagon DSP: ``cpu_ver`` (``v68``, ...), ``hvx`` (bytes: 0, 64 or 128), ``use_qfloat``,
    ``use_ieee_fp``, ``num_cores``, ``vtcm_capacity``, ``llvm_options``, as TVM's helper takes them."""
    helpers = table()["helpers"]
    version = cpu_ver[cpu_ver.find("v") :].lower() if "v" in cpu_ver else cpu_ver
    if version not in helpers["hexagon_versions"]:
        raise tcfg.TargetError(
            f"hexagon({cpu_ver!r}): not a Hexagon version; {describe_choices(version, helpers['hexagon_versions'])}"
        )
    arch = int(re.match(r"v(\d+)", version).group(1))  # type: ignore[union-attr]
    config: dict[str, Any] = {
        "hvx": 128,
        "llvm_options": None,
        "use_qfloat": arch >= 68,
        "use_ieee_fp": False,
        "vtcm_capacity": helpers["hexagon_vtcm"].get(version, 0),
        **kwargs,
    }
    if config["hvx"] not in (0, 64, 128):
        raise tcfg.TargetError(f"hexagon(hvx={config['hvx']!r}): the HVX length is 0, 64 or 128 bytes")
    mattr = [f"+hvx{version}", f"+hvx-length{config['hvx']}b"] if config["hvx"] else ["-hvx"]
    if arch >= 68:
        mattr += ["+hvx-qfloat" if config["use_qfloat"] else "-hvx-qfloat"]
        mattr += ["+hvx-ieee-fp" if config["use_ieee_fp"] else "-hvx-ieee-fp"]
    opts = ["-mtriple=hexagon", f"-mcpu=hexagon{version}", "-mattr=" + ",".join(mattr)]
    llvm_options = config["llvm_options"] or ""
    if arch == 68:
        llvm_options += " -force-hvx-float"
    if llvm_options.strip():
        opts.append("-llvm-options=" + ",".join(s.replace("=", "@") for s in llvm_options.split()))
    opts += [f"-num-cores={kwargs.get('num_cores', 4)}", f"-vtcm-capacity={config['vtcm_capacity']}"]
    return _make("hexagon", opts)
