"""The ``hexagon`` target kind: TVM 0.27's attributes, keys ``("hexagon", "cpu")``, HVX features.

Without ``-mcpu`` a target is for clang-22's default Hexagon CPU, which fills
``target.attrs["mcpu"]`` without being printed or exported.
"""

from __future__ import annotations

import functools
from typing import Any

from tcfg.plugin import (
    Answers,
    Attr,
    Derived,
    DeriveRequest,
    Feature,
    FeatureValue,
    Integer,
    String,
    StringList,
    TargetKind,
)
from tcfg_hexagon.facts import default_cpu
from tcfg_hexagon.resolve import resolve

__all__ = ["FEATURES", "HEXAGON", "parse_hexagon"]

_ATTRS = (
    Attr(
        "mcpu",
        String(r"[A-Za-z0-9_]+", "a Hexagon CPU such as hexagonv68"),
        doc="The Hexagon CPU (hexagonv5 to hexagonv81, as clang-22 names them); clang's default without it.",
    ),
    Attr(
        "mtriple",
        String(r"hexagon(-[A-Za-z0-9_.]+)*", "a Hexagon triple such as hexagon or hexagon-unknown-elf"),
        default="hexagon",
        doc="The LLVM target triple.",
    ),
    Attr("mattr", StringList(), doc="LLVM Hexagon features with + or -: +hvxv68, +hvx-length128b, +hvx-qfloat, ..."),
    Attr("num-cores", Integer(minimum=1), doc="Hardware threads the runtime may use."),
    Attr("vtcm-capacity", Integer(minimum=0), doc="Vector TCM (on-chip memory) available to the program (bytes)."),
    Attr("llvm-options", StringList(), doc="Options for LLVM's code generator (llc options, clang's -mllvm)."),
)

#: Every feature the hexagon kind derives.
FEATURES = (
    Feature("hexagon_arch", "The Hexagon architecture version, as __HEXAGON_ARCH__ (68 for hexagonv68)."),
    Feature("hvx", "Hexagon Vector eXtensions are on (-mhvx)."),
    Feature("hvx_version", "The HVX version, as __HVX_ARCH__ (68 for HVX v68)."),
    Feature("hvx_length", "The HVX vector length in bytes (64 or 128), as __HVX_LENGTH__."),
    Feature("hvx_qfloat", "HVX qfloat (QF16/QF32) arithmetic instructions (HVX v68+)."),
    Feature("hvx_ieee_fp", "HVX IEEE half/single-precision floating-point instructions (HVX v68+)."),
    Feature("audio", "The audio extension of the tiny cores hexagonv67t/v71t (__HEXAGON_AUDIO__)."),
)


@functools.cache
def _derive(mcpu: str, mattr: tuple[str, ...], given_cpu: bool) -> Derived:
    config = resolve(mcpu, mattr)
    cpu = config.cpu
    features: dict[str, FeatureValue] = {"hexagon_arch": cpu.arch}
    why = {"hexagon_arch": f"-mcpu={mcpu}" if given_cpu else f"{mcpu}, clang-22's default Hexagon CPU"}
    if cpu.audio:
        features["audio"] = True
        why["audio"] = f"{mcpu} has the audio extension"
    if config.hvx_version is not None and config.hvx_length is not None:
        source = "-mattr=" + ",".join(i for i in mattr if i.startswith(("+hvx", "-hvx")))
        features.update(hvx=True, hvx_version=config.hvx_version, hvx_length=config.hvx_length)
        length_why = source if "length" in source else f"the default length of HVX v{config.hvx_version}"
        why.update(hvx=source, hvx_version=source, hvx_length=length_why)
    for name, on in config.hvx_fp:
        if on:
            features[name.replace("-", "_")] = True
            why[name.replace("-", "_")] = f"-mattr=+{name}"
    # clang-22's default CPU given by name is the same target as no -mcpu (the pipeline drops a given
    # value equal to a derived default), so that TVM's export of either reads back as the same.
    plain = not given_cpu or mcpu == default_cpu()
    return Derived(features=features, why=why, defaults={"mcpu": mcpu} if plain else {})


def parse_hexagon(request: DeriveRequest) -> Derived:
    """Check ``-mcpu`` and ``-mattr`` and derive the architecture and HVX features."""
    attrs: Any = request.attrs
    mcpu = attrs.get("mcpu")
    return _derive(mcpu or default_cpu(), tuple(attrs.get("mattr", ())), mcpu is not None)


def _portable(target: Any) -> Answers:
    from tcfg_hexagon.portable import portable  # read at the first portable name, not at start-up

    return portable(target)


HEXAGON = TargetKind(
    portable=_portable,
    name="hexagon",
    device_type="hexagon",
    dlpack_device_type=16,  # kDLHexagon in dlpack.h
    attrs=_ATTRS,
    default_keys=("hexagon", "cpu"),
    parser=parse_hexagon,
    parse_reads=("mcpu", "mattr"),
    features=FEATURES,
    doc="A Qualcomm Hexagon DSP, compiled by LLVM's Hexagon backend; -mattr turns on HVX.",
)
