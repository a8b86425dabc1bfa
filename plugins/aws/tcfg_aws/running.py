"""``runs_on`` for ``trn`` targets: the same NeuronCore generation, and no more cores than the machine has.

The Neuron compiler builds code for one NeuronCore generation (``neuronx-cc --target
trn1`` or ``trn2``), and a program sized for one generation's on-chip memories does not
fit another's. The attributes that name the hardware are the memory geometry
(``partition_size``, ``max_sbuf_size_per_partition``, ``max_psum_size_per_partition``:
trn1's SBUF has 192 KiB per partition, trn2's 224 KiB): each the code gives must be the
machine's, and a machine that does not give it is not known to have it. ``num-cores``
is a limit: the code's at most the machine's.
"""

from __future__ import annotations

from tcfg.plugin import Target

__all__ = ["HARDWARE", "target_runs_on"]

#: The attributes that name the NeuronCore generation: equal in code and machine.
HARDWARE = ("partition_size", "max_sbuf_size_per_partition", "max_psum_size_per_partition")


def target_runs_on(code: Target, machine: Target) -> bool | None:
    """Whether code built for the ``trn`` target ``code`` runs on ``machine``; None for other kinds."""
    if code.kind.name != "trn":
        return None
    if machine.kind.name != "trn":
        return False
    for name in HARDWARE:
        need = code.attrs.get(name)
        if need is not None and machine.attrs.get(name) != need:
            return False
    cores, have = code.attrs.get("num-cores"), machine.attrs.get("num-cores")
    return cores is None or (have is not None and cores <= have)
