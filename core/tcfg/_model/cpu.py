"""The CPU parser of the ``llvm`` and ``c`` kinds: which installed sub-parser claims a target.

The triple's architecture decides first (aliases normalised: ``arm64`` is ``aarch64``,
``amd64`` is ``x86_64``, ``thumbv7em`` is ``arm``); without a triple, the sub-parser
that recognises ``mcpu`` (else ``march``) claims it. A triple of an architecture no
installed plugin claims leaves the target valid, with the kind's keys and no vendor
features (when a known plugin claims it, a :class:`tcfg.PluginWarning` names it, once
per registry and architecture; an error under ``TCFG_STRICT_PLUGINS=1``); an
``mcpu`` without a triple that no installed sub-parser knows is an error naming the
closest CPUs they know (with no sub-parser installed, it stays valid too).
"""

from __future__ import annotations

import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from functools import lru_cache, partial
from typing import Any

from tcfg._base.errors import AttributeValueError, describe_choices, plugin_code
from tcfg._model.features import Feature
from tcfg._model.kind import Derived, DeriveRequest
from tcfg._model.portable import CPU_ONLY, FORMATS, GPU_ONLY, MATRIX, Answer, Answers, answers, none, unanswered

__all__ = ["CPU_ATTRS", "CpuParser", "arch_family", "claims", "cpu_portable", "host_triple", "parse_cpu_target"]

_AARCH64 = frozenset({"aarch64", "aarch64_be", "arm64", "arm64e", "arm64_32", "aarch64_32"})
_X86_64 = frozenset({"x86_64", "amd64", "x86_64h"})
_X86 = frozenset({"x86", "i386", "i486", "i586", "i686", "i786"})


def arch_family(triple: str) -> str:
    """The architecture family of an LLVM triple: ``aarch64``, ``arm``, ``x86_64``, ``x86``, or its arch."""
    arch = triple.split("-", 1)[0].lower()
    if arch in _AARCH64:
        return "aarch64"
    if arch in _X86_64:
        return "x86_64"
    if arch in _X86:
        return "x86"
    if arch.startswith(("arm", "thumb")):
        return "arm"
    return arch


@lru_cache(maxsize=1)
def host_triple() -> str:
    """The LLVM triple of the machine this process runs on."""
    if hasattr(os, "uname"):
        machine = os.uname().machine.lower()
    else:  # Windows
        import platform

        machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "arm64": "aarch64", "x64": "x86_64"}.get(machine, machine)
    if sys.platform == "darwin":
        return f"{'arm64' if machine == 'aarch64' else machine}-apple-darwin"
    if sys.platform.startswith("win"):
        return f"{machine}-pc-windows-msvc"
    env = "gnueabihf" if machine.startswith("arm") else "gnu"
    return f"{machine}-unknown-linux-{env}"


class CpuParser(ABC):
    """A vendor sub-parser for ``llvm``/``c`` targets of some architectures.

    ``name`` identifies it in messages; ``arches`` lists the families from
    :func:`arch_family` whose triples it claims; ``features`` declares every feature
    it can derive.
    """

    name: str = ""
    arches: tuple[str, ...] = ()
    features: Sequence[Feature] = ()

    @abstractmethod
    def claims_cpu(self, mcpu: str) -> bool:
        """Whether ``mcpu`` (possibly with ``+ext`` suffixes) names a CPU of this parser's arches.

        Only asked when the target has no triple; names every architecture accepts
        (``generic``) must not be claimed.
        """

    @abstractmethod
    def cpu_names(self) -> Iterable[str]:
        """Every CPU name :meth:`claims_cpu` accepts (for suggestions when none does)."""

    def claims_march(self, march: str) -> bool:
        """Whether ``march`` (an architecture, possibly with ``+ext``) is of this parser's arches.

        Asked when the target has neither a triple nor ``mcpu``; the default claims nothing.
        """
        return False

    def portable(self, target: Any) -> Answers:
        """The portable vocabulary's answers for ``target`` (a claimed ``llvm``/``c`` Target).

        Answer every name (:mod:`tcfg._model.portable`) except those the core answers for
        every CPU: ``warp_size``, ``max_threads_per_block``, ``shared_memory_bytes`` (None)
        and ``cores`` (the ``num-cores`` attribute), unless you know better. The default
        answers nothing, which the core's vocabulary test reports.
        """
        return {}

    @abstractmethod
    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        """Keys, features and canonical attributes for a claimed target.

        ``arch`` is the triple's family, or None when claimed by ``mcpu``. Raises
        :class:`tcfg.TargetError` for a CPU, architecture or extension it refuses.
        ``mcpu=native`` arrives here with the host's triple filled in; resolve it.

        The result must depend only on the kind and the attributes in :data:`CPU_ATTRS`:
        the core memoises it on them (except for ``native``), so that targets differing
        in ``num-cores``, ``model`` or ``libs`` parse once.
        """


#: The attributes a CPU sub-parser may read (the ``parse_reads`` of the ``llvm`` and ``c`` kinds).
CPU_ATTRS = ("mtriple", "mcpu", "march", "mattr", "mabi", "mfloat-abi", "vector-width")


