"""Codegen configurations: what a target asks of the code generator, and code generated with it."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tcfg._base.errors import TargetError
from tcfg._base.files import package_json
from tcfg._model.compilers import check_request, compensate, require_known, without_opt_level
from tcfg._model.cpu import arch_family

__all__ = ["Codegen", "LLVMCodegen"]


class Codegen(ABC):
    """A kind-specific codegen configuration.

    Besides :meth:`to_dict`, a configuration may speak the forms of neighbouring
    compilers: :meth:`mlir_attr`, :meth:`iree_flags` and :meth:`triton_target`. A
    kind a neighbour has no form for raises :class:`tcfg.TargetError` saying so; it
    never returns a half-right form.
    """

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON-compatible data (it includes the ``kind``)."""

    def flags(self, compiler: str, version: int | str | None = None, *, opt_level: int | None = None) -> list[str]:
        """The flags that make ``compiler`` (``clang``, ``gcc``, ``llc``) of major ``version`` compile for this target.

        ``version`` defaults to LLVM 22 for clang and llc (the LLVM tcfg's tables come
        from) and to the newest gcc tcfg knows. Flags use the compiler's own driver
        spellings wherever they say exactly what the target is; no optimisation level
        unless ``opt_level`` is given (``-O2``; llc's ``-O=2``). A compiler or version that
        cannot express the target exactly is a :class:`tcfg.TargetError` that says which
        version can.
        """
        compiler, major = check_request(compiler, version)
        spelled = self.spell(compiler, major)
        if opt_level is not None:
            spelled.append(f"-O={opt_level}" if compiler == "llc" else f"-O{opt_level}")
        return spelled

    def spell(self, compiler: str, version: int) -> list[str]:
        """``flags()`` for a checked request, without an optimisation level; kinds refine it.

        This default offers what a configuration's ``clang_flags()``/``llc_flags()`` give
        (for LLVM 22, the version they are written for), and nothing for gcc.
        """
        method = getattr(self, f"{compiler}_flags", None)
        kind = self.to_dict().get("kind", type(self).__name__)
        if method is None or compiler == "gcc":
            raise self._no_form(f"{compiler} flags")
        if version != 22:
            raise TargetError(f"tcfg spells {kind} targets for {compiler} 22 only, not {compiler} {version}")
        return without_opt_level(method())

    def mlir_attr(self) -> str:
        """The MLIR target attribute (``#nvvm.target<...>``, ``#rocdl.target<...>``, ...)."""
        raise self._no_form("MLIR target attribute")

    def iree_flags(self) -> list[str]:
        """The ``iree-compile`` flags that compile for this target."""
        raise self._no_form("iree-compile flags")

    def triton_target(self) -> tuple[str, int | str, int]:
        """``(backend, arch, warp_size)`` as Triton's ``GPUTarget`` takes them."""
        raise self._no_form("Triton GPUTarget")

    def _no_form(self, form: str) -> TargetError:
        return TargetError(f"{self.to_dict().get('kind', type(self).__name__)!s} targets have no {form} in tcfg")


