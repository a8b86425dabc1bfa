"""AMDGPU processors (``data/processors.json``, loaded once, lazily) and target IDs.

A target ID is a processor and, where the processor supports them, target-ID features
with a sign: ``gfx90a``, ``gfx90a:xnack+``, ``gfx942:sramecc+:xnack-``. A feature left
out means "any" (code that runs with the feature on or off). The canonical spelling
lists the features in alphabetical order, as clang does; legacy names (``tahiti``)
resolve to their ``gfxNNN`` processor.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from tcfg.plugin import AttributeValueError, describe_choices, package_json

__all__ = [
    "Processor",
    "TargetId",
    "llvm_features",
    "parse_target_id",
    "processor",
    "processor_names",
    "table_source",
]


class Processor(NamedTuple):
    """One row of the processor table (see ``scripts/generate_data.py`` for each field)."""

    name: str
    family: str
    generic: bool
    features: frozenset[str]
    modifiers: tuple[str, ...]
    wavefront_sizes: tuple[int, ...]
    lds_size: int

    @property
    def default_wavefront_size(self) -> int:
        """The wavefront size clang picks for the processor (``wavefrontsize32``/``64`` in its map)."""
        return 32 if "wavefrontsize32" in self.features else 64


@functools.cache
def _raw() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_rocm", "data/processors.json")
    return data


@functools.cache
def _table() -> dict[str, Processor]:
    return {
        name: Processor(
            name=name,
            family=row["family"],
            generic=row["generic"],
            features=frozenset(row["features"]),
            modifiers=tuple(row["modifiers"]),
            wavefront_sizes=tuple(row["wavefront_sizes"]),
            lds_size=row["lds_size"],
        )
        for name, row in _raw()["processors"].items()
    }


def table_source() -> str:
    """Where the processor table comes from (tool and version) and when it was made."""
    return f"{_raw()['source']} ({_raw()['date']})"


def processor_names() -> list[str]:
    """Every processor clang-22 knows for amdgcn-amd-amdhsa (legacy aliases excluded)."""
    return list(_table())


def processor(name: str) -> Processor:
    """The row of ``name`` (a ``gfx`` name or a legacy alias); an unknown one is a TargetError."""
    table = _table()
    row = table.get(name) or table.get(_raw()["aliases"].get(name, ""))
    if row is None:
        raise AttributeValueError(
            f"-mcpu={name}: unknown AMDGPU processor; {describe_choices(name, [*table, *_raw()['aliases']])}"
        )
    return row


@functools.cache
def llvm_features() -> dict[str, str]:
    """Every AMDGPU feature llc-22 knows, with LLVM's description (``data/features.json``)."""
    data: dict[str, str] = package_json("tcfg_rocm", "data/features.json")["features"]
    return data


class TargetId(NamedTuple):
    """A parsed target ID: the processor and its target-ID features (``{"xnack": True}``)."""

    processor: Processor
    settings: tuple[tuple[str, bool], ...]

    def __str__(self) -> str:
        return ":".join([self.processor.name, *(f"{f}{'+' if on else '-'}" for f, on in self.settings)])

    def setting(self, feature: str) -> str | bool:
        """``"on"``, ``"off"`` or ``"any"`` for a target-ID feature the processor supports, else False."""
        if feature not in self.processor.modifiers:
            return False
        value = dict(self.settings).get(feature)
        return "any" if value is None else ("on" if value else "off")


@functools.cache
def parse_target_id(text: str) -> TargetId:
    """``gfx942:sramecc+:xnack-`` as a :class:`TargetId`; bad input is an AttributeValueError.

    The processor must be known and each feature one the processor supports, given once,
    with ``+`` or ``-``.
    """
    name, *parts = text.split(":")
    row = processor(name)
    settings: dict[str, bool] = {}
    for part in parts:
        feature, sign = part[:-1], part[-1:]
        if sign not in ("+", "-") or feature not in row.modifiers:
            supported = " and ".join(f"{m}+/{m}-" for m in row.modifiers) or "no target-ID features"
            raise AttributeValueError(
                f"-mcpu={text}: {part!r} is not a target-ID feature of {row.name}, which supports {supported}"
                + ("" if row.modifiers else f" (write -mcpu={row.name})")
            )
        if feature in settings:
            raise AttributeValueError(f"-mcpu={text}: the target-ID feature {feature!r} is given twice")
        settings[feature] = sign == "+"
    return TargetId(row, tuple(sorted(settings.items())))
