"""``runs_on`` for ``rocm`` targets: LLVM's target-ID compatibility rule.

The rule is clang's ``isCompatibleTargetID`` (``clang/lib/Basic/TargetID.cpp``, LLVM 22),
which ``clang-offload-bundler`` applies when it picks a code object for a device: code
built for the target ID *provided* runs on a device whose target ID is *requested* when
the processors are the same and every target-ID feature (``xnack``, ``sramecc``) the code
gives is given alike by the device. A feature the code leaves out is ``any`` and matches
either setting; one the device leaves out matches only code that leaves it out too.
"""

from __future__ import annotations

from tcfg.plugin import Target, TargetError
from tcfg_rocm.facts import TargetId, parse_target_id

__all__ = ["compatible_target_id", "target_runs_on"]


def compatible_target_id(provided: TargetId, requested: TargetId) -> bool:
    """clang's ``isCompatibleTargetID(provided, requested)``: code for ``provided`` runs on ``requested``."""
    if provided.processor.name != requested.processor.name:
        return False
    device = dict(requested.settings)
    return all(device.get(feature) is on for feature, on in provided.settings)


def target_runs_on(code: Target, machine: Target) -> bool | None:
    """Whether code built for the ``rocm`` target ``code`` runs on ``machine``; None for other kinds."""
    if code.kind.name != "rocm":
        return None
    if machine.kind.name != "rocm":
        return False
    ids = []
    for target in (code, machine):
        mcpu = target.attrs.get("mcpu")
        if not isinstance(mcpu, str) or mcpu == "native":
            raise TargetError(
                f"runs_on: {str(target)!r} names no AMDGPU processor; give -mcpu (a target ID such as "
                "gfx90a:xnack+), use a tag (amd/mi300x) or tcfg.detect()"
            )
        ids.append(parse_target_id(mcpu))
    return compatible_target_id(ids[0], ids[1])
