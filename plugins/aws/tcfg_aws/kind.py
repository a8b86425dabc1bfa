"""The ``trn`` target kind (AWS Trainium NeuronCores), with TVM 0.27's attribute names.

TVM's ``trn`` kind has no default keys and no default values: a bare ``trn`` target
says nothing about the chip, and the instance tags give the sizes. The attributes are
TVM's: ``num-cores`` (NeuronCores available), ``partition_size`` (partitions of the
on-chip SBUF and PSUM memories), and the bytes of SBUF and PSUM in each partition.
"""

from __future__ import annotations

from typing import Any

from tcfg.plugin import Answers, Attr, AttributeValueError, Derived, DeriveRequest, Integer, TargetKind

__all__ = ["TRN", "parse_trn"]

_NO_KEYS = Derived()


def parse_trn(request: DeriveRequest) -> Derived:
    """Refuse a host that is not a CPU target (the host runs the program that drives the NeuronCores)."""
    host: Any = request.attrs.get("host")
    if host is not None and host.kind.device_type != "cpu":
        raise AttributeValueError(
            f"-host={host}: the host of a trn target must be a CPU target (such as llvm or c); "
            f"kind {host.kind.name!r} is a {host.kind.device_type} device"
        )
    return _NO_KEYS


def _portable(target: Any) -> Answers:
    from tcfg_aws.portable import portable  # read at the first portable name, not at start-up

    return portable(target)


TRN = TargetKind(
    portable=_portable,
    name="trn",
    device_type="trn",
    dlpack_device_type=18,  # kDLTrn in dlpack.h
    attrs=(
        Attr("num-cores", Integer(minimum=1), doc="NeuronCores the program may use."),
        Attr(
            "partition_size",
            Integer(minimum=1),
            doc="Partitions of the on-chip SBUF and PSUM memories (the partition dimension of a tile).",
        ),
        Attr(
            "max_sbuf_size_per_partition",
            Integer(minimum=1),
            doc="Bytes of the state buffer (SBUF) in one partition.",
        ),
        Attr(
            "max_psum_size_per_partition",
            Integer(minimum=1),
            doc="Bytes of the partial-sum buffer (PSUM) in one partition.",
        ),
    ),
    parser=parse_trn,
    parse_reads=("host",),
    doc="AWS Trainium NeuronCores (TVM's trn kind); the aws/trn* tags give each instance's sizes.",
)
