"""Apache TVM's view of targets: what TVM 0.27 knows of each kind, and :func:`to_tvm`.

TVM 0.27 reads a target as a dict or JSON only (TVM up to 0.2x also read the classic
string, which is tcfg's own grammar). What TVM knows of each kind, its options and
default keys, is the table ``data/tvm_kinds.json``, generated from TVM by
``interop/scripts/tvm_kinds.py``. The way back, ``tcfg.from_tvm``, is a service
(it builds targets): ``tcfg._services.from_tvm``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from tcfg._base.errors import TargetError
from tcfg._base.files import package_json
from tcfg._model.kind import attr_of

if TYPE_CHECKING:
    from tcfg._model.target import Target

__all__ = ["to_tvm", "tvm_kinds"]


@cache
def tvm_kinds() -> Mapping[str, Any]:
    """The table: ``source``, ``date``, ``version``, ``kinds`` (name -> ``options``, ``default_keys``)
    and ``fixed`` (kind -> option -> the one value TVM allows)."""
    table: Mapping[str, Any] = package_json("tcfg", "data/tvm_kinds.json")
    return table


def to_tvm(target: Target) -> dict[str, Any]:
    """``target`` as a dict that ``tvm.target.Target`` of TVM 0.27 accepts, describing the same device.

    Every attribute the target has (given, from its tag, the kind's defaults and what
    the kind derives, such as a GPU's limits) goes out if TVM's kind has that option.
    The others are dropped: ``march``, ``compiler``, a composite's ``executor`` and
    ``runtime``, tcfg-only limits, and options whose one value TVM sets itself (rocm's
    ``mtriple``). ``keys`` are only those given: TVM adds its own. Hosts and a
    composite's devices are converted likewise. A kind TVM does not have is a
    :class:`TargetError` naming it.
    """
    name = target.kind.name
    kinds = tvm_kinds()["kinds"]
    if name not in kinds:
        raise TargetError(
            f"target {str(target)!r}: TVM {tvm_kinds()['version']} has no kind {name!r}; "
            f"TVM's kinds: {', '.join(sorted(kinds))}"
        )
    options = set(kinds[name]["options"]) - set(tvm_kinds()["fixed"].get(name, ()))  # TVM sets those itself
    out: dict[str, Any] = {"kind": name}
    for option, value in target.attrs.items():
        if value is None or option not in options:
            continue
        attr = attr_of(target.kind, None, option)
        assert attr is not None  # TVM's common options are tcfg's too; a kind's own are in its table
        if not attr.type.holds_targets:
            out[option] = attr.type.to_json(value)
        elif isinstance(value, tuple):
            out[option] = [to_tvm(device) for device in value]
        else:
            out[option] = to_tvm(value)
    return out
