"""The portable vocabulary for ``trn`` targets (NeuronCores): their data types from AWS's Neuron documentation."""

from __future__ import annotations

from typing import Any

from tcfg.plugin import CPU_ONLY, FORMATS, GPU_ONLY, MATRIX, Answer, Answers, none

__all__ = ["portable"]

_UNSAID = "tcfg_aws records the NeuronCores' sizes, not their data types"


def portable(target: Any) -> Answers:
    """Every portable name for a Trainium target: the sizes its tag gives; the rest is not recorded."""
    cores = target.attrs.get("num-cores")
    return {
        **none(
            _UNSAID,
            (*FORMATS, *MATRIX),
        ),
        **none("NeuronCores are not programmed with vector registers or SIMT thread blocks", (*CPU_ONLY, *GPU_ONLY)),
        "l2_cache_bytes": Answer(None, "NeuronCores have software-managed SBUF/PSUM memories, not an L2 cache"),
        "cores": Answer(cores, "the target's -num-cores (NeuronCores)")
        if cores is not None
        else Answer(None, "the target gives no -num-cores"),
    }
