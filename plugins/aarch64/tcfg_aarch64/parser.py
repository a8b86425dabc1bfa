"""The CPU sub-parser for ``llvm``/``c`` targets of AArch64 and 32-bit Arm."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from tcfg.plugin import AttributeValueError, CpuParser, Derived, DeriveRequest, Feature, host_triple
from tcfg_aarch64.features import declared, values
from tcfg_aarch64.resolve import Resolved, family_of_cpu, resolve, split_mods
from tcfg_aarch64.tables import FAMILIES, Family, family_table, family_with, names

__all__ = ["ArmCpuParser", "resolve_target"]

KEYS = ("arm_cpu", "cpu")


class ArmCpuParser(CpuParser):
    """Claims triples of the ``aarch64`` and ``arm`` families, and Arm CPU names without a triple.

    Declaring features and claiming names read the small generated index; a family's
    tables are read when a target of that family is resolved.
    """

    name = "aarch64"
    arches = ("aarch64", "arm")

    @cached_property
    def features(self) -> Sequence[Feature]:  # type: ignore[override]
        return declared()

    def claims_cpu(self, mcpu: str) -> bool:
        name = split_mods(mcpu)[0]
        return name != "generic" and family_with("cpus", name) is not None

    def cpu_names(self) -> list[str]:
        return sorted(set().union(*(names(f, "cpus") for f in FAMILIES)))

    def claims_march(self, march: str) -> bool:
        return _march_family(march) is not None

    def parse(self, request: DeriveRequest, arch: str | None) -> Derived:
        attrs = request.attrs
        changed: dict[str, Any] | None = None
        if attrs.get("mcpu") == "native":
            changed = _native(dict(attrs))
            attrs = changed
        else:
            mcpu, march = attrs.get("mcpu"), attrs.get("march")
            if (mcpu is not None and mcpu != mcpu.lower()) or (march is not None and march != march.lower()):
                # clang reads CPU and architecture names in any case: the target says them as LLVM does
                changed = {**dict(attrs), **{k: attrs[k].lower() for k in ("mcpu", "march") if attrs.get(k)}}
                attrs = changed
        res = resolve_target(attrs, arch)
        feats, why = values(res)
        return Derived(attrs=changed, keys=KEYS, features=feats, why=why)


def family_for(attrs: Any, arch: str | None) -> Family:
    """The family of a claimed target: its triple's, else its CPU's."""
    if arch in FAMILIES:
        return family_table(arch)
    mcpu, march = attrs.get("mcpu"), attrs.get("march")
    family = family_of_cpu(split_mods(mcpu)[0]) if mcpu else family_of_march(march) if march else None
    return family if family is not None else family_table("aarch64")


def family_of_march(march: str) -> Family | None:
    """The family whose architecture table has ``march`` (``armv8.2-a`` or clang's ``armv8.2a``)."""
    found = _march_family(march)
    return None if found is None else family_table(found)


def _march_family(march: str) -> str | None:
    name = split_mods(march)[0]
    dashed = name[:-1] + "-a" if name.endswith("a") and not name.endswith("-a") else name
    return next((f for f in FAMILIES if name in names(f, "arches") or dashed in names(f, "arches")), None)


def resolve_target(attrs: Any, arch: str | None) -> Resolved:
    """Resolve a claimed target's attributes (``arch`` is its triple's family, or None)."""
    return resolve(
        family_for(attrs, arch),
        attrs.get("mcpu"),
        attrs.get("march"),
        tuple(attrs.get("mattr", ())),
        attrs.get("mtriple"),
        attrs.get("mfloat-abi"),
    )


def _native(attrs: dict[str, Any]) -> dict[str, Any]:
    from tcfg_aarch64 import cpuinfo  # host detection: read only for -mcpu=native

    text = cpuinfo.read_host()
    if text is None:
        raise AttributeValueError(
            f"-mcpu=native: this machine ({host_triple()}) has no /proc/cpuinfo to read the Arm CPU from"
        )
    found = cpuinfo.native_attrs(text)
    attrs.pop("mcpu")
    if "mcpu" in found:
        attrs["mcpu"] = found["mcpu"]
    extra: tuple[str, ...] = found.get("mattr", ())
    if extra:
        attrs["mattr"] = extra + tuple(attrs.get("mattr", ()))
    return attrs
