"""Host detection from /proc/cpuinfo: recorded machines (archspec's recordings) and this one."""

from __future__ import annotations

import platform
import re
from pathlib import Path

import pytest

from tcfg_x86.detect import detect, parse_cpuinfo
from tcfg_x86.facts import tables


def _recordings() -> dict[str, str]:
    try:
        import archspec
    except ImportError:
        return {}
    folder = Path(archspec.__file__).parent / "json" / "tests" / "targets"
    out = {}
    for path in sorted(folder.glob("linux-*")):
        text = path.read_text()
        if "\nflags" in text or text.startswith("flags"):
            out[path.name] = text
    return out


RECORDINGS = _recordings()
needs_recordings = pytest.mark.skipif(not RECORDINGS, reason="archspec (with its cpuinfo recordings) is not installed")


@needs_recordings
@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_recorded_machine(make, name: str) -> None:
    host = parse_cpuinfo(RECORDINGS[name])
    checkable = {f for feats in tables().cpuinfo_flags.values() for f in feats}
    # CPU plus -mattr give exactly the checkable features the host's flags show.
    t = make({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": host.cpu, "mattr": list(host.mattr)})
    for feature in checkable:
        assert bool(t.features[feature]) == (feature in host.features), (name, feature)


#: What the older kernel of the "alderlake" recording does not show of arrowlake-s.
OLD_KERNEL_MISSING = ("avxifma", "avxneconvert", "avxvnniint16", "avxvnniint8", "cmpccxadd", "enqcmd", "sgx", "sha512")
OLD_KERNEL_MISSING += ("sm3", "sm4")


@needs_recordings
@pytest.mark.parametrize(
    ("name", "cpu", "missing"),
    [
        # clang-22's sapphirerapids and raptorlake have sgx; these hosts' flags do not show it.
        ("linux-unknown-sapphirerapids", "sapphirerapids", ("sgx",)),
        ("linux-rocky9-zen5", "znver5", ()),
        ("linux-rhel7-broadwell", "broadwell", ()),
        # Family 6 model 0xc6: LLVM 22 says arrowlake-s. This recording's kernel predates the flags
        # of AVX-IFMA, CMPCCXADD, SHA512, ... (the arrowlake_s recording shows them): tcfg trusts the
        # flags line, so they count as missing (docs/cli.md, "Which source tcfg trusts").
        (
            "linux-ubuntu24.04-alderlake",
            "arrowlake-s",
            OLD_KERNEL_MISSING,
        ),
    ],
)
def test_recorded_machine_names(name: str, cpu: str, missing: tuple[str, ...]) -> None:
    host = parse_cpuinfo(RECORDINGS[name])
    assert (host.cpu, host.closest, host.missing) == (cpu, cpu, missing)


@needs_recordings
def test_vm_without_waitpkg_keeps_amx(make) -> None:
    text = RECORDINGS["linux-unknown-sapphirerapids"].replace(" waitpkg", "")
    host = parse_cpuinfo(text)
    assert host.closest == "sapphirerapids" and host.missing == ("sgx", "waitpkg")
    assert host.cpu == "sapphirerapids" and "-waitpkg" in host.mattr
    t = make({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": host.cpu, "mattr": list(host.mattr)})
    assert t.features.amx_tile and t.features.amx_int8 and t.features.amx_bf16
    assert not t.features.waitpkg


@needs_recordings
def test_recorded_zen4_with_hidden_flags_lists_them() -> None:
    host = parse_cpuinfo(RECORDINGS["linux-rocky8.5-zen4"])
    assert host.closest == "znver4" and host.missing
    assert {"avx512bf16", "avx512vnni", "avx512f"} <= host.features
    assert host.cpu == "znver4" and {f"-{f}" for f in host.missing} <= set(host.mattr)


def test_not_x86_cpuinfo_is_an_error() -> None:
    import tcfg

    with pytest.raises(tcfg.TargetError, match="flags"):
        parse_cpuinfo("processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n")


on_x86_linux = pytest.mark.skipif(
    platform.system() != "Linux" or platform.machine() not in ("x86_64", "i686", "i386"),
    reason="needs x86 Linux",
)


@on_x86_linux
def test_this_machine(reg, make) -> None:
    specs = detect()
    assert len(specs) == 1
    found = reg.detect()
    assert any(t.keys == ("x86", "cpu") for t in found)
    native = make("llvm -mcpu=native")
    assert native.attrs["mcpu"] == specs[0]["mcpu"] and native.attrs["mcpu"] in tables().cpus
    host = parse_cpuinfo(Path("/proc/cpuinfo").read_text())
    for feature in host.features:
        assert native.features[feature], feature


@on_x86_linux
def test_this_machine_agrees_with_llvm_host_detection(make) -> None:
    llvm = pytest.importorskip("llvmlite.binding", reason="needs llvmlite")
    reported = dict(llvm.get_host_cpu_features())
    llvm_says = {name for name, on in reported.items() if on}
    host = parse_cpuinfo(Path("/proc/cpuinfo").read_text())
    # Linux shows a subset of CPUID: whatever it shows (and LLVM's detection has a name
    # for), LLVM (reading CPUID itself) must see too.
    assert host.features & reported.keys() <= llvm_says


#: archspec's x86 Linux recordings -> the CPU LLVM 22's getHostCPUName gives for their vendor, family
#: and model (Host.cpp: getIntelProcessorTypeAndSubtype, getAMDProcessorTypeAndSubtype); archspec's
#: own labels differ (its "alderlake" recording is family 6 model 0xc6, Arrow Lake S; its "zen6" is
#: family 0x1a model 0x51, which LLVM 22 has no znver6 for).
LLVM_CPU = {
    "linux-centos7-cascadelake": "cascadelake",
    "linux-rhel6-piledriver": "bdver2",
    "linux-rhel7-broadwell": "broadwell",
    "linux-rhel7-haswell": "haswell",
    "linux-rhel7-ivybridge": "ivybridge",
    "linux-rhel7-skylake_avx512": "skylake-avx512",
    "linux-rhel7-x86_64_v3": "haswell",
    "linux-rhel7-zen": "znver1",
    "linux-rocky8.5-zen4": "znver4",
    "linux-rocky9-zen5": "znver5",
    "linux-rocky9-zen6": "znver5",
    "linux-scientific7-k10": "amdfam10",
    "linux-scientific7-piledriver": "bdver2",
    "linux-scientificfermi6-bulldozer": "bdver1",
    "linux-scientificfermi6-piledriver": "bdver2",
    "linux-ubuntu18.04-broadwell": "broadwell",
    "linux-ubuntu20.04-zen3": "znver3",
    "linux-ubuntu24.04-alderlake": "arrowlake-s",
    "linux-ubuntu26.04-arrowlake_s": "arrowlake-s",
    "linux-unknown-sapphirerapids": "sapphirerapids",
}


@needs_recordings
@pytest.mark.parametrize("name", sorted(LLVM_CPU))
def test_recorded_machine_gets_llvms_name(name: str) -> None:
    if name not in RECORDINGS:
        pytest.skip(f"this archspec has no recording {name}")
    assert parse_cpuinfo(RECORDINGS[name]).cpu == LLVM_CPU[name]


@needs_recordings
def test_arrow_lakes_new_flags_are_read() -> None:
    host = parse_cpuinfo(RECORDINGS["linux-ubuntu26.04-arrowlake_s"])
    new = {"avxifma", "avxneconvert", "avxvnniint8", "avxvnniint16", "cmpccxadd", "sha512", "sm3", "sm4"}
    assert new <= host.features


@pytest.mark.parametrize(
    ("vendor", "family", "model", "features", "cpu"),
    [
        ("GenuineIntel", 6, 0x55, {"avx512vnni", "avx512bf16"}, "cooperlake"),
        ("GenuineIntel", 6, 0x55, {"avx512vnni"}, "cascadelake"),
        ("GenuineIntel", 6, 0x55, set(), "skylake-avx512"),
        # An unknown family 6 model: LLVM guesses from the features.
        ("GenuineIntel", 6, 0x01, {"avx2", "avx"}, "haswell"),
        ("GenuineIntel", 6, 0x01, {"clflushopt", "sha"}, "goldmont"),
        ("GenuineIntel", 15, 0x04, {"64bit"}, "nocona"),
        ("AuthenticAMD", 21, 0x65, set(), "bdver4"),
        ("AuthenticAMD", 23, 0x71, set(), "znver2"),
        ("AuthenticAMD", 25, 0x61, set(), "znver4"),
        ("AuthenticAMD", 25, 0x90, set(), "znver3"),
        ("AuthenticAMD", 30, 0x00, set(), None),
        ("HygonGenuine", 24, 0x04, set(), None),
    ],
)
def test_llvm_host_cpu_rules(vendor: str, family: int, model: int, features: set[str], cpu: str | None) -> None:
    from tcfg_x86.host_name import llvm_host_cpu

    assert llvm_host_cpu(vendor, family, model, frozenset(features)) == cpu


@needs_recordings
def test_a_vm_hiding_avx512_keeps_llvms_name(make) -> None:
    """A Zen 4 guest whose hypervisor hides AVX-512 and PKU: LLVM's name (znver4, from family 25 model
    17) with those features off, as llc-22 and clang -march=native would say on it."""
    text = re.sub(r" (avx512\w*|pku|ospke)\b", "", RECORDINGS["linux-rocky8.5-zen4"])
    host = parse_cpuinfo(text)
    assert host.cpu == "znver4"
    assert {"-avx512f", "-avx512vl", "-pku"} <= set(host.mattr)
    t = make({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": host.cpu, "mattr": list(host.mattr)})
    assert not t.features.avx512f and t.features.avx2 and t.features.vaes
