"""Intel Macs (``sysctl``) and Windows machines (CPUID dumps) recorded by archspec-json, read with LLVM's names.

The recordings are archspec-json's ``tests/targets/darwin-mojave-*`` and ``windows-cpuid-*``
(installed with archspec; Apache-2.0 OR MIT).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import tcfg
from tcfg_x86.facts import tables
from tcfg_x86.recorded import parse_cpuid_dump, parse_sysctl


def _targets() -> Path:
    archspec = pytest.importorskip("archspec", reason="the recorded machines come with archspec")
    return Path(archspec.__file__).parent / "json" / "tests" / "targets"


#: Recording -> (the CPU LLVM 22's getHostCPUName gives for its family and model, the LLVM features
#: its feature lines show beyond SSE2). haswell: family 6 model 0x46; ivybridge: 0x3a; skylake: 0x5e;
#: broadwell: leaf 1 EAX 0x306d4, model 0x3d; "icelake": leaf 1 EAX 0x806c1, model 0x8c, which LLVM
#: names tigerlake (archspec's label is its own).
RECORDED = {
    "darwin-mojave-haswell": ("haswell", {"avx2", "fma", "bmi2", "movbe", "lzcnt", "f16c", "rdrnd"}),
    "darwin-mojave-ivybridge": ("ivybridge", {"avx", "f16c", "rdrnd", "fsgsbase", "xsaveopt", "popcnt"}),
    "darwin-mojave-skylake": ("skylake", {"avx2", "adx", "rdseed", "clflushopt", "rtm", "sgx"}),
    "windows-cpuid-broadwell": ("broadwell", {"avx2", "adx", "rdseed", "xsaveopt", "prfchw"}),
    "windows-cpuid-icelake": ("tigerlake", {"avx512vp2intersect", "avx512vbmi2", "gfni", "vaes", "movdir64b"}),
}


def _read(name: str) -> str:
    path = _targets() / name
    if not path.exists():
        pytest.skip(f"this archspec has no recording {name}")
    return path.read_text()


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_machine_gets_llvms_name_and_its_features(make, name: str) -> None:
    text = _read(name)
    host = parse_sysctl(text) if name.startswith("darwin") else parse_cpuid_dump(text)
    cpu, shown = RECORDED[name]
    assert host.cpu == cpu
    assert shown <= host.features
    # CPU plus -mattr give exactly the checkable features the recording shows.
    checkable = {f for feats in tables().cpuinfo_flags.values() for f in feats}
    t = make({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": host.cpu, "mattr": list(host.mattr)})
    for feature in checkable:
        assert bool(t.features[feature]) == (feature in host.features), (name, feature)
    source = "sysctl" if name.startswith("darwin") else "cpuid"
    (target,) = tcfg.detect(sources={source: text})
    assert target.attrs["mcpu"] == cpu
    assert target.attrs["mtriple"] == ("x86_64-apple-macos" if source == "sysctl" else "x86_64-pc-windows-msvc")
    assert tcfg.Target(str(target)) == target


def test_xsave_features_come_from_the_xsave_leaf_only() -> None:
    """archspec guesses xsavec and xsaveopt from XSAVE; tcfg reads them from CPUID 0xD.1 when recorded."""
    haswell = parse_sysctl(_read("darwin-mojave-haswell"))  # no machdep.cpu.xsave line
    assert "xsave" in haswell.features and not {"xsaveopt", "xsavec"} & haswell.features
    ivy = parse_sysctl(_read("darwin-mojave-ivybridge"))  # extended_state1: 1 0 0 0 -> xsaveopt only
    assert "xsaveopt" in ivy.features and "xsavec" not in ivy.features


def test_family_from_the_signature() -> None:
    text = "machdep.cpu.vendor: GenuineIntel\nmachdep.cpu.signature: 198313\nmachdep.cpu.features: FPU SSE SSE2\n"
    assert parse_sysctl(text).cpu == "ivybridge"  # 0x306a9: family 6, model 0x3a


@pytest.mark.parametrize(
    ("source", "text", "match"),
    [
        ("cpuid", "0, 0, 20, 1970169159\n", r"recorded cpuid: line 1 '0, 0, 20, 1970169159': expected 'EAX-in"),
        ("cpuid", "0, 0, 20, x, 1, 2\n", r"line 1 .*: expected .*six decimal numbers"),
        ("cpuid", "0, 0, 20, 1970169159, 1818588270, 1231384169\n", r"no line for leaf 1 sub-leaf 0"),
        (
            "sysctl",
            "machdep.cpu.features: FPU SSE BOGUS\nmachdep.cpu.model: 58\n",
            r"line 'machdep.cpu.features' names 'BOGUS'",
        ),
        (
            "sysctl",
            "machdep.cpu.features: FPU\nmachdep.cpu.model: x3a\n",
            r"line 'machdep.cpu.model: x3a': expected a decimal",
        ),
        ("sysctl", "machdep.cpu.features: FPU\n", r"no 'machdep.cpu.model' or 'machdep.cpu.signature' line"),
        (
            "sysctl",
            "machdep.cpu.features: FPU\nmachdep.cpu.model: 58\nmachdep.cpu.xsave.extended_state1: 1 0\n",
            r"extended_state1: 1 0': expected four decimal numbers",
        ),
    ],
)
def test_bad_recordings_are_target_errors(source: str, text: str, match: str) -> None:
    with pytest.raises(tcfg.TargetError, match=match):
        tcfg.detect(sources={source: text})


def test_the_flag_table_is_what_its_sources_say() -> None:
    """``data/recorded_flags.json`` equals what gen_recorded_flags.py makes of archspec-json and XNU
    (``TCFG_XNU``: a checkout or clone of apple-oss-distributions/xnu)."""
    xnu = os.environ.get("TCFG_XNU")
    if not xnu:
        pytest.skip("set TCFG_XNU to a clone of apple-oss-distributions/xnu to check data/recorded_flags.json")
    archspec_json = _targets().parents[1]
    script = Path(__file__).resolve().parents[1] / "scripts" / "gen_recorded_flags.py"
    done = subprocess.run(
        [sys.executable, str(script), str(archspec_json), xnu, "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
