"""The rocm codegen configuration: triple, target ID, LLVM features, and the flags of each tool.

``features`` are what the target asks of LLVM beyond the processor's own: the target-ID
settings (``+xnack``, ``-sramecc``) and ``-mattr``, in LLVM's ``+f``/``-f`` spelling. clang
takes the target ID in ``-mcpu`` (``-mcpu=gfx90a:xnack+``), llc the processor in
``-mcpu`` and the settings in ``-mattr``. Code object version 6 is what LLVM 22 emits by
default and what MLIR's ``#rocdl.target`` calls ``abi = "600"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcfg.plugin import Codegen, Target, TargetError, package_json
from tcfg_rocm.facts import parse_target_id
from tcfg_rocm.kind import TARGET_ID_FEATURES, TRIPLE

__all__ = ["CODE_OBJECT_VERSION", "RocmCodegen", "codegen_for"]

CODE_OBJECT_VERSION = 6
#: The wavefront features as clang's and hipcc's own flags.
_WAVE_FLAGS = {"+wavefrontsize64": "-mwavefrontsize64", "+wavefrontsize32": "-mno-wavefrontsize64"}


@dataclass(frozen=True)
class RocmCodegen(Codegen):
    """What compiling for one AMD GPU needs.

    ``target_id`` is clang's spelling (``gfx942:sramecc+:xnack-``), ``processor`` the
    processor alone (``gfx942``), ``mattr`` the ``-mattr`` features, ``wavefront_size``
    the wavefront the code runs with, ``generic`` whether the processor is a generic
    target (``gfx9-generic``), which has no single chip.
    """

    target_id: str
    processor: str
    mattr: tuple[str, ...]
    wavefront_size: int
    generic: bool = False
    opt_level: int = 2
    triple: str = TRIPLE

    @property
    def settings(self) -> tuple[str, ...]:
        """The target ID's features as LLVM features (``gfx90a:xnack+`` -> ``("+xnack",)``)."""
        return tuple(f"{p[-1]}{p[:-1]}" for p in self.target_id.split(":")[1:])

    @property
    def features(self) -> tuple[str, ...]:
        """Every feature asked of LLVM beyond the processor's own: target-ID settings, then -mattr."""
        return (*self.settings, *self.mattr)

    def clang_flags(self) -> list[str]:
        """Flags that make clang compile C/OpenCL/IR for this GPU (``-mwavefrontsize64`` for wave64)."""
        flags = [f"--target={self.triple}", f"-mcpu={self.target_id}"]
        for feat in self.mattr:
            wave = _WAVE_FLAGS.get(feat)
            flags += [wave] if wave else ["-Xclang", "-target-feature", "-Xclang", feat]
        return [*flags, f"-O{self.opt_level}"]

    def llc_flags(self) -> list[str]:
        """Flags that make llc compile LLVM IR for this GPU."""
        flags = [f"-mtriple={self.triple}", f"-mcpu={self.processor}"]
        if self.features:
            flags.append(f"-mattr={','.join(self.features)}")
        return [*flags, f"-O={self.opt_level}"]

    def hipcc_flags(self) -> list[str]:
        """Flags that make hipcc (clang -x hip) compile HIP for this GPU: ``--offload-arch=TARGET_ID``.

        HIP has a per-GPU flag for the target ID and the wavefront size only; other
        ``-mattr`` features are a :class:`TargetError`.
        """
        other = [f for f in self.mattr if f not in _WAVE_FLAGS]
        if other:
            raise TargetError(
                f"hipcc has no flag for the LLVM features {','.join(other)} of the device alone; "
                "compile the device code with clang_flags() instead"
            )
        return [f"--offload-arch={self.target_id}", *(_WAVE_FLAGS[f] for f in self.mattr)]

    def mlir_attr(self) -> str:
        """``#rocdl.target<...>`` as MLIR's ROCDL dialect (LLVM 22) spells it.

        ``chip`` is the processor, ``features`` the LLVM features; ``flags = {no_wave64}``
        marks a wave32 target (MLIR then links the wave32 device libraries).
        """
        parts = [
            f"O = {self.opt_level}",
            f'triple = "{self.triple}"',
            f'chip = "{self.processor}"',
            f'features = "{",".join(self.features)}"',
            f'abi = "{CODE_OBJECT_VERSION * 100}"',
        ]
        if self.wavefront_size == 32:
            parts.append("flags = {no_wave64}")
        return f"#rocdl.target<{', '.join(parts)}>"

    def iree_flags(self) -> list[str]:
        """``iree-compile`` flags for IREE's HIP target: the device, the processor, and xnack/sramecc.

        IREE takes no other LLVM features (it chooses the wavefront size itself), so
        ``-mattr`` is a :class:`TargetError`.
        """
        if self.mattr:
            raise TargetError(
                f"iree-compile's HIP target takes only the target-ID features {'/'.join(TARGET_ID_FEATURES)}; "
                f"it has no flag for {','.join(self.mattr)}"
            )
        iree = package_json("tcfg_rocm", "data/iree.json")
        if self.processor not in iree["rocm_targets"]:
            raise TargetError(
                f"{iree['source'].split(' (')[0]} has no ROCm target for {self.processor}; it compiles for "
                f"{', '.join(iree['rocm_targets'])}"
            )
        flags = ["--iree-hal-target-device=hip", f"--iree-rocm-target={self.processor}"]
        if self.settings:
            flags.append(f"--iree-rocm-target-features={','.join(self.settings)}")
        return flags

    def triton_target(self) -> tuple[str, int | str, int]:
        """``("hip", processor, wavefront_size)``, as Triton's ``GPUTarget`` takes them."""
        if self.generic:
            raise TargetError(f"Triton compiles for one processor; {self.processor} is a generic target")
        return ("hip", self.processor, self.wavefront_size)

    def to_dict(self) -> dict[str, Any]:
        try:
            hipcc: list[str] | None = self.hipcc_flags()
        except TargetError:
            hipcc = None
        return {
            "kind": "rocm",
            "triple": self.triple,
            "cpu": self.target_id,
            "processor": self.processor,
            "features": ",".join(self.features),
            "wavefront_size": self.wavefront_size,
            "code_object_version": CODE_OBJECT_VERSION,
            "opt_level": self.opt_level,
            "clang": self.clang_flags(),
            "llc": self.llc_flags(),
            "hipcc": hipcc,
        }


def codegen_for(target: Target) -> RocmCodegen:
    """The codegen of a rocm target; one without ``-mcpu`` cannot be compiled (a TargetError)."""
    mcpu = target.attrs.get("mcpu")
    if mcpu is None:
        raise TargetError(
            "a rocm target without -mcpu is generic: give the AMDGPU target ID (such as -mcpu=gfx90a "
            "or -mcpu=gfx942:sramecc+:xnack-) to generate code"
        )
    row = parse_target_id(mcpu).processor
    wavefront = target.features.vendor("wavefront_size")
    return RocmCodegen(mcpu, row.name, tuple(target.attrs.get("mattr", ())), int(wavefront), row.generic)
