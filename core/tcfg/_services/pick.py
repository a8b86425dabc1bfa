"""``tcfg.pick``: of several builds, the most specialized one that runs on a machine."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tcfg._base.errors import TargetError, bounded_repr

if TYPE_CHECKING:
    from tcfg._model.target import Target

__all__ = ["more_specialized", "pick"]


def more_specialized(a: Target, b: Target) -> bool:
    """Whether build ``a`` is strictly more specialized than build ``b``.

    ``a`` is more specialized when code built for ``b`` runs on ``a`` but code built for
    ``a`` does not run on ``b`` (``a`` needs more of the machine: more CPU features, a newer
    or arch-specific GPU arch, a fixed ``xnack``), or, where neither or both run on the
    other, when ``a`` is a specialization of ``b`` and not the reverse (same kind, and
    ``a`` sets every attribute ``b`` sets to the same value, and more).
    """
    a_on_b, b_on_a = a.runs_on(b), b.runs_on(a)
    if a_on_b != b_on_a:
        return b_on_a
    return a.is_specialization_of(b) and not b.is_specialization_of(a)


def pick(builds: Iterable[Target], machine: Target) -> Target | None:
    """The most specialized of ``builds`` that runs on ``machine``, or None if none runs there.

    Of the builds that run on ``machine`` (:meth:`Target.runs_on`), the one that is
    strictly more specialized (:func:`more_specialized`) than the most others of them
    (where that order is transitive, as each of its two parts is, no build is more
    specialized than it). Among equals, the first in ``builds`` wins, so the answer
    depends only on the builds, their order and the machine; equal builds count once.
    ``builds`` must hold Targets only, and ``machine`` be a Target: anything else is a
    :class:`tcfg.TargetError`.
    """
    from tcfg._model.target import Target

    if not isinstance(machine, Target):
        raise TargetError(
            f"pick: the machine must be a Target describing a real device, not {type(machine).__name__} "
            f"{bounded_repr(machine)}; make one with tcfg.Target(...)"
        )
    given = list(builds) if not isinstance(builds, str | Target) else None
    if given is None:
        raise TargetError(f"pick: builds must be a list of Targets, not {type(builds).__name__} {bounded_repr(builds)}")
    for index, build in enumerate(given):
        if not isinstance(build, Target):
            raise TargetError(
                f"pick: builds[{index}] is {type(build).__name__} {bounded_repr(build)}, not a Target; "
                "make each with tcfg.Target(...)"
            )
    running = list(dict.fromkeys(build for build in given if build.runs_on(machine)))
    if not running:
        return None
    scores = [sum(more_specialized(a, b) for b in running if b is not a) for a in running]
    return running[scores.index(max(scores))]
