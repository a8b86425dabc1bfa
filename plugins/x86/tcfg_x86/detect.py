"""Host detection from Linux ``/proc/cpuinfo``: LLVM's CPU name for the host, plus the rest.

The CPU is the one LLVM 22's ``sys::getHostCPUName`` gives for the ``vendor_id``, ``cpu
family``, ``model`` and features (:mod:`tcfg_x86.host_name`). Virtual machines hide
CPUID bits (a Sapphire Rapids guest may lack ``waitpkg``), so the CPU name alone cannot
carry the truth: ``-mattr`` removes what the host lacks of that CPU and adds what it
has beyond, as ``clang -march=native`` does, so that the features are exactly the ones
the kernel's ``flags`` line reports and LLVM keeps the tuning of the real
microarchitecture. Where LLVM has no name (another vendor, an unknown family) the CPU
is the closest LLVM CPU (the one sharing the most features with the host), with the
same corrections; when LLVM's dependency graph makes that inexact (removing a missing
feature would remove one the host has), it is instead the one with the most features
among those the host fully covers, plus ``-mattr`` additions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tcfg.plugin import TargetError
from tcfg_x86.facts import CpuEntry, tables
from tcfg_x86.host_name import llvm_host_cpu
from tcfg_x86.resolve import resolve

__all__ = ["HostCpu", "describe", "detect", "is_x86", "native", "parse_cpuinfo", "spec_of"]

CPUINFO = Path("/proc/cpuinfo")


@dataclass(frozen=True)
class HostCpu:
    """What ``/proc/cpuinfo`` says, in LLVM's terms.

    ``cpu`` + ``mattr`` reproduce ``features`` (the LLVM features the flags show);
    ``closest`` is the LLVM CPU sharing the most features with the host and ``missing``
    what the host lacks of it; ``unknown_flags`` are x86 flags the mapping table does not
    translate (they tell LLVM nothing or name features it has no name for).
    """

    cpu: str
    mattr: tuple[str, ...]
    features: frozenset[str]
    closest: str
    missing: tuple[str, ...]
    model: str | None
    vendor: str | None
    num_cores: int | None
    flags: frozenset[str]


def _fields(block: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in block.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            out.setdefault(key.strip(), value.strip())
    return out


def _num_cores(blocks: list[dict[str, str]]) -> int | None:
    cores = {(b.get("physical id"), b.get("core id")) for b in blocks if "core id" in b}
    if cores:
        return len(cores)
    return len(blocks) or None


def _checkable() -> frozenset[str]:
    return frozenset(f for feats in tables().cpuinfo_flags.values() for f in feats)


def parse_cpuinfo(text: str) -> HostCpu:
    """The host CPU described by the text of ``/proc/cpuinfo`` (x86 Linux)."""
    blocks = [_fields(b) for b in text.split("\n\n") if b.strip()]
    blocks = [b for b in blocks if "processor" in b]
    if not blocks or "flags" not in blocks[0]:
        raise TargetError("/proc/cpuinfo has no x86 'flags' line; is this an x86 Linux machine?")
    first = blocks[0]
    return describe(
        first.get("vendor_id"),
        _number(first.get("cpu family")),
        _number(first.get("model")),
        frozenset(first["flags"].split()),
        first.get("model name"),
        _num_cores(blocks),
    )


def describe(
    vendor: str | None,
    family: int | None,
    model: int | None,
    flags: frozenset[str],
    model_name: str | None = None,
    num_cores: int | None = None,
) -> HostCpu:
    """The host CPU with this CPUID vendor, family and model and these Linux ``/proc/cpuinfo`` flags
    (the other recorded forms, :mod:`tcfg_x86.recorded`, are read into these terms)."""
    t = tables()
    host = frozenset(f for flag in flags for f in t.cpuinfo_flags.get(flag, ()))
    checkable = _checkable()
    is64 = "64bit" in host
    named = llvm_host_cpu(vendor, family, model, host)
    closest = t.cpus[named] if named is not None and named in t.cpus else _closest(host, checkable, is64)
    missing = tuple(sorted((closest.features & checkable) - host))
    chosen, mattr = _closest_minus_missing(host, checkable, is64, closest, missing)
    if not chosen and closest.name == named:  # LLVM's name, with the host's features written out
        chosen, mattr = closest.name, _corrections(host, checkable, is64, closest)
    if not chosen:
        subset = _best_subset(host, checkable, is64, closest)
        base = subset.features if is64 else subset.features_32bit_mode
        chosen, mattr = subset.name, tuple(f"+{f}" for f in sorted(host - base))
    return HostCpu(
        cpu=chosen,
        mattr=mattr,
        features=host,
        closest=closest.name,
        missing=missing,
        model=model_name,
        vendor=vendor,
        num_cores=num_cores,
        flags=flags,
    )


def _number(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def _corrections(host: frozenset[str], checkable: frozenset[str], is64: bool, cpu: CpuEntry) -> tuple[str, ...]:
    """``-mattr`` turning ``cpu``'s features into the host's: what it lacks off, then what it adds on."""
    base = cpu.features if is64 else cpu.features_32bit_mode
    return (*(f"-{f}" for f in sorted((base & checkable) - host)), *(f"+{f}" for f in sorted(host - base)))


def _candidates(is64: bool) -> Iterable[CpuEntry]:
    # The cpu_dispatch spellings (skylake_avx512) duplicate a hyphenated name; skip them.
    return (c for c in tables().cpus.values() if (c.is_64bit or not is64) and (c.clang_march or "_" not in c.name))


def _closest_minus_missing(
    host: frozenset[str], checkable: frozenset[str], is64: bool, closest: CpuEntry, missing: tuple[str, ...]
) -> tuple[str, tuple[str, ...]]:
    """The closest CPU with what the host lacks removed and what it adds added, if that is exact.

    Keeps LLVM's tuning for the host's real microarchitecture (an AMD guest stays a
    ``znver``). Returns ``("", ())`` when removing a missing feature would also remove
    one the host has (LLVM's dependency graph), so the result would not be exact.
    """
    base = closest.features if is64 else closest.features_32bit_mode
    mattr = (*(f"-{f}" for f in missing), *(f"+{f}" for f in sorted(host - base)))
    try:
        isa = resolve(closest.name, is64, mattr, None).isa
    except TargetError:
        return "", ()
    if host <= isa and isa & checkable <= host:
        return closest.name, mattr
    return "", ()


def _best_subset(host: frozenset[str], checkable: frozenset[str], is64: bool, closest: CpuEntry) -> CpuEntry:
    """The fitting CPU most like ``closest``: same vector-width tuning, then most shared features."""
    fits = [c for c in _candidates(is64) if ((c.features if is64 else c.features_32bit_mode) & checkable) <= host]
    if not fits:
        raise TargetError(f"no LLVM x86 CPU fits the host's features {sorted(host)}")
    like = closest.features & checkable

    def score(c: CpuEntry) -> tuple[bool, int, int, int, str]:
        same_tuning = c.preferred_vector_width_with_avx512f == closest.preferred_vector_width_with_avx512f
        feats = c.features & checkable
        return (same_tuning, len(feats & like), len(feats), len(c.name), c.name)

    return max(fits, key=score)


def _closest(host: frozenset[str], checkable: frozenset[str], is64: bool) -> CpuEntry:
    def score(c: CpuEntry) -> tuple[int, int, str]:
        feats = c.features & checkable
        return (len(feats & host) - len(feats - host), len(c.name), c.name)

    return max(_candidates(is64), key=score)


@cache
def native() -> HostCpu:
    """This machine's CPU, from ``/proc/cpuinfo`` (read once)."""
    try:
        text = CPUINFO.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise TargetError(f"-mcpu=native needs {CPUINFO} (x86 Linux): {exc}") from exc
    return parse_cpuinfo(text)


def is_x86(text: str) -> bool:
    """Whether a ``/proc/cpuinfo`` text describes an x86 machine (it has ``vendor_id`` and ``flags`` lines)."""
    lines = text.splitlines()
    return any(line.startswith("vendor_id") for line in lines) and any(line.startswith("flags") for line in lines)


def spec_of(host: HostCpu, triple: str) -> dict[str, object]:
    """The ``llvm`` target of the machine ``host`` describes, for ``triple``."""
    spec: dict[str, object] = {"kind": "llvm", "mtriple": triple, "mcpu": host.cpu}
    if host.mattr:
        spec["mattr"] = list(host.mattr)
    if host.num_cores:
        spec["num-cores"] = host.num_cores
    if host.model:
        spec["model"] = host.model
    return spec


def detect(sources: Mapping[str, tuple[str, ...]] | None = None) -> list[dict[str, object]]:
    """The ``llvm`` target of this machine (nothing when it is not x86 Linux), or of the x86
    machine a recorded ``cpuinfo`` describes (nothing for another architecture's)."""
    if sources is not None:
        text = next(iter(sources.get("cpuinfo", ())), None)
        if text is None or not is_x86(text):
            return []
        host = parse_cpuinfo(text)
        triple = "x86_64-unknown-linux-gnu" if "64bit" in host.features else "i686-unknown-linux-gnu"
        return [spec_of(host, triple)]
    from tcfg.plugin import arch_family, host_triple

    triple = host_triple()
    if arch_family(triple) not in ("x86_64", "x86") or not CPUINFO.exists():
        return []
    return [spec_of(native(), triple)]
