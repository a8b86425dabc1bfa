"""Recorded inputs for detection: the names of the sources a plugin may read, and their checking.

``tcfg.detect(sources={...})`` and ``tcfg detect --from NAME=FILE`` describe a machine
from recordings of what it reports, instead of from the machine running tcfg. Each
source is named after what produced it (:data:`SOURCES`); its value is that output's
text. A source that comes once per device (``vulkaninfo --json`` writes one document
per device) may be given several times; the others once.

Plugins receive the checked sources as a mapping from name to a tuple of texts, and read
only those they understand.
"""

from __future__ import annotations

from tcfg._base.errors import TargetError, closest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

__all__ = ["DEVICE_ORDER", "SOURCES", "Sources", "check_sources", "device_rank", "read_source_files"]

#: The recorded sources tcfg's plugins read: name -> (what it is, given once per device).
SOURCES: dict[str, tuple[str, bool]] = {
    "cpuinfo": ("the text of Linux /proc/cpuinfo (Arm, RISC-V, x86)", False),
    "sysctl": ("macOS sysctl -a (Apple silicon or Intel)", False),
    "cpuid": ("CPUID leaves, one 'EAX-in, ECX-in, EAX, EBX, ECX, EDX' line each (Windows, as archspec records)", False),
    "nvidia-smi": ("nvidia-smi --query-gpu=name,compute_cap,memory.total --format=csv", False),
    "rocminfo": ("the output of rocminfo (ROCm)", False),
    "amd-smi": ("amd-smi static --json (ROCm; amd-smi list --json names the GPUs only)", False),
    "vulkaninfo": ("vulkaninfo --json=N (Vulkan Profiles JSON of one device; once per device)", True),
    "clinfo": ("clinfo --json (every OpenCL platform and device)", False),
}

#: The order of detected targets by their ``device_type`` attribute (Vulkan's device types):
#: a target without one (a CPU, a CUDA or ROCm GPU) ranks with discrete devices.
DEVICE_ORDER = ("discrete", "integrated", "virtual", "other", "cpu")

#: Checked sources: name -> the texts given for it.
Sources = dict[str, tuple[str, ...]]


def _describe() -> str:
    return "; ".join(f"{name} ({what})" for name, (what, _) in SOURCES.items())


def _check_name(name: str) -> None:
    if name not in SOURCES:
        hint = closest(name, SOURCES, n=1)
        raise TargetError(
            f"unknown detection source {name!r}{f' (did you mean {hint[0]!r}?)' if hint else ''}; "
            f"the sources are: {_describe()}"
        )


def check_sources(sources: Mapping[str, str | Sequence[str]]) -> Sources:
    """``sources`` checked: known names, texts (one, or several for a per-device source).

    Raises :class:`TargetError` naming the source for an unknown name, a value that is
    not text, or several texts for a source that describes the whole machine.
    """
    if not hasattr(sources, "items"):
        raise TargetError(f"detection sources must be a mapping of source name to text, not {type(sources).__name__}")
    checked: Sources = {}
    for name, value in sources.items():
        if not isinstance(name, str):
            raise TargetError(f"detection source names are text, not {name!r}; the sources are: {_describe()}")
        _check_name(name)
        texts = (value,) if isinstance(value, str) else value
        if not isinstance(texts, (list, tuple)) or not all(isinstance(t, str) for t in texts):
            raise TargetError(f"detection source {name!r} must be the text of {SOURCES[name][0]}, not {value!r:.80}")
        if len(texts) != 1 and not SOURCES[name][1]:
            raise TargetError(f"detection source {name!r} describes a whole machine: give one text, not {len(texts)}")
        checked[name] = tuple(texts)
    return checked


def read_source_files(pairs: Iterable[str]) -> Sources:
    """``NAME=FILE`` arguments (``tcfg detect --from``) read into checked sources; a name may repeat
    only for a per-device source.

    Raises :class:`TargetError` naming the argument for a missing ``=``, an unknown
    source or a file that cannot be read.
    """
    texts: dict[str, list[str]] = {}
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or not name or not path:
            raise TargetError(f"--from {pair!r}: write NAME=FILE, NAME one of {', '.join(SOURCES)}")
        _check_name(name)
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                texts.setdefault(name, []).append(handle.read())
        except OSError as exc:
            raise TargetError(f"--from {pair!r}: cannot read {path!r}: {exc.strerror or exc}") from None
    return check_sources(texts)


def device_rank(attrs: Mapping[str, object]) -> int:
    """Where a detected target with ``attrs`` goes in :data:`DEVICE_ORDER` (software renderers,
    ``device_type`` ``cpu``, last)."""
    kind = attrs.get("device_type")
    return DEVICE_ORDER.index(kind) if isinstance(kind, str) and kind in DEVICE_ORDER else 0
