"""A target in the form one neighbouring tool reads: ``tcfg codegen TARGET --for TOOL``.

``form(target, tool, version, opt_level)`` is the TVM dict (``Target.to_tvm``), the MLIR
attribute, IREE's flags, Triton's target, nvcc's flags, or the flags of a compiler
(``clang``, ``gcc``, ``llc``: ``Codegen.flags(compiler, version, opt_level=...)``). A
form the target lacks is a :class:`tcfg.TargetError` naming the forms it has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcfg._base.errors import TargetError

if TYPE_CHECKING:
    from tcfg._model.target import Target

__all__ = ["COMPILERS", "FORMS", "form"]

#: The codegen method that gives each tool's form (``tvm`` is ``Target.to_tvm``).
FORMS = {
    "tvm": "to_tvm",
    "mlir": "mlir_attr",
    "iree": "iree_flags",
    "triton": "triton_target",
    "clang": "flags",
    "gcc": "flags",
    "llc": "flags",
    "nvcc": "nvcc_flags",
}
#: The tools whose form is ``Codegen.flags(tool, version)``: they take a version.
COMPILERS = ("clang", "gcc", "llc")


def form(target: Target, tool: str, version: int | None = None, opt_level: int | None = None) -> Any:
    """``tool``'s form of ``target``; a TargetError naming the forms it has if it has none.

    ``version`` and ``opt_level`` are for the compilers (:data:`COMPILERS`) only.
    """
    if tool not in COMPILERS and (version is not None or opt_level is not None):
        raise TargetError(f"--version and --opt-level are for {', '.join(COMPILERS)}, not {tool}")
    try:
        return _form(target, tool, version, opt_level)
    except TargetError as exc:
        if tool in COMPILERS and _has_form(target, tool):
            raise  # the compiler has a form, not for this version: the message says which
        others = [name for name in FORMS if name != tool and _has_form(target, name)]
        raise TargetError(f"{exc}; forms for this target: {', '.join(others) or 'none'}") from None


def _form(target: Target, tool: str, version: int | None, opt_level: int | None) -> Any:
    source: Any = target if tool == "tvm" else target.codegen()
    method = getattr(source, FORMS[tool], None)
    if method is None:
        raise TargetError(f"{target.kind.name} targets have no {tool} flags in tcfg (target {str(target)!r})")
    if tool in COMPILERS:
        return method(tool, version, opt_level=opt_level)
    return method()


def _has_form(target: Target, tool: str) -> bool:
    try:
        _form(target, tool, None, None)
    except TargetError:
        return False
    return True
