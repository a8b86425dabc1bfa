"""Host detection from /proc/cpuinfo: recorded machines (archspec's recordings) and this one."""

from __future__ import annotations

import platform
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


@needs_recordings
@pytest.mark.parametrize(
    ("name", "cpu", "missing"),
    [
        # clang-22's sapphirerapids and raptorlake have sgx; these hosts' flags do not show it.
        ("linux-unknown-sapphirerapids", "sapphirerapids", ("sgx",)),
        ("linux-rocky9-zen5", "znver5", ()),
        ("linux-rhel7-broadwell", "broadwell", ()),
        ("linux-ubuntu24.04-alderlake", "raptorlake", ("sgx",)),
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
