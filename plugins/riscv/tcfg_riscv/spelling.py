"""The closest exact clang/llc spelling of a RISC-V target whose CPU a compiler version does not know.

clang-16 has no ``-mcpu=sifive-p550``; an ISA string (``-march=rv64imafdc_zba_zbb``) with
every extension of the target says the same, less the CPU's tuning (kept with ``-mtune``
where that version knows the CPU's name). llc gets ``-mcpu=generic-rvXX`` with every
extension as a ``-mattr`` feature. The names each version knows come from
``data/compilers.json`` (``llvm.riscv64.features``; ``clang.riscv64.extensions``, the
extensions clang's ``-march`` accepts); an extension whose LLVM feature the version knows
but whose ISA-string name its driver refuses is given as ``-Xclang -target-feature``. A
target with an extension the version's LLVM lacks has no exact spelling there: a
:class:`~tcfg.plugin.TargetError` names the first version that has one.

A CPU a clang version knows but means other extensions by (``drift``) is spelled the same way
with ``-mcpu=CPU`` before the ISA string: clang 16 replaces ``-target-feature`` items with the
negation of every extension its CPU's ISA lacks (``+zmmul`` is lost), while ``-march`` after
``-mcpu`` sets the ISA and keeps the CPU's scheduling.
"""

from __future__ import annotations

from collections.abc import Collection

from tcfg.plugin import TargetError, compiler_knows, compiler_versions

__all__ = ["closest", "isa_string", "knows_cpu"]

#: LLVM's canonical order of the single-letter extensions after the base (``RISCVISAInfo``).
CANONICAL = "mafdqlcbkjtpvnh"
_PREFIX_RANK = {"z": 0, "s": 1, "x": 2}


def knows_cpu(compiler: str, cpu: str, version: int) -> bool:
    """Whether ``compiler`` (``clang`` driver, ``llc`` backend) ``version`` knows RISC-V CPU ``cpu``."""
    tool = "clang" if compiler == "clang" else "llvm"
    return compiler_knows(tool, "riscv64", "cpus", cpu, version)


def _feature(ext: str, experimental: Collection[str]) -> str:
    return f"experimental-{ext}" if ext in experimental else ext


def _rank(ext: str) -> tuple[int, int, str]:
    """LLVM's canonical order of multi-letter extensions: z, s, x; a z by its second letter (i, e, m, a, ...)."""
    letters = "ie" + CANONICAL
    second = letters.find(ext[1]) if ext[0] == "z" else 0
    return _PREFIX_RANK.get(ext[0], 3), second if second >= 0 else len(letters) + ord(ext[1]), ext


def isa_string(xlen: int, extensions: Collection[str]) -> str:
    """``rv64imafdc_zba_zbb``: the base (``e`` if present, else ``i``), single letters, the rest in LLVM's order."""
    base = "e" if "e" in extensions else "i"
    singles = "".join(c for c in CANONICAL if c in extensions)
    multi = sorted((e for e in extensions if len(e) > 1), key=_rank)
    return "_".join([f"rv{xlen}{base}{singles}", *multi])


def _lacking(extensions: Collection[str], experimental: Collection[str], version: int) -> list[str]:
    """The extensions LLVM ``version`` has no feature for, less those another one it knows implies (``c``: Zca)."""
    from tcfg_riscv.facts import tables

    def known(ext: str) -> bool:
        return compiler_knows("llvm", "riscv64", "features", _feature(ext, experimental), version)

    implies = tables().implies
    covered = {e for x in extensions if known(x) for e in implies.get(_feature(x, experimental), ())}
    return sorted(e for e in extensions if not known(e) and e not in covered)


def closest(
    compiler: str,
    version: int,
    cpu: str,
    triple: str,
    extensions: Collection[str],
    experimental: Collection[str],
    tail: list[str],
    keep_cpu: bool = False,
) -> list[str]:
    """The flags of :mod:`this module's <tcfg_riscv.spelling>` spelling for ``compiler`` ``version``.

    ``extensions`` are the target's (``e``/``i`` included), ``experimental`` those LLVM 22
    calls ``experimental-X``, ``tail`` the flags that follow (``-mabi``, ...). TargetError
    when the version's LLVM lacks one of the extensions. ``keep_cpu``: clang knows the CPU but
    means other extensions by it (``drift``), so ``-mcpu=CPU`` stays, with the ISA string after it;
    extensions its LLVM has no name for are then left to the CPU.
    """
    xlen = 32 if triple.startswith("riscv32") else 64
    exts = sorted(set(extensions) - {"i", "e"})
    lacking = [] if keep_cpu else _lacking(exts, experimental, version)
    if lacking:
        later = [v for v in compiler_versions(compiler) if v > version]
        first = next((v for v in later if knows_cpu(compiler, cpu, v) or not _lacking(exts, experimental, v)), None)
        can = f"{compiler} {first} is the first that does" if first else f"no {compiler} tcfg knows of does"
        raise TargetError(
            f"{compiler} {version} cannot express this RISC-V target ({cpu}, {triple}) exactly: it knows neither "
            f"CPU {cpu!r} nor the extension(s) {', '.join(lacking[:8])}; {can}"
        )
    exts = [e for e in exts if compiler_knows("llvm", "riscv64", "features", _feature(e, experimental), version)]
    if compiler == "llc":
        attrs = ",".join(f"+{_feature(e, experimental)}" for e in exts)
        return [f"-mtriple={triple}", f"-mcpu=generic-rv{xlen}", *([f"-mattr={attrs}"] if attrs else []), *tail]
    in_march = {
        e for e in exts if e not in experimental and compiler_knows("clang", "riscv64", "extensions", e, version)
    }
    rest = [
        word
        for e in exts
        if e not in in_march
        for word in ("-Xclang", "-target-feature", "-Xclang", f"+{_feature(e, experimental)}")
    ]
    march = f"-march={isa_string(xlen, in_march | ({'e'} if 'e' in extensions else set()))}"
    if keep_cpu:
        return [f"--target={triple}", f"-mcpu={cpu}", march, *rest, *tail]
    tune = [f"-mtune={cpu}"] if compiler_knows("clang", "riscv64", "cpus", cpu, version) else []
    return [f"--target={triple}", march, *tune, *rest, *tail]
