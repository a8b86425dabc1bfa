"""What a Hexagon target's ``-mcpu`` and ``-mattr`` mean, resolved once per combination.

``-mattr`` takes LLVM's Hexagon feature names (``llc-22 -mtriple=hexagon -mattr=help``)
with ``+``/``-``, and follows clang's driver rules for HVX:

* ``+hvx`` turns HVX on at the CPU's version (clang's ``-mhvx``); ``+hvxvNN`` at version
  NN (clang's ``-mhvx=vNN``; clang allows any version on any CPU, and so does tcfg);
  ``-hvx`` keeps it off. hexagonv5 and hexagonv55 have no HVX in LLVM: clang's ``-mhvx``
  adds ``+hvxv5``/``+hvxv55`` there, which the backend ignores, so tcfg refuses it.
* ``+hvx-length64b``/``+hvx-length128b`` choose the vector length, else the HVX version's
  default (64 bytes up to v65, 128 from v66); ``±hvx-qfloat`` and ``±hvx-ieee-fp`` need HVX,
  and ``+`` needs a version that has them (v68 and later). Like clang, these refuse a
  target without HVX.
* ``+vNN`` is refused: the architecture version comes from ``-mcpu``.
* Any other feature LLVM knows is passed to the code generator as given.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from tcfg.plugin import AttributeValueError, TargetError, describe_choices
from tcfg_hexagon.facts import CpuInfo, always_features, cpu_info, hvx_info, hvx_versions, llc_features

__all__ = ["HexagonConfig", "resolve"]

_HVX_VERSION = re.compile(r"hvxv(\d+)\Z")
_ARCH_VERSION = re.compile(r"v\d+\Z")
_LENGTH = re.compile(r"hvx-length(\d+)b\Z")
_FP_FIELD = {"hvx-qfloat": "qfloat", "hvx-ieee-fp": "ieee_fp"}  # -mattr name -> HvxInfo field


class HexagonConfig(NamedTuple):
    """A Hexagon CPU with its HVX settings and other LLVM features.

    ``hvx_version``/``hvx_length`` (bytes) are None without HVX; ``hvx_fp`` maps
    ``hvx-qfloat``/``hvx-ieee-fp`` to True/False where ``-mattr`` named them; ``others``
    are the remaining ``-mattr`` items, as given.
    """

    cpu: CpuInfo
    hvx_version: int | None
    hvx_length: int | None
    hvx_fp: tuple[tuple[str, bool], ...]
    others: tuple[str, ...]

    def llvm_features(self) -> list[str]:
        """The LLVM feature list clang-22 gives a function for this configuration, in order.

        The CPU's own (``+v68``), the HVX ones, clang's fixed ``-long-calls`` (unless
        ``-mattr`` says otherwise) and the other ``-mattr`` items.
        """
        feats = list(self.cpu.features)
        if self.hvx_version is not None:
            feats += [f"+hvxv{self.hvx_version}", f"+hvx-length{self.hvx_length}b"]
        feats += [("+" if on else "-") + name for name, on in self.hvx_fp]
        named = {item[1:] for item in self.others}
        feats += [f for f in always_features() if f[1:] not in named]
        return feats + list(self.others)


def _split(item: str) -> tuple[bool, str]:
    if item[:1] not in ("+", "-") or len(item) < 2:
        raise AttributeValueError(
            f"-mattr={item}: each item is an LLVM Hexagon feature with + or - (such as +hvxv68, +hvx-length128b)"
        )
    name = item[1:]
    if name not in llc_features():
        raise AttributeValueError(
            f"-mattr={item}: LLVM 22 has no Hexagon feature {name!r}; {describe_choices(name, llc_features())}"
        )
    return item[0] == "+", name


@functools.cache
def resolve(mcpu: str, mattr: tuple[str, ...]) -> HexagonConfig:
    """The configuration of ``-mcpu=mcpu -mattr=...``; an :class:`AttributeValueError` says what is wrong."""
    try:
        cpu = cpu_info(mcpu)
    except TargetError as exc:
        raise AttributeValueError(f"-mcpu={mcpu}: {exc}") from None
    version: int | None = None
    length: int | None = None
    fp: dict[str, bool] = {}
    others: list[str] = []
    for item in mattr:
        on, name = _split(item)
        if _ARCH_VERSION.match(name):
            raise AttributeValueError(f"-mattr={item}: the architecture version comes from -mcpu (-mcpu=hexagon{name})")
        match = _HVX_VERSION.match(name)
        if name == "hvx" or match:
            if not on and match:
                raise AttributeValueError(f"-mattr={item}: to turn HVX off, write -hvx")
            version = (int(match.group(1)) if match else cpu.mhvx_version) if on else None
        elif _LENGTH.match(name):
            if not on:
                raise AttributeValueError(
                    f"-mattr={item}: choose the HVX length with +hvx-length64b or +hvx-length128b"
                )
            length = int(name.removeprefix("hvx-length").removesuffix("b"))
        elif name in _FP_FIELD:
            fp[name] = on
        else:
            others.append(item)
    if version is not None and hvx_info(version) is None:
        known = ", ".join(f"v{v}" for v in hvx_versions())
        raise AttributeValueError(
            f"-mattr={','.join(mattr)}: LLVM 22 has no HVX v{version} (clang's -mhvx on {mcpu}); "
            f"its HVX versions are {known}: give one with +hvxvNN, or a CPU from hexagonv60 on"
        )
    return HexagonConfig(cpu, version, _length(mattr, version, length), _fp(mattr, version, fp), tuple(others))


def _length(mattr: tuple[str, ...], version: int | None, length: int | None) -> int | None:
    if version is None:
        if length is not None:
            raise AttributeValueError(
                f"-mattr={','.join(mattr)}: +hvx-length{length}b requires HVX; add +hvx or +hvxvNN"
            )
        return None
    info = hvx_info(version)
    assert info is not None
    return info.default_length if length is None else length


def _fp(mattr: tuple[str, ...], version: int | None, fp: dict[str, bool]) -> tuple[tuple[str, bool], ...]:
    for name, on in fp.items():
        if version is None:
            raise AttributeValueError(f"-mattr={'+' if on else '-'}{name}: requires HVX; add +hvx or +hvxvNN")
        info = hvx_info(version)
        assert info is not None
        allowed = getattr(info, _FP_FIELD[name])
        if on and not allowed:
            having = [f"v{v}" for v in hvx_versions() if getattr(hvx_info(v), _FP_FIELD[name])]
            raise AttributeValueError(
                f"-mattr=+{name}: HVX v{version} does not have it; clang-22 allows it on HVX {', '.join(having)}"
            )
    return tuple(fp.items())
