"""``runs_on`` for ``cuda`` and ``nvptx`` targets: the code a target's codegen builds, and the arch rules of
:func:`tcfg_cuda.facts.runs_on` (cubin within a major version, PTX JIT-compiled forward, ``a``/``f`` variants).
"""

from __future__ import annotations

from tcfg.plugin import Target, TargetError
from tcfg_cuda.facts import runs_on

__all__ = ["code_arches", "device_arch", "target_runs_on"]

KINDS = ("cuda", "nvptx")


def code_arches(code: Target) -> tuple[str, ...]:
    """The arches of the code built for ``code``: for ``cuda``, the cubin and the PTX its ``nvcc``
    flags embed (``sm_80`` and ``compute_80``); for ``nvptx``, LLVM's PTX for the processor (``compute_80``)."""
    if code.kind.name == "nvptx":
        return ("compute_" + str(code.attrs["mcpu"]).removeprefix("sm_"),)
    flags = code.codegen().nvcc_flags()  # type: ignore[attr-defined]
    return tuple(dict.fromkeys(flag.rsplit("code=", 1)[1] for flag in flags))


def device_arch(machine: Target) -> str:
    """The compute capability a ``cuda``/``nvptx`` machine has (``sm_90``); a generic one is a TargetError."""
    arch = machine.attrs.get("arch" if machine.kind.name == "cuda" else "mcpu")
    if not isinstance(arch, str) or arch == "native":
        raise TargetError(
            f"runs_on: the machine {str(machine)!r} names no GPU arch; give one (-arch=sm_90), use a tag "
            "(nvidia/h100) or tcfg.detect()"
        )
    return arch


def target_runs_on(code: Target, machine: Target) -> bool | None:
    """Whether code built for the CUDA target ``code`` runs on ``machine``; None for other kinds.

    It runs when one of its code arches (:func:`code_arches`) runs on the machine's
    compute capability (:func:`tcfg_cuda.facts.runs_on`).
    """
    if code.kind.name not in KINDS:
        return None
    if machine.kind.name not in KINDS:
        return False
    device = device_arch(machine)
    return any(runs_on(arch, device) for arch in code_arches(code))
