"""CUDA and NVPTX codegens in MLIR's, IREE's and Triton's forms; the MLIR attribute checked with mlir-opt-22."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

import tcfg
import tcfg_cuda
from tcfg_cuda.facts import llvm_processors

MODULE = "module attributes {{gpu.container_module}} {{\n{modules}}}\n"
GPU_MODULE = "  gpu.module @k{index} {attrs}{{\n  }}\n"


@pytest.fixture(scope="module")
def mlir_opt() -> str:
    found = shutil.which("mlir-opt-22")
    if found is None:
        pytest.skip("mlir-opt-22 (apt package mlir-22-tools) is not installed")
    return found


def _opt(mlir_opt: str, text: str, *args: str) -> str:
    proc = subprocess.run([mlir_opt, *args], input=text, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _gpu_modules(printed: str) -> list[str]:
    """The ``gpu.module`` lines mlir-opt printed, in order."""
    return [line.strip() for line in printed.splitlines() if line.strip().startswith("gpu.module")]


def _same_in_mlir(mlir_opt: str, attrs: list[str]) -> None:
    """mlir-opt parses each of ``attrs`` and prints what its own nvvm-attach-target pass makes of the same values.

    One module holds a ``gpu.module @kI`` per attribute: mlir-opt prints them all in one run
    (ours), and attaches each its values in another, one pass instance per module (theirs).
    """
    ours = _opt(
        mlir_opt,
        MODULE.format(modules="".join(GPU_MODULE.format(index=i, attrs=f"[{a}] ") for i, a in enumerate(attrs))),
    )
    passes = []
    for index, attr in enumerate(attrs):
        values = dict(re.findall(r'(\w+) = "?([^",>]+)"?', attr))
        options = f"O={values['O']} triple={values['triple']} chip={values['chip']} features={values['features']}"
        passes.append(f"nvvm-attach-target{{module=^k{index}$ {options}}}")
    bare = MODULE.format(modules="".join(GPU_MODULE.format(index=i, attrs="") for i in range(len(attrs))))
    theirs = _opt(mlir_opt, bare, f"--pass-pipeline=builtin.module({','.join(passes)})")
    pairs = list(zip(attrs, _gpu_modules(ours), _gpu_modules(theirs), strict=True))
    # mlir-opt leaves out values equal to its defaults
    assert [(a, o, t) for a, o, t in pairs if o != t] == []
    assert ours == theirs


def test_mlir_attr_of_every_cuda_arch_llvm_knows(mlir_opt: str, reg: tcfg.Registry) -> None:
    arches = [a for a in tcfg_cuda.facts.arch_names() if a in llvm_processors()]
    assert len(arches) == len(tcfg_cuda.facts.arch_names())
    _same_in_mlir(mlir_opt, [tcfg.Target(f"cuda -arch={arch}", registry=reg).codegen().mlir_attr() for arch in arches])


def test_mlir_attr_of_every_nvptx_processor(mlir_opt: str, reg: tcfg.Registry) -> None:
    attrs = [
        tcfg.Target(f"nvptx -mcpu={cpu} -mattr=+ptx90", registry=reg).codegen().mlir_attr() for cpu in llvm_processors()
    ]
    _same_in_mlir(mlir_opt, attrs)


def test_mlir_attr_spelling(reg: tcfg.Registry) -> None:
    assert (
        tcfg.Target("cuda -arch=sm_90a", registry=reg).codegen().mlir_attr()
        == '#nvvm.target<O = 3, triple = "nvptx64-nvidia-cuda", chip = "sm_90a", features = "+ptx80">'
    )


def test_triton_target(reg: tcfg.Registry) -> None:
    assert tcfg.Target("cuda -arch=sm_90a", registry=reg).codegen().triton_target() == ("cuda", 90, 32)
    for arch in tcfg_cuda.facts.arch_names():
        info = tcfg_cuda.arch_info(arch)
        expected = ("cuda", info.major * 10 + info.minor, info.limits["warp_size"])
        assert tcfg.Target(f"cuda -arch={arch}", registry=reg).codegen().triton_target() == expected
        assert tcfg.Target(f"nvptx -mcpu={arch}", registry=reg).codegen().triton_target() == expected


def test_iree_flags_shape(reg: tcfg.Registry) -> None:
    for spec, chip, ptx in (
        ("cuda -arch=sm_80", "sm_80", "+ptx70"),
        ("nvptx -mcpu=sm_89 -mattr=+ptx85", "sm_89", "+ptx85"),
    ):
        flags = tcfg.Target(spec, registry=reg).codegen().iree_flags()
        assert flags == [
            "--iree-hal-target-device=cuda",
            f"--iree-cuda-target={chip}",
            f"--iree-cuda-target-features={ptx}",
        ]


def test_iree_flags_refuse_what_iree_compile_cannot_target(reg: tcfg.Registry) -> None:
    """The probed iree-compile (data/iree.json) has no GPU target for sm_90a: a clear error naming those it has."""
    with pytest.raises(tcfg.TargetError, match=r"has no CUDA GPU target for sm_90a; it compiles for sm_60, "):
        tcfg.Target("cuda -arch=sm_90a", registry=reg).codegen().iree_flags()


def test_cuda_interop_uses_llvms_minimum_ptx(reg: tcfg.Registry) -> None:
    cg = tcfg.Target("cuda -arch=sm_88", registry=reg).codegen()
    assert 'features = "+ptx90"' in cg.mlir_attr() and cg.nvptx().ptx_isa == "9.0"
