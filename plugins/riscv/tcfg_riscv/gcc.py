"""RISC-V targets in gcc's spelling: ``-march=rv64imafdc_zba_zbb -mabi=lp64d [-mtune=CPU]``.

The ISA string names the target's extensions exactly, so it is gcc's spelling whatever the
CPU: single letters in canonical order after the base (``i``, or ``e``), then the ``z``,
``s`` and ``x`` names in LLVM's order (:func:`tcfg_riscv.spelling.isa_string`, which gcc reads too),
each multi-letter one left out when another spelled extension
implies it (LLVM's implications, the plugin's table; the truth test checks gcc's agree).
An extension gcc ``N`` does not know (``data/compilers.json``: gcc ``N`` defines its
``__riscv_NAME`` macro with a version) is fine when an extension it does know implies it
(``zaamo`` in ``a``) or it is known ones together (``b`` is ``zba_zbb_zbs``, ``zcd`` is C
with D); otherwise no gcc ``N`` spelling is exact, and the error names the first gcc that
knows them all, or says none does. ``-mtune`` keeps the CPU's scheduling where gcc knows
the CPU; the ISA string, not ``-mcpu``, fixes the extensions (gcc's ``-mcpu`` would be
overridden by ``-march`` anyway). No optimisation level.
"""

from __future__ import annotations

from collections.abc import Iterable

from tcfg.plugin import TargetError, compiler_names, compiler_versions
from tcfg_riscv.facts import tables
from tcfg_riscv.spelling import isa_string

__all__ = ["default_abi", "gcc_flags"]

#: Extensions that are other extensions together (the RISC-V unprivileged ISA manual: "B" is
#: Zba+Zbb+Zbs, "Zk"/"Zkn"/"Zks" are the scalar-crypto collections, and Zcd/Zcf are the compressed
#: FP loads and stores C has with D/F): a gcc that lacks the name says it with the parts.
_SAME_AS = {
    "b": frozenset({"zba", "zbb", "zbs"}),
    "zk": frozenset({"zkn", "zkr", "zkt"}),
    "zkn": frozenset({"zbkb", "zbkc", "zbkx", "zkne", "zknd", "zknh"}),
    "zks": frozenset({"zbkb", "zbkc", "zbkx", "zksed", "zksh"}),
    "zcd": frozenset({"c", "d"}),
    "zcf": frozenset({"c", "f"}),
}


def default_abi(xlen: int, extensions: Iterable[str]) -> str:
    """The ABI clang picks without ``-mabi``: ``lp64d`` with D, ``lp64f`` with F, ``lp64e`` on E, else ``lp64``."""
    exts = set(extensions)
    stem = "lp64" if xlen == 64 else "ilp32"
    if "d" in exts:
        return f"{stem}d"
    if "f" in exts:
        return f"{stem}f"
    return f"{stem}e" if "e" in exts and "i" not in exts else stem


def _implied(names: Iterable[str]) -> set[str]:
    """The extensions ``names`` imply (LLVM's closure), without themselves unless one implies another."""
    t = tables()
    names = set(names)
    out: set[str] = set()
    for name in names:
        out |= {t.extension_of.get(f, f) for f in t.implies.get(name, ())} - {name}
    return out


def _lacking(extensions: frozenset[str], version: int) -> list[str]:
    """The target's extensions gcc ``version`` cannot say: unknown to it and implied by none it knows."""
    known = compiler_names("gcc", "riscv64", "extensions", version) & extensions
    covered = known | _implied(known)
    covered |= {name for name, parts in _SAME_AS.items() if parts <= covered}
    return sorted(extensions - covered)


def _measured() -> list[int]:
    """The gcc versions whose RISC-V names the table has (those whose cross compiler was installed)."""
    return [v for v in compiler_versions("gcc") if "i" in compiler_names("gcc", "riscv64", "extensions", v)]


def gcc_flags(xlen: int, extensions: Iterable[str], abi: str, cpu: str, version: int) -> list[str]:
    """gcc ``version``'s flags for a RISC-V target with exactly ``extensions``, ``abi``; TargetError if none."""
    exts = frozenset(extensions)
    if version not in _measured():
        able = [v for v in _measured() if not _lacking(exts, v)]
        raise TargetError(
            f"tcfg has no RISC-V names for gcc {version} (data/compilers.json was measured without "
            f"riscv64-linux-gnu-gcc-{version}): "
            + (f"gcc {able[0]} can express this target" if able else "use clang or llc")
        )
    lacking = _lacking(exts, version)
    if lacking:
        newer = [v for v in _measured() if v > version and not _lacking(exts, v)]
        later = f"gcc {newer[0]} can" if newer else "no gcc tcfg knows of does; use clang or llc"
        raise TargetError(
            f"gcc {version} cannot express this RISC-V target exactly: it does not know the extension(s) "
            f"{', '.join(lacking)} (of {isa_string(xlen, exts)}); {later}"
        )
    known = compiler_names("gcc", "riscv64", "extensions", version) & exts
    implied = _implied(known)
    spelled = {name for name in known if len(name) == 1 or name not in implied}
    flags = [f"-march={isa_string(xlen, spelled)}", f"-mabi={abi}"]
    if cpu in compiler_names("gcc", "riscv64", "cpus", version):
        flags.append(f"-mtune={cpu}")
    return flags