def parse_cpu_target(request: DeriveRequest) -> Derived:
    """The parser of the core's ``llvm`` and ``c`` kinds: the sub-parser that claims the target decides."""
    attrs: dict[str, Any] = dict(request.attrs)
    triple = attrs.get("mtriple")
    mcpu = attrs.get("mcpu")
    if triple is None and (
        mcpu == "native" or (request.kind == "llvm" and mcpu is None and attrs.get("march") is None)
    ):
        triple = attrs["mtriple"] = host_triple()
    arch = None if triple is None else arch_family(triple)
    parsers = request.registry.cpu_parsers(arch)
    chosen: CpuParser | None = None
    if triple is not None:
        chosen = next((p for p in parsers if arch in p.arches), None)
    elif mcpu is not None and mcpu != "generic":
        chosen = _one_claimant("mcpu", mcpu, [p for p in parsers if claims(p, "claims_cpu", mcpu)])
        if chosen is None and parsers:
            known = {name for p in parsers for name in plugin_code(partial(_blame, p, "cpu_names"), p.cpu_names)}
            raise AttributeValueError(
                f"-mcpu={mcpu} is not a CPU that the installed CPU parsers "
                f"({', '.join(p.name for p in parsers)}) know; {describe_choices(mcpu.split('+')[0], known)} "
                "(give -mtriple to target an architecture that has no plugin)"
            )
    elif mcpu is None and attrs.get("march") is not None:
        march = attrs["march"]
        chosen = _one_claimant(
            "march",
            march,
            [p for p in parsers if claims(p, "claims_march", march)],
        )
    if chosen is None:
        if mcpu == "native":
            raise AttributeValueError(
                f"-mcpu=native needs a CPU plugin for {arch_family(host_triple())} "
                f"(this machine's triple is {host_triple()}); installed CPU parsers: "
                + (", ".join(p.name for p in parsers) or "none")
            )
        if arch is not None and triple is not None:
            from tcfg._model.triples import check_triple_arch  # read only for architectures no plugin claims

            check_triple_arch(triple)
            request.registry.unclaimed_arch(arch, triple)
        return Derived(attrs=attrs)
    sub_request = DeriveRequest(request.kind, attrs, request.registry)
    derived = plugin_code(partial(_blame, chosen, "parse"), partial(chosen.parse, sub_request, arch))
    return derived if derived.attrs is not None else derived._replace(attrs=attrs)


def cpu_portable(target: Any) -> Answers:
    """The portable answers of an ``llvm``/``c`` target: the CPU sub-parser that claims it answers."""
    attrs = target.attrs
    cores = attrs.get("num-cores")
    result = {
        **none("a CPU runs threads independently: it has no SIMT thread blocks or warps", GPU_ONLY),
        "cores": Answer(cores, "the target's -num-cores")
        if cores is not None
        else Answer(None, "the target gives no -num-cores (a tag of a real machine does)"),
    }
    parser = _parser_of(target.registry, attrs)
    if parser is None:
        triple = attrs.get("mtriple")
        what = f"the architecture of {triple!r}" if triple else "this CPU"
        return {
            **result,
            **none(f"no installed CPU plugin knows {what}", (*CPU_ONLY, *FORMATS, *MATRIX, "l2_cache_bytes")),
        }
    given: Answers = plugin_code(partial(_blame, parser, "portable"), partial(parser.portable, target))
    # the CPU parser's own features spelled like portable names fill what it leaves
    own = answers(target, lambda _: {**result, **given}, f"the CPU parser {parser.name!r}", parser.features)
    return {name: answer for name, answer in own.items() if not unanswered({name: answer})}


def _parser_of(registry: Any, attrs: Any) -> CpuParser | None:
    """The sub-parser that claimed a built target (as :func:`parse_cpu_target` chose it)."""
    triple, mcpu, march = attrs.get("mtriple"), attrs.get("mcpu"), attrs.get("march")
    arch = None if triple is None else arch_family(triple)
    parsers = registry.cpu_parsers(arch)
    if triple is not None:
        return next((p for p in parsers if arch in p.arches), None)
    if mcpu is not None and mcpu != "generic":
        return next((p for p in parsers if claims(p, "claims_cpu", mcpu)), None)
    if march is not None:
        return next((p for p in parsers if claims(p, "claims_march", march)), None)
    return None


def claims(parser: CpuParser, method: str, value: str) -> bool:
    """``parser.claims_cpu(value)`` or ``parser.claims_march(value)``, blamed on the parser if it breaks."""
    claimed: bool = plugin_code(partial(_blame, parser, method), partial(getattr(parser, method), value))
    return claimed


def _blame(parser: CpuParser, method: str) -> str:
    return f"the CPU parser {parser.name!r} ({type(parser).__module__}.{type(parser).__name__}.{method})"


def _one_claimant(option: str, value: str, claimants: list[CpuParser]) -> CpuParser | None:
    if len(claimants) > 1:
        names = ", ".join(p.name for p in claimants)
        raise AttributeValueError(
            f"-{option}={value} is claimed by several CPU parsers ({names}); add -mtriple to choose"
        )
    return claimants[0] if claimants else None
