"""The hook implementations of the aws plugin: the ``trn`` kind and the Trainium instance tags.

Importing this module reads no data: the instance table loads when tags are first queried.
The ``aws/cpu/*`` instance tags belong to the x86 plugin.
"""

from __future__ import annotations

from collections.abc import Callable

from tcfg.plugin import TagRegistrar, Target, TargetKind, hookimpl

__all__ = ["tcfg_register_kinds", "tcfg_register_tags", "tcfg_runs_on"]


@hookimpl
def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
    from tcfg_aws.kind import TRN

    register(TRN)


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_aws.tags import instance_tags

    for tag in instance_tags():
        register(tag)


@hookimpl
def tcfg_runs_on(code: Target, machine: Target) -> bool | None:
    """trn code: the same NeuronCore generation, at most the machine's cores (:mod:`tcfg_aws.running`)."""
    from tcfg_aws.running import target_runs_on

    return target_runs_on(code, machine)
