"""The hook implementations of the aws plugin: the ``trn`` kind and the Trainium instance tags.

Importing this module reads no data: the instance table loads when tags are first queried.
The ``aws/cpu/*`` instance tags belong to the x86 plugin.
"""

from __future__ import annotations

from collections.abc import Callable

from tcfg.plugin import TagRegistrar, TargetKind, hookimpl

__all__ = ["tcfg_register_kinds", "tcfg_register_tags"]


@hookimpl
def tcfg_register_kinds(register: Callable[[TargetKind], None]) -> None:
    from tcfg_aws.kind import TRN

    register(TRN)


@hookimpl
def tcfg_register_tags(register: TagRegistrar) -> None:
    from tcfg_aws.tags import instance_tags

    for tag in instance_tags():
        register(tag)
