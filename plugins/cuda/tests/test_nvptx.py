"""The nvptx kind against llc-22 and clang-22: every processor with every PTX version llc lists."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import tcfg
import tcfg_cuda
from tcfg_cuda.facts import llvm_min_ptx, llvm_processors

TRIPLE = "nvptx64-nvidia-cuda"
KERNEL = (
    f'target triple = "{TRIPLE}"\n'
    "define ptx_kernel void @k(ptr addrspace(1) %p) {\n  store i32 1, ptr addrspace(1) %p\n  ret void\n}\n"
)
C_SOURCE = "void f(float *p) { *p = 1.0f; }\n"
CUDA_SOURCE = "__attribute__((global)) void k(float *p) { *p = 1.0f; }\n"


@pytest.fixture(scope="module")
def llc() -> str:
    found = shutil.which("llc-22")
    if found is None:
        pytest.skip("llc-22 (LLVM 22, apt package llvm-22) is not installed")
    return found


def _help(llc: str) -> str:
    proc = subprocess.run([llc, f"-mtriple={TRIPLE}", "-mcpu=help"], capture_output=True, text=True, check=False)
    return proc.stdout + proc.stderr


def _llc(llc: str, flags: list[str]) -> tuple[int, str | None, str | None, str]:
    """(exit status, .version, .target, stderr) of llc-22 compiling the kernel with ``flags``."""
    proc = subprocess.run([llc, *flags, "-o", "-"], input=KERNEL, capture_output=True, text=True, check=False)
    version = re.search(r"^\.version (\S+)$", proc.stdout, re.M)
    target = re.search(r"^\.target (\S+)$", proc.stdout, re.M)
    return proc.returncode, version and version.group(1), target and target.group(1), proc.stderr


def _check(llc: str, reg: tcfg.Registry, cpu: str, ptx: str | None) -> list[str]:
    spec = f"nvptx -mcpu={cpu}" + (f" -mattr=+{ptx}" if ptx else "")
    raw = [f"-mtriple={TRIPLE}", f"-mcpu={cpu}", *([f"-mattr=+{ptx}"] if ptx else [])]
    try:
        t = tcfg.Target(spec, registry=reg)
    except tcfg.TargetError as exc:
        status, _, _, err = _llc(llc, raw)
        needs = re.search(r"Minimum required PTX version is (\d+\.\d+)", err)
        if status == 0:
            return [f"{spec}: llc-22 accepts, tcfg says {exc}"]
        if needs is None or f"PTX {needs.group(1)} or later" not in str(exc):
            return [f"{spec}: llc-22 says {err.strip()[:200]!r}, tcfg says {exc}"]
        return []
    cg = t.codegen()
    status, version, target, err = _llc(llc, cg.llc_flags())
    if status != 0 or err.strip():
        return [f"{spec}: tcfg accepts, llc-22 {cg.llc_flags()} says {err.strip()[:200]!r}"]
    if (version, target) != (t.features.ptx_isa, cpu):
        return [f"{spec}: llc-22 writes .version {version} .target {target}, tcfg says PTX {t.features.ptx_isa}"]
    if ptx is None and _llc(llc, raw)[1] != version:
        return [f"{spec}: llc-22's own default PTX differs from tcfg's {version}"]
    return []


@pytest.fixture(scope="module")
def listed(llc: str) -> tuple[list[str], list[str]]:
    """The processors and the PTX versions (``ptx90``) ``llc-22 -mcpu=help`` lists for NVPTX."""
    text = _help(llc)
    cpus = re.findall(r"^  (sm_\w+)\s+- Select", text, re.M)
    ptxs = re.findall(r"^  (ptx\d+)\s+- Use PTX", text, re.M)
    assert sorted(llvm_processors()) == sorted(cpus)
    return cpus, ptxs


def _check_all(llc: str, reg: tcfg.Registry, jobs: list[tuple[str, str | None]]) -> None:
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        problems = [p for found in pool.map(lambda job: _check(llc, reg, *job), jobs) for p in found]
    assert not problems, "\n".join(problems)


def test_every_processor_at_the_edges_of_its_ptx_range(
    llc: str, reg: tcfg.Registry, listed: tuple[list[str], list[str]]
) -> None:
    """Every processor with llc's default PTX, the newest PTX, its minimum PTX and the version before it.

    The minimum is where llc and tcfg turn from refusing to accepting; the slow test below tries every version.
    """
    cpus, ptxs = listed
    jobs: list[tuple[str, str | None]] = []
    for cpu in cpus:
        at = ptxs.index("ptx" + llvm_min_ptx(cpu).replace(".", ""))
        edges = {at - 1, at, len(ptxs) - 1} & set(range(len(ptxs)))
        jobs += [(cpu, None), *((cpu, ptxs[i]) for i in sorted(edges))]
    _check_all(llc, reg, jobs)


@pytest.mark.slow
def test_every_processor_with_every_ptx_version(
    llc: str, reg: tcfg.Registry, listed: tuple[list[str], list[str]]
) -> None:
    cpus, ptxs = listed
    jobs = [(cpu, ptx) for cpu in cpus for ptx in [None, *ptxs]]
    assert len(jobs) == len(cpus) * (len(ptxs) + 1) == 40 * 32
    _check_all(llc, reg, jobs)


def test_clang_flags_compile_for_the_processor_and_ptx(reg: tcfg.Registry) -> None:
    clang = shutil.which("clang-22")
    if clang is None:
        pytest.skip("clang-22 is not installed")
    listed = subprocess.run(
        [clang, "-x", "c", f"--target={TRIPLE}", "-march=sm_unknown", "-S", "-", "-o", "-"],
        input="",
        capture_output=True,
        text=True,
        check=False,
    ).stderr
    knows = {c.strip() for c in listed.split("valid target CPU values are:", 1)[1].split(",")}
    jobs = []
    for cpu in llvm_processors():
        cg = tcfg.Target(f"nvptx -mcpu={cpu}", registry=reg).codegen()
        if cpu not in knows:
            assert cg.to_dict()["clang"] is None
            with pytest.raises(tcfg.TargetError, match="clang-22 cannot compile"):
                cg.clang_flags()
            continue
        for flags, lang, source in ((cg.clang_flags(), "c", C_SOURCE), (cg.cuda_clang_flags(), "cuda", CUDA_SOURCE)):
            cmd = [clang, "-x", lang, *flags, "-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version", "-S", "-"]
            jobs.append((cpu, cg.ptx_isa, cmd, source))

    def compile_one(job: tuple[str, str, list[str], str]) -> str | None:
        cpu, ptx_isa, cmd, source = job
        proc = subprocess.run([*cmd, "-o", "-"], input=source, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            return f"{cmd}: {proc.stderr}"
        if f".version {ptx_isa}\n" not in proc.stdout or f".target {cpu}" not in proc.stdout:
            return f"{cmd}: {proc.stdout[:300]}"
        return None

    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:  # the compilations are independent
        problems = [problem for problem in pool.map(compile_one, jobs) if problem]
    assert not problems, "\n".join(problems)
    assert len(jobs) >= 2 * 30


def test_llvm_minimum_matches_the_cuda_arch_table() -> None:
    """LLVM 22's lowest PTX per arch is NVIDIA's (the arch table's), except where LLVM asks more."""
    table = {a: tcfg_cuda.arch_info(a).min_ptx_isa for a in tcfg_cuda.facts.arch_names()}
    differ = {a: (m, llvm_min_ptx(a)) for a, m in table.items() if llvm_min_ptx(a) != m}
    # LLVM's NVPTX backend writes nothing older than PTX 3.2 (Fermi and Kepler), and asks
    # PTX 9.0 for sm_88, where ptxas 13 takes 7.3.
    fermi_kepler = {a: (table[a], "3.2") for a in ("sm_20", "sm_21", "sm_30", "sm_35")}
    assert differ == {"sm_88": ("7.3", "9.0"), **fermi_kepler}
    assert set(table) <= set(llvm_processors())


@pytest.mark.parametrize("cpu", ["sm_20", "sm_37", "sm_80", "sm_88", "sm_90a", "sm_100f", "sm_121a"])
def test_round_trips_and_keys(cpu: str, reg: tcfg.Registry) -> None:
    for spec in (f"nvptx -mcpu={cpu}", f"nvptx -mcpu={cpu} -mattr=+ptx90 -max_num_threads=256"):
        t = tcfg.Target(spec, registry=reg)
        assert t.keys == ("cuda", "gpu") and t.kind.device_type == "cuda"
        assert tcfg.Target(str(t), registry=reg) == t
        assert tcfg.Target(t.export(), registry=reg) == t
        assert tcfg.Target(t.to_json(), registry=reg) == t


def test_every_processor_round_trips(reg: tcfg.Registry) -> None:
    for cpu in llvm_processors():
        t = tcfg.Target(f"nvptx -mcpu={cpu}", registry=reg)
        assert tcfg.Target(str(t), registry=reg) == t and tcfg.Target(t.export(), registry=reg) == t


def test_features_follow_the_cuda_arch(reg: tcfg.Registry) -> None:
    for arch in tcfg_cuda.facts.arch_names():
        nvptx = tcfg.Target(f"nvptx -mcpu={arch}", registry=reg).features
        cuda = tcfg.Target(f"cuda -arch={arch}", registry=reg).features
        assert {k: v for k, v in dict(cuda).items()} == {k: v for k, v in dict(nvptx).items() if k != "ptx_isa"}
    assert tcfg.Target("nvptx -mcpu=sm_90a", registry=reg).features.wgmma
    assert not tcfg.Target("nvptx", registry=reg).features.tensor_cores


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("nvptx -mcpu=sm_90a -mattr=+ptx78", r"PTX 8\.0 or later"),
        ("nvptx -mcpu=sm_91", "did you mean 'sm_90'"),
        ("nvptx -mcpu=sm_80 -mattr=+ptx99", "did you mean '\\+ptx90'"),
        ("nvptx -mcpu=sm_80 -mattr=+sm_90", "comes from -mcpu"),
        ("nvptx -mcpu=sm_80 -mattr=+ptx80,+ptx81", "one PTX version"),
        ("nvptx -mattr=+ptx80", "needs -mcpu"),
        ("nvptx -mcpu=sm_80 -thread_warp_size=64", "warp size on sm_80 is 32"),
        ("nvptx -mcpu=sm_80 -max_num_threads=2048", "1024"),
        ("nvptx -mtriple=nvptx-nvidia-cuda", "nvptx64-nvidia-cuda"),
    ],
)
def test_bad_input_is_a_target_error(spec: str, says: str, reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match=says):
        tcfg.Target(spec, registry=reg)


def test_generic_target_codegen_asks_for_mcpu(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match="-mcpu"):
        tcfg.Target("nvptx", registry=reg).codegen()


def test_committed_table_is_what_llc_says(llc: str) -> None:
    script = Path(__file__).resolve().parents[1] / "scripts" / "gen_nvptx_table.py"
    proc = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
