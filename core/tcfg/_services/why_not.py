"""``tcfg detect --why-not CPU``: the features a detected (or recorded) machine lacks for a CPU."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcfg._base.errors import TargetError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tcfg._model.target import Target
    from tcfg._registry.registry import Registry

__all__ = ["why_not", "why_not_text"]


def _host_cpu(found: Sequence[Target]) -> Target:
    for target in found:
        if target.kind.device_type == "cpu" and isinstance(target.attrs.get("mtriple"), str):
            return target
    described = ", ".join(str(t) for t in found) or "no device"
    raise TargetError(f"--why-not needs the machine's CPU, and detection found none ({described})")


def why_not(registry: Registry, cpu: str, found: Sequence[Target]) -> dict[str, Any]:
    """What the machine whose detected targets are ``found`` lacks of ``cpu`` (an ``-mcpu`` of its triple).

    Returns ``{"cpu", "host", "host_cpu", "missing"}``: ``missing`` lists the features the
    target ``-mcpu=cpu`` has that the machine's CPU target has not, sorted. Raises
    :class:`TargetError` when no CPU was detected or ``cpu`` is not a CPU of that triple.
    """
    host = _host_cpu(found)
    wanted = registry.target({"kind": host.kind.name, "mtriple": host.attrs["mtriple"], "mcpu": cpu})
    have = host.features
    missing = sorted(name for name, value in wanted.features.items() if value is True and have.get(name) is not True)
    return {"cpu": cpu, "host": str(host), "host_cpu": host.attrs.get("mcpu", "generic"), "missing": missing}


def why_not_text(report: dict[str, Any]) -> str:
    """``report`` (of :func:`why_not`) in words."""
    cpu, missing = report["cpu"], report["missing"]
    if not missing:
        return f"this machine ({report['host_cpu']}) has every feature of {cpu}"
    return (
        f"this machine ({report['host_cpu']}) lacks {len(missing)} feature{'s' * (len(missing) != 1)} "
        f"of {cpu}: {', '.join(missing)}"
    )
