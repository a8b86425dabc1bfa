"""The Hexagon codegen configuration: triple, CPU, LLVM features, and clang/llc flags."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tcfg.plugin import LLVMCodegen, Target
from tcfg_hexagon.resolve import HexagonConfig, resolve

__all__ = ["HexagonCodegen", "codegen_for"]


@dataclass(frozen=True)
class HexagonCodegen(LLVMCodegen):
    """LLVM's view of a Hexagon target.

    ``features`` is the list clang-22 gives a function for the same CPU and HVX flags
    (``+v68,+hvxv68,+hvx-length128b,-long-calls``); ``llc_flags()`` pass it with
    ``-mattr``. ``clang_flags()`` say the same with clang's driver options (``-mhvx=v68
    -mhvx-length=128b``), features it has no option for through ``-target-feature``,
    and ``llvm_options`` through ``-mllvm``.
    """

    config: HexagonConfig | None = None
    llvm_options: Sequence[str] = ()

    def clang_flags(self) -> list[str]:
        flags = [f"--target={self.triple}", f"-mcpu={self.cpu}"]
        config = self.config
        if config is not None:
            if config.hvx_version is not None:
                flags += [f"-mhvx=v{config.hvx_version}", f"-mhvx-length={config.hvx_length}b"]
            flags += [f"-m{'' if on else 'no-'}{name}" for name, on in config.hvx_fp]
            for feat in config.others:
                flags += ["-Xclang", "-target-feature", "-Xclang", feat]
        for option in self.llvm_options:
            flags += ["-mllvm", option]
        return [*flags, f"-O{self.opt_level}"]

    def llc_flags(self) -> list[str]:
        return [*super().llc_flags(), *self.llvm_options]

    def to_dict(self) -> dict[str, Any]:
        config = self.config
        return {
            **super().to_dict(),
            "kind": "hexagon",
            "hvx_version": config.hvx_version if config else None,
            "hvx_length": config.hvx_length if config else None,
            "llvm_options": list(self.llvm_options),
        }


def codegen_for(target: Target) -> HexagonCodegen:
    """The codegen of a hexagon target (its attributes were checked when it was built)."""
    attrs = target.attrs
    cpu = attrs["mcpu"]  # given, or clang's default filled in by the parser
    config = resolve(cpu, tuple(attrs.get("mattr", ())))
    return HexagonCodegen(
        triple=attrs["mtriple"],
        cpu=cpu,
        features=tuple(config.llvm_features()),
        config=config,
        llvm_options=tuple(attrs.get("llvm-options", ())),
    )
