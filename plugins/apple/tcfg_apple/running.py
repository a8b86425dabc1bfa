"""``runs_on`` for ``metal`` targets: the GPU family and the limits the code needs.

Code built for a ``metal`` target runs on a ``metal`` machine when

- the code names no GPU family, or the machine's family is the code's or a later one:
  Apple GPU families are cumulative (a GPU of family Apple9 supports what Apple7 and
  Apple8 code uses; Apple, ``MTLGPUFamily`` and the Metal Feature Set Tables), and
  ``data/metal.json`` lists them oldest first. A machine that names no family is not
  known to be of any, so code for a family is taken as not running on it;
- each limit (threads per threadgroup, ``max_num_threads``, threadgroup memory, buffer
  arguments) is at most the machine's.

The SIMD-group width (``thread_warp_size``) is not compared: whether code generated for
16-wide SIMD-groups (TVM's default) runs correctly on a 32-wide GPU depends on the
kernel, and no tool here can check it.
"""

from __future__ import annotations

from tcfg.plugin import Target
from tcfg_apple.facts import family_names

__all__ = ["LIMITS", "target_runs_on"]

#: The attributes that are limits: code needs at most the machine's.
LIMITS = ("max_num_threads", "max_threads_per_block", "max_shared_memory_per_block", "max_function_args")


def _family_fits(code: Target, machine: Target) -> bool:
    need, have = code.attrs.get("gpu_family"), machine.attrs.get("gpu_family")
    if need is None:
        return True
    if have is None:
        return False
    order = family_names()
    return order.index(need) <= order.index(have)


def target_runs_on(code: Target, machine: Target) -> bool | None:
    """Whether code built for the ``metal`` target ``code`` runs on ``machine``; None for other kinds."""
    if code.kind.name != "metal":
        return None
    if machine.kind.name != "metal" or not _family_fits(code, machine):
        return False
    return all(code.attrs[name] <= machine.attrs[name] for name in LIMITS)
