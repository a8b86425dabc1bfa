"""Codegen: for every processor and target-ID/wavefront variant, clang, hipcc, llc and mlir-opt agree.

clang's feature map (the ``target-features`` it writes into IR) is the reference: with the
codegen's clang flags, with hipcc's flags, and as ``clang -mcpu=TARGET_ID`` itself, it must
be exactly the features the target reports. llc must compile a kernel with the llc flags
and emit the same target ID, wavefront size and code object version.
"""

from __future__ import annotations

import re

import pytest

import tcfg
from tcfg_rocm.codegen import CODE_OBJECT_VERSION
from tcfg_rocm.facts import llvm_features
from tcfg_rocm.llvm_tools import LLVMTools

from .conftest import variants

#: The LLVM names of our feature names (``dot10_insts`` -> ``dot10-insts``).
_LLVM_NAME = {name.lower().replace("-", "_").replace(".", "_"): name for name in llvm_features()}


def _enabled(t: tcfg.Target) -> set[str]:
    return {_LLVM_NAME[name] for name, value in dict(t.features).items() if name in _LLVM_NAME and value is True}


def _reference_flags(t: tcfg.Target) -> list[str]:
    """How a clang user writes the target by hand: -mcpu=TARGET_ID and each -mattr as -target-feature."""
    flags = [f"-mcpu={t.attrs['mcpu']}"]
    for feat in t.attrs.get("mattr", ()):
        flags += ["-Xclang", "-target-feature", "-Xclang", feat]
    return flags


@pytest.mark.parametrize("spec", variants())
def test_clang_enables_exactly_the_targets_features(reg: tcfg.Registry, tools: LLVMTools, spec: str) -> None:
    t = tcfg.Target(spec, registry=reg)
    codegen = t.codegen()
    reference = tools.target_features(_reference_flags(t))
    ours = tools.target_features(codegen.clang_flags()[1:])  # target_features adds --target
    hip = tools.target_features(codegen.hipcc_flags(), hip=True)
    assert not isinstance(reference, str), reference
    assert {f[1:] for f in reference if f.startswith("+")} == _enabled(t)
    assert set(ours) == set(reference)
    assert set(hip) == set(reference)
    disabled = {f[1:] for f in reference if f.startswith("-")}
    assert all(t.features[name] is False for name in disabled)


@pytest.mark.parametrize("spec", variants())
def test_llc_compiles_with_the_llc_flags(reg: tcfg.Registry, tools: LLVMTools, spec: str) -> None:
    t = tcfg.Target(spec, registry=reg)
    codegen = t.codegen()
    run = tools.run_llc(codegen.llc_flags())
    assert run.returncode == 0, run.stderr
    assert f'.amdgcn_target "amdgcn-amd-amdhsa--{t.attrs["mcpu"]}"' in run.stdout
    assert f".amdhsa_code_object_version {CODE_OBJECT_VERSION}" in run.stdout
    wave32 = re.search(r"\.amdhsa_wavefront_size32 (\d)", run.stdout)
    if wave32 is not None:  # gfx10 and later state it
        assert (wave32.group(1) == "1") == (t.features.wavefront_size == 32)
    else:
        assert t.features.wavefront_size == 64


def test_flags_shape(reg: tcfg.Registry) -> None:
    codegen = tcfg.Target("rocm -mcpu=gfx90a:xnack+", registry=reg).codegen()
    assert codegen.clang_flags() == ["--target=amdgcn-amd-amdhsa", "-mcpu=gfx90a:xnack+", "-O2"]
    assert codegen.llc_flags() == ["-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-mattr=+xnack", "-O=2"]
    assert codegen.hipcc_flags() == ["--offload-arch=gfx90a:xnack+"]
    wave64 = tcfg.Target("rocm -mcpu=gfx1100 -mattr=+wavefrontsize64", registry=reg).codegen()
    assert "-mwavefrontsize64" in wave64.clang_flags() and "-mwavefrontsize64" in wave64.hipcc_flags()
    data = codegen.to_dict()
    assert data["kind"] == "rocm" and data["cpu"] == "gfx90a:xnack+" and data["features"] == "+xnack"


def test_hipcc_refuses_device_features_it_cannot_pass(reg: tcfg.Registry) -> None:
    codegen = tcfg.Target("rocm -mcpu=gfx90a -mattr=+packed-fp32-ops", registry=reg).codegen()
    with pytest.raises(tcfg.TargetError, match="packed-fp32-ops"):
        codegen.hipcc_flags()
    assert codegen.to_dict()["hipcc"] is None


def test_triton_target(reg: tcfg.Registry) -> None:
    assert tcfg.Target("rocm -mcpu=gfx942:sramecc+:xnack-", registry=reg).codegen().triton_target() == (
        "hip",
        "gfx942",
        64,
    )
    assert tcfg.Target("amd/radeon-rx-7900-xtx", registry=reg).codegen().triton_target() == ("hip", "gfx1100", 32)
    with pytest.raises(tcfg.TargetError, match="generic target"):
        tcfg.Target("rocm -mcpu=gfx9-generic", registry=reg).codegen().triton_target()


def test_iree_flags_shape(reg: tcfg.Registry) -> None:
    flags = tcfg.Target("rocm -mcpu=gfx942", registry=reg).codegen().iree_flags()
    assert flags == ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"]
    flags = tcfg.Target("rocm -mcpu=gfx942:sramecc+:xnack-", registry=reg).codegen().iree_flags()
    assert flags[-1] == "--iree-rocm-target-features=+sramecc,-xnack"
    with pytest.raises(tcfg.TargetError, match="wavefrontsize64"):
        tcfg.Target("rocm -mcpu=gfx1100 -mattr=+wavefrontsize64", registry=reg).codegen().iree_flags()


#: #rocdl.target's parameters and the defaults mlir-opt leaves out when printing (LLVM 22 ROCDLOps.td).
_ROCDL_DEFAULTS = {"O": "2", "triple": "amdgcn-amd-amdhsa", "chip": "gfx900", "features": "", "abi": "600"}


def _printed_params(text: str) -> dict[str, str]:
    match = re.search(r"#rocdl\.target(?:<(.*)>)?\]", text)
    assert match is not None, text
    found = dict(_ROCDL_DEFAULTS)
    body = match.group(1) or ""
    for key, value in re.findall(r'(\w+) = ("[^"]*"|\{[^}]*\}|\d+)', body):
        found[key] = value.strip('"')
    return found


@pytest.mark.parametrize("spec", variants())
def test_mlir_opt_reads_the_rocdl_target(reg: tcfg.Registry, tools: LLVMTools, spec: str) -> None:
    codegen = tcfg.Target(spec, registry=reg).codegen()
    module = f"module attributes {{gpu.container_module}} {{\n  gpu.module @k [{codegen.mlir_attr()}] {{}}\n}}\n"
    run = tools.mlir_opt(module)
    if run.returncode == 127:
        pytest.skip(run.stderr)
    assert run.returncode == 0, run.stderr
    printed = _printed_params(run.stdout)
    assert printed["O"] == str(codegen.opt_level)
    assert printed["triple"] == codegen.triple
    assert printed["chip"] == codegen.processor
    assert printed["features"] == ",".join(codegen.features)
    assert printed["abi"] == str(CODE_OBJECT_VERSION * 100)
    assert ("no_wave64" in printed.get("flags", "")) == (codegen.wavefront_size == 32)
