"""``tcfg.detect(sources=...)`` with the installed plugins on recorded machines, and this machine against LLVM.

Recordings: archspec-json's ``tests/targets/`` (installed with archspec; Apache-2.0 OR MIT,
https://github.com/archspec/archspec-json), and the GPU outputs under each plugin's
``tests/fixtures`` (their READMEs give the sources). Each plugin's tests check the CPU
LLVM 22 gives for its architecture's recordings (aarch64: test_cpuinfo.py, riscv:
test_detect.py).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import tcfg

ROOT = Path(__file__).resolve().parents[1]


def _archspec_targets() -> Path:
    archspec = pytest.importorskip("archspec", reason="the recorded machines come with archspec")
    return Path(archspec.__file__).parent / "json" / "tests" / "targets"


def test_every_linux_recording_builds() -> None:
    """Every archspec Linux recording of an architecture with an installed plugin gives one CPU target."""
    plugins = {r.name for r in tcfg.plugins() if r.status == "loaded"}
    families = {"aarch64": "aarch64", "x86": "x86", "riscv": "riscv"}
    checked = 0
    for path in sorted(_archspec_targets().glob("linux-*")):
        text = path.read_text()
        found = tcfg.detect(sources={"cpuinfo": text})
        arch = "x86" if "vendor_id" in text else "riscv" if re.search(r"^isa\s*:\s*rv", text, re.M) else "aarch64"
        if "power" in path.name:
            assert found == [], path.name
            continue
        if families[arch] not in plugins:
            continue
        assert len(found) == 1 and found[0].kind.name == "llvm", path.name
        checked += 1
    assert checked > 0


def _fixture(plugin: str, name: str) -> str:
    return (ROOT / "plugins" / plugin / "tests" / "fixtures" / name).read_text()


def test_recorded_gpus_discrete_first_software_last() -> None:
    for plugin in ("tcfg_cuda", "tcfg_gpuapi"):
        pytest.importorskip(plugin)
    found = tcfg.detect(
        sources={
            "vulkaninfo": [_fixture("gpuapi", "vulkaninfo-llvmpipe-mesa-22.3.6.json")],
            "nvidia-smi": _fixture("cuda", "nvidia-smi-titan-v-rtx-5880.csv"),
        }
    )
    assert [(t.kind.name, t.attrs.get("arch")) for t in found] == [
        ("cuda", "sm_70"),
        ("cuda", "sm_89"),
        ("vulkan", None),
    ]
    assert found[-1].attrs["device_type"] == "cpu"
    for target in found:
        assert tcfg.Target(str(target)) == target


def test_recorded_rocm_and_opencl_devices() -> None:
    for plugin in ("tcfg_rocm", "tcfg_gpuapi", "tcfg_x86"):
        pytest.importorskip(plugin)
    found = tcfg.detect(
        sources={
            "rocminfo": _fixture("rocm", "rocminfo-8x-mi300x-gfx942.txt"),
            "clinfo": _fixture("gpuapi", "clinfo-pocl-3.1-debian.json"),
            "cpuinfo": (_archspec_targets() / "linux-rhel7-haswell").read_text(),
        }
    )
    # The CPU first (whichever plugin read it), then the GPU, the OpenCL device on the CPU last.
    assert [(t.kind.name, t.attrs.get("mcpu"), t.attrs.get("device_type")) for t in found] == [
        ("llvm", "haswell", None),
        ("rocm", "gfx942", None),
        ("opencl", None, "cpu"),
    ]


def test_recorded_rocminfo_names_the_gpu_llvm_dropped() -> None:
    pytest.importorskip("tcfg_rocm")
    with pytest.raises(tcfg.TargetError, match=r"rocminfo agent 2 \(AMD Instinct MI300X\) is gfx941, which"):
        tcfg.detect(sources={"rocminfo": _fixture("rocm", "rocminfo-mi300x.txt")})


def test_recorded_vulkaninfo_that_is_not_json() -> None:
    pytest.importorskip("tcfg_gpuapi")
    with pytest.raises(tcfg.TargetError, match=r"recorded vulkaninfo #1 is not JSON"):
        tcfg.detect(sources={"vulkaninfo": ["GPU0: llvmpipe"]})


def _llc_host_cpu() -> str:
    llc = shutil.which("llc-22")
    if llc is None:
        pytest.skip("llc-22 is not installed")
    out = subprocess.run([llc, "--version"], capture_output=True, text=True, check=True).stdout
    match = re.search(r"Host CPU: (\S+)", out)
    assert match, out
    return match.group(1)


def _this_machines_cpu() -> tcfg.Target:
    cpus = [t for t in tcfg.detect() if t.kind.device_type == "cpu" and "mtriple" in t.attrs]
    if not cpus:
        pytest.skip("no installed plugin detects this machine's CPU")
    return cpus[0]


def test_this_machine_is_what_llc_says() -> None:
    assert _this_machines_cpu().attrs.get("mcpu", "generic") == _llc_host_cpu()


def test_this_machine_has_the_features_clang_native_gives() -> None:
    """Where the kernel's flags and CPUID agree, tcfg's features are clang -march=native's (see docs/cli.md)."""
    clang = shutil.which("clang-22")
    if clang is None:
        pytest.skip("clang-22 is not installed")
    target = _this_machines_cpu()
    run = subprocess.run([clang, "-march=native", "-###", "-c", "-x", "c", "/dev/null"], capture_output=True, text=True)
    native = dict((item[1:], item[0] == "+") for item in re.findall(r'"-target-feature" "([+-][^"]+)"', run.stderr))
    assert native, run.stderr
    features = target.features
    differ = sorted(
        name
        for name, on in native.items()
        if name.replace("-", "_") in features and (features[name.replace("-", "_")] is True) != on
    )
    assert differ == [], f"tcfg and clang-22 -march=native disagree on {differ} ({target})"


def test_this_machine_is_what_llvmlite_says() -> None:
    """Where llvmlite (built on LLVM 22) is installed: its host CPU name and features agree too."""
    binding = pytest.importorskip("llvmlite.binding", reason="llvmlite is not installed")
    if binding.llvm_version_info[0] != 22:
        pytest.skip(f"llvmlite is built on LLVM {binding.llvm_version_info[0]}, not 22")
    target = _this_machines_cpu()
    assert target.attrs.get("mcpu", "generic") == binding.get_host_cpu_name()
    features = target.features
    differ = sorted(
        name
        for name, on in binding.get_host_cpu_features().items()
        if name.replace("-", "_") in features and (features[name.replace("-", "_")] is True) != on
    )
    assert differ == [], f"tcfg and llvmlite disagree on {differ} ({target})"


@pytest.mark.parametrize("plugin", ["aarch64", "riscv", "x86"])
def test_host_rules_are_what_the_generator_makes_of_llvm(plugin: str) -> None:
    """``plugins/*/scripts/gen_host_cpu.py --check`` against LLVM's Host.cpp, where $LLVM_HOST_CPP names one."""
    import os
    import sys

    host_cpp = os.environ.get("LLVM_HOST_CPP")
    if not host_cpp:
        pytest.skip("set LLVM_HOST_CPP to llvm/lib/TargetParser/Host.cpp to check the generated host rules")
    script = ROOT / "plugins" / plugin / "scripts" / "gen_host_cpu.py"
    revision = "llvm-project main f81a5ee22372 (LLVM 22)"
    run = subprocess.run([sys.executable, str(script), host_cpp, revision, "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
