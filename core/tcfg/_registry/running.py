"""What the core decides of ``runs_on`` before asking the plugins, and the error when none answers.

The rule (``Target.runs_on``, CONTRACT section 2): code built for ``code`` runs on
``machine`` when ``machine`` is a device of the same ``device_type``, ``code``'s host
(if it has one) runs on ``machine``'s host (when ``machine`` names one), and the plugin
owning ``code``'s kind or CPU architecture says the device runs it (``tcfg_runs_on``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tcfg._base.errors import TargetError, bounded_repr

if TYPE_CHECKING:
    from tcfg._model.target import Target

__all__ = ["no_answer", "precheck"]


def precheck(code: Target, machine: Target) -> bool | None:
    """False when the core can tell that ``code`` does not run on ``machine``; None to ask the plugins.

    A ``machine`` that is not a Target is a :class:`TargetError`. Devices of different
    ``device_type`` never run each other's code. A host of ``code`` must run on the host
    of ``machine`` when ``machine`` has one; a machine without a host describes its
    device alone, and only the device is compared.
    """
    from tcfg._model.target import Target

    if not isinstance(machine, Target):
        raise TargetError(
            f"runs_on({str(code)!r}, machine): the machine must be a Target describing a real device, "
            f"not {type(machine).__name__} {bounded_repr(machine)}; make one with tcfg.Target(...), "
            "for instance tcfg.Target('nvidia/a100') or tcfg.detect()"
        )
    if code.kind.device_type != machine.kind.device_type:
        return False
    if code.host is not None and machine.host is not None and not code.host.runs_on(machine.host):
        return False
    return None


def no_answer(code: Target, machine: Target, answering: Sequence[str], owners: Mapping[tuple[str, str], str]) -> str:
    """The message for a ``runs_on`` question that no plugin answers: the input, and what can be asked."""
    owned: dict[str, list[str]] = {plugin: [] for plugin in answering}
    for (space, name), plugin in sorted(owners.items()):
        if plugin in owned and space in ("kind", "CPU architecture"):
            owned[plugin].append(f"{space} {name}")
    choices = "; ".join(f"{plugin}: {', '.join(names) or 'no kind'}" for plugin, names in owned.items())
    arch = code.attrs.get("mtriple") if code.kind.device_type == "cpu" else None
    what = f"kind {code.kind.name!r}" + (f" (triple {arch!r})" if isinstance(arch, str) else "")
    return (
        f"no installed plugin says whether code built for {str(code)!r} runs on {str(machine)!r}: "
        f"none answers runs_on for {what}; the plugins that answer runs_on, and what they own: "
        f"{choices or 'none'}"
    )
