"""The CPU rule of ``runs_on``, for CPU sub-parsers' plugins: same architecture and ABI, features a subset.

A plugin's ``tcfg_runs_on`` calls :func:`cpu_runs_on` with the architecture families its
sub-parser claims and how to compare its non-boolean features; the rule itself lives here
once, so that every CPU plugin applies it alike.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from tcfg._base.errors import TargetError
from tcfg._model.cpu import arch_family

__all__ = ["cpu_runs_on", "triple_abi"]

#: Vendor names in LLVM triples (``Triple::VendorType``): a triple's second part is its
#: vendor if it is one of these (or the triple has four parts); vendors do not change the ABI.
_VENDORS = frozenset(
    ("unknown", "pc", "apple", "scei", "fsl", "ibm", "img", "mti", "nvidia", "csr", "amd", "mesa", "suse", "oe", "w64")
)
_VERSION = re.compile(r"[0-9]+(\.[0-9]+)*\Z")


def _arch_key(arch: str) -> str:
    """A triple's architecture without its version: what must be equal for code to run
    (``armv7a``/``thumbv7em`` -> ``arm``, ``arm64`` -> ``aarch64``, ``i686`` -> ``i386``); endianness stays."""
    big = arch.endswith(("_be", "eb"))
    family = {"arm64": "aarch64", "amd64": "x86_64", "i486": "i386", "i586": "i386", "i686": "i386"}.get(arch, arch)
    if arch.startswith(("arm", "thumb")) and not arch.startswith("arm64"):
        family = "arm"
    elif arch.startswith("aarch64"):
        family = "aarch64"
    return family + ("_be" if big and not family.endswith("_be") else "")


def triple_abi(triple: str) -> tuple[str, str, str | None]:
    """``(architecture, OS, environment or None)`` of an LLVM triple, the vendor dropped:
    ``aarch64-unknown-linux-gnu`` and ``aarch64-linux-gnu`` both give ``("aarch64", "linux", "gnu")``."""
    arch, *rest = triple.split("-")
    if len(rest) >= 3 or (len(rest) == 2 and rest[0] in _VENDORS):
        rest = rest[1:]
    os_name = rest[0] if rest else "unknown"
    return _arch_key(arch), re.sub(r"[0-9.]+\Z", "", os_name), (rest[1] if len(rest) > 1 else None)


def _version(value: Any) -> tuple[int, ...] | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return (value,)
    if isinstance(value, str) and _VERSION.match(value):
        return tuple(int(part) for part in value.split("."))
    return None


def cpu_runs_on(
    code: Any,
    machine: Any,
    arches: Collection[str],
    *,
    same: Collection[str] = (),
    at_least: Collection[str] = (),
    ignore: Collection[str] = (),
) -> bool | None:
    """Whether code built for the CPU target ``code`` runs on the CPU ``machine`` (or on an LLVM-compiled
    device of the same kind, such as a Hexagon DSP); None if ``code``'s
    architecture family (of its codegen's triple) is not in ``arches`` (not this plugin's).

    Code runs when ``machine`` has the same architecture (the triple's, without its
    version: ``armv7a`` and ``thumbv8`` are both ``arm``; endianness counts) and ABI (the
    triple's OS and environment, when both give one; ``-mabi`` and ``-mfloat-abi`` when
    both give one; the features in ``same``, such as a float ABI or ``xlen``, each equal
    in ``machine`` where ``code`` has it), and every feature ``code`` has: each boolean
    feature true in ``code`` is true in ``machine``, and each feature in ``at_least`` (a version such as
    ``"8.2"`` or a number) is at least as high in ``machine``. Features in ``ignore``
    (descriptions such as the architecture's name, or tuning preferences) are not compared.
    A non-boolean feature of ``code`` in none of the three (say, one another plugin's
    derive hook adds) is a :class:`tcfg.TargetError` naming it: the question has no
    answer until the plugin says how the feature compares.
    """
    code_triple = code.codegen().triple
    if arch_family(code_triple) not in arches:
        return None
    if machine.kind.device_type != code.kind.device_type:
        return False
    mine, theirs = triple_abi(code_triple), triple_abi(machine.codegen().triple)
    if mine[:2] != theirs[:2] or (None not in (mine[2], theirs[2]) and mine[2] != theirs[2]):
        return False
    for attr in ("mabi", "mfloat-abi"):
        given = code.attrs.get(attr), machine.attrs.get(attr)
        if None not in given and given[0] != given[1]:
            return False
    needed, found = dict(code.features.items()), dict(machine.features.items())  # vendor facts
    if any(name in needed and needed[name] != found.get(name) for name in same):
        return False
    for name, value in needed.items():
        if name in same or name in ignore:
            continue
        if name in at_least:
            want, have = _version(value), _version(found.get(name))
            if want is None:
                raise TargetError(f"runs_on: feature {name!r} = {value!r} of {str(code)!r} is not a version or number")
            if have is None or have < want:
                return False
        elif value is True:
            if found.get(name) is not True:
                return False
        else:
            raise TargetError(
                f"runs_on({str(code)!r}, {str(machine)!r}): the feature {name!r} = {value!r} is not a "
                "boolean, and the CPU plugin does not say how it compares (cpu_runs_on's same, at_least "
                "or ignore); report it to the plugin that derives it"
            )
    return True
