"""``Target.runs_on`` for trn code: the memory geometry that names the generation equal, cores at most the machine's.

No tool checks the rule: the Neuron compiler and runtime are not installed here.
"""

from __future__ import annotations

import pytest

import tcfg
from tcfg_aws.running import target_runs_on

TRN1 = "trn -partition_size=128 -max_sbuf_size_per_partition=196608 -max_psum_size_per_partition=16384"


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        # generation: the memory geometry equal
        ("aws/trn1/trn1.2xlarge", "aws/trn1/trn1.32xlarge", True),
        ("aws/trn1/trn1.2xlarge", "aws/trn2/trn2.48xlarge", False),  # trn2's SBUF is 224 KiB per partition
        ("aws/trn2/trn2.48xlarge", "aws/trn2/trn2u.48xlarge", True),
        (TRN1, "aws/trn1/trn1n.32xlarge", True),
        (TRN1, "trn", False),  # the machine's geometry is unknown
        ("trn -partition_size=64", "aws/trn1/trn1.2xlarge", False),
        # cores: at most the machine's
        ("trn -num-cores=2", "aws/trn1/trn1.2xlarge", True),
        ("trn -num-cores=32", "aws/trn1/trn1.2xlarge", False),
        ("aws/trn1/trn1.32xlarge", "aws/trn1/trn1.2xlarge", False),
        ("trn -num-cores=2", "trn", False),  # the machine's cores are unknown
        ("trn", "aws/trn2/trn2.48xlarge", True),  # code that needs nothing
        ("trn", "c", False),  # another kind
    ],
)
def test_trn(code: str, machine: str, expected: bool) -> None:
    assert tcfg.Target(code).runs_on(tcfg.Target(machine)) is expected


def test_other_kinds_are_not_answered() -> None:
    assert target_runs_on(tcfg.Target("c"), tcfg.Target("trn")) is None  # a kind every environment has
