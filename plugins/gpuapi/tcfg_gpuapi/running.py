"""``runs_on`` for ``vulkan``, ``opencl`` and ``webgpu`` targets: what the code needs of the device.

Code built for a target needs the versions, optional capabilities and limits its target
states; it runs on a machine that has at least as much of each. The rules per kind:

- ``vulkan``: the machine's Vulkan version at least the code's, and the SPIR-V version
  the code is written in at most the one the machine consumes (the ``vulkan_version`` and
  ``spirv_version`` features, from the Vulkan specification's SPIR-V environment,
  ``data/spirv.json``); every ``supports_*`` capability and subgroup operation bit the
  code sets is set on the machine; each limit the code gives is at most the machine's;
  the code's subgroup size (``thread_warp_size`` above 1) is within the machine's
  ``min_subgroup_size``..``max_subgroup_size`` where the machine gives them, else equal to
  the machine's subgroup size where it gives one above 1.
- ``opencl``: the machine's OpenCL C version at least the code's; each limit at most the
  machine's; the machine's image base address alignment divides the code's; a sub-group
  size above 1 equal to the machine's where it gives one above 1.
- ``webgpu``: subgroups used only where the machine has them; each limit at most the machine's.

A limit the code gives and the machine does not give is taken as not met: nothing says
the device has it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tcfg.plugin import Target

__all__ = ["LIMITS", "limits_met", "target_runs_on"]

#: The attributes of each kind that are limits: code needs at most the machine's.
LIMITS: dict[str, tuple[str, ...]] = {
    "vulkan": (
        "max_num_threads",
        "max_threads_per_block",
        "max_block_size_x",
        "max_block_size_y",
        "max_block_size_z",
        "max_push_constants_size",
        "max_uniform_buffer_range",
        "max_storage_buffer_range",
        "max_per_stage_descriptor_storage_buffer",
        "max_shared_memory_per_block",
    ),
    "opencl": (
        "max_num_threads",
        "max_threads_per_block",
        "max_shared_memory_per_block",
        "texture_spatial_limit",
        "texture_depth_limit",
        "max_function_args",
    ),
    "webgpu": ("max_num_threads", "max_shared_memory_per_block"),
}


def _version(text: object) -> tuple[int, ...]:
    return tuple(int(part) for part in str(text).split("."))


def limits_met(code: Target, machine: Target, names: Sequence[str]) -> bool:
    """Each of ``names`` the code gives is at most the machine's (and the machine gives it)."""
    for name in names:
        need = code.attrs.get(name)
        if need is None:
            continue
        have = machine.attrs.get(name)
        if have is None or need > have:
            return False
    return True


def _warp_fits(code: Target, machine: Target) -> bool:
    warp = code.attrs.get("thread_warp_size") or 1
    if warp <= 1:
        return True
    low, high = machine.attrs.get("min_subgroup_size"), machine.attrs.get("max_subgroup_size")
    if low is not None or high is not None:
        return (low is None or low <= warp) and (high is None or warp <= high)
    have = machine.attrs.get("thread_warp_size") or 1
    return have <= 1 or have == warp


def _vulkan(code: Target, machine: Target) -> bool:
    from tcfg_gpuapi.kind import SUPPORTS

    need, have = code.features, machine.features
    if _version(need["vulkan_version"]) > _version(have["vulkan_version"]):
        return False
    if _version(need["spirv_version"]) > _version(have["spirv_version"]):
        return False
    if any(code.attrs.get(name) and not machine.attrs.get(name) for name, _ in SUPPORTS):
        return False
    ops = code.attrs.get("supported_subgroup_operations") or 0
    if ops & ~(machine.attrs.get("supported_subgroup_operations") or 0):
        return False
    return limits_met(code, machine, LIMITS["vulkan"]) and _warp_fits(code, machine)


def _opencl(code: Target, machine: Target) -> bool:
    if _version(code.attrs["opencl_c_version"]) > _version(machine.attrs["opencl_c_version"]):
        return False
    if code.attrs["image_base_address_alignment"] % machine.attrs["image_base_address_alignment"]:
        return False
    warp, have = code.attrs["thread_warp_size"], machine.attrs["thread_warp_size"]
    if warp > 1 and have > 1 and warp != have:
        return False
    return limits_met(code, machine, LIMITS["opencl"])


def _webgpu(code: Target, machine: Target) -> bool:
    if code.attrs.get("supports_subgroups") and not machine.attrs.get("supports_subgroups"):
        return False
    return limits_met(code, machine, LIMITS["webgpu"])


_RULES = {"vulkan": _vulkan, "opencl": _opencl, "webgpu": _webgpu}


def target_runs_on(code: Target, machine: Target) -> bool | None:
    """Whether code built for ``code`` runs on ``machine``; None for kinds not of this plugin."""
    rule = _RULES.get(code.kind.name)
    if rule is None:
        return None
    if machine.kind.name != code.kind.name:
        return False
    return rule(code, machine)