@dataclass(frozen=True)
class LLVMCodegen(Codegen):
    """LLVM's view of a CPU target: triple, CPU, feature string, float ABI and flags.

    ``features`` are LLVM feature names with ``+``/``-`` (``+neon``), in the order
    LLVM should apply them. ``clang_cpu_flag`` is how clang spells the CPU
    (``-mcpu`` on Arm, ``-march`` on x86). ``extra_clang``/``extra_llc`` carry
    flags a plugin adds (such as a preferred vector width), and ``notes`` say why.
    """

    triple: str
    cpu: str = "generic"
    features: Sequence[str] = ()
    float_abi: str | None = None
    opt_level: int = 2
    clang_cpu_flag: str = "-mcpu"
    extra_clang: Sequence[str] = ()
    extra_llc: Sequence[str] = ()
    notes: Sequence[str] = ()

    @property
    def feature_string(self) -> str:
        """The features as LLVM's comma-separated ``-mattr`` string."""
        return ",".join(self.features)

    def clang_flags(self) -> list[str]:
        """Flags that make clang compile for this target."""
        flags = [f"--target={self.triple}"]
        if self.cpu and self.cpu != "generic":
            flags.append(f"{self.clang_cpu_flag}={self.cpu}")
        for feat in self.features:
            flags += ["-Xclang", "-target-feature", "-Xclang", feat]
        if self.float_abi:
            flags.append(f"-mfloat-abi={self.float_abi}")
        flags.append(f"-O{self.opt_level}")
        return flags + list(self.extra_clang)

    def llc_flags(self) -> list[str]:
        """Flags that make llc compile for this target."""
        flags = [f"-mtriple={self.triple}", f"-mcpu={self.cpu}"]
        if self.features:
            flags.append(f"-mattr={self.feature_string}")
        if self.float_abi:
            flags.append(f"-float-abi={'soft' if self.float_abi == 'softfp' else self.float_abi}")
        flags.append(f"-O={self.opt_level}")
        return flags + list(self.extra_llc)

    def spell(self, compiler: str, version: int) -> list[str]:
        """``flags()`` for a checked request, without an optimisation level (plugins refine it).

        This default gives clang and llc :meth:`clang_flags` and :meth:`llc_flags`, when
        that version knows every CPU and feature they name, with the features where its
        CPU differs from LLVM 22's set back (``data/compilers.json``'s ``drift``); it has
        no gcc spelling.
        """
        arch = arch_family(self.triple)
        if compiler == "gcc":
            raise TargetError(
                f"no gcc spelling for this {arch} target ({self.triple}): gcc flags come from the CPU plugins "
                "that know gcc's names (tcfg-plugin-aarch64 for AArch64 and 32-bit Arm, tcfg-plugin-x86, "
                "tcfg-plugin-riscv); use clang or llc"
            )
        flags = without_opt_level(self.llc_flags() if compiler == "llc" else self.clang_flags())
        return require_known(compiler, version, arch, compensate(compiler, version, arch, flags))

    def mlir_attr(self) -> str:
        """MLIR's LLVM target attribute: ``#llvm.target<triple = ..., chip = ..., features = ...>`` (MLIR 22).

        ``features`` is left out when there are none.
        """
        parts = [f"triple = {_mlir_string(self.triple)}", f"chip = {_mlir_string(self.cpu)}"]
        if self.features:
            listed = ", ".join(_mlir_string(feature) for feature in self.features)
            parts.append(f"features = #llvm.target_features<[{listed}]>")
        return f"#llvm.target<{', '.join(parts)}>"

    def iree_flags(self) -> list[str]:
        """``iree-compile`` flags for IREE's ``llvm-cpu`` backend on the local device.

        Raises :class:`TargetError` for a triple whose architecture IREE's LLVM lacks
        (``data/iree.json``, from ``iree-compile --iree-llvmcpu-list-targets``: Hexagon,
        for one).
        """
        iree = package_json("tcfg", "data/iree.json")
        arch = arch_family(self.triple)
        if arch not in {arch_family(name) for name in iree["llvmcpu_arches"]}:
            raise TargetError(
                f"{iree['source'].split(' (')[0]}'s llvm-cpu backend has no {arch!r} target "
                f"(it has {', '.join(iree['llvmcpu_arches'])})"
            )
        flags = [
            "--iree-hal-target-device=local",
            "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-triple={self.triple}",
            f"--iree-llvmcpu-target-cpu={self.cpu}",
        ]
        if self.features:
            flags.append(f"--iree-llvmcpu-target-cpu-features={self.feature_string}")
        if self.float_abi in ("soft", "hard"):  # IREE's default is softfp
            flags.append(f"--iree-llvmcpu-target-float-abi={self.float_abi}")
        return flags

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "llvm",
            "triple": self.triple,
            "cpu": self.cpu,
            "features": self.feature_string,
            "float_abi": self.float_abi,
            "opt_level": self.opt_level,
            "clang": self.clang_flags(),
            "llc": self.llc_flags(),
            "notes": list(self.notes),
        }

    def emit_assembly(self, llvm_ir: str) -> str:
        """Optimise ``llvm_ir`` for this target (loop and SLP vectorisers on) and return assembly.

        Needs llvmlite (``pip install 'tcfg-core[llvm]'``).
        """
        try:
            import llvmlite.binding as llvm
        except ImportError as exc:
            raise TargetError("emitting assembly needs llvmlite: pip install 'tcfg-core[llvm]'") from exc
        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        try:
            target = llvm.Target.from_triple(self.triple)
        except RuntimeError as exc:
            raise TargetError(f"llvmlite's LLVM has no target for triple {self.triple!r}: {exc}") from exc
        machine = target.create_target_machine(
            cpu=self.cpu, features=self.feature_string, opt=self.opt_level, reloc="pic", codemodel="small"
        )
        try:
            module = llvm.parse_assembly(llvm_ir)
            module.verify()
        except RuntimeError as exc:
            raise TargetError(f"invalid LLVM IR: {exc}") from exc
        module.triple = self.triple
        module.data_layout = str(machine.target_data)
        tuning = llvm.create_pipeline_tuning_options(speed_level=self.opt_level)
        tuning.loop_vectorization = True
        tuning.slp_vectorization = True
        builder = llvm.create_pass_builder(machine, tuning)
        builder.getModulePassManager().run(module, builder)
        return str(machine.emit_assembly(module))


def _mlir_string(text: str) -> str:
    """``text`` as an MLIR string literal (a JSON string is one: the same escapes)."""
    return json.dumps(text)
