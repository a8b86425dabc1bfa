"""The Arm BYOC compilers ``arm_compute_lib``, ``cmsis-nn`` and ``ethos-u``, and the ``-libs`` libraries of Arm targets.

Facts are in ``data/byoc.json`` with their sources. The rules read what this plugin's
CPU parser derived (the architecture profile, NEON, DSP, MVE): the Arm Compute Library
runs on AArch64 and on Armv7-A with NEON; CMSIS-NN and the Ethos-U NPU's driver run on
an M-profile (Cortex-M) CPU, and ``ethos-u`` takes the NPU's configuration
(``-accelerator_config``, TVM's name). A target elsewhere is refused with the reason and
where the compiler or library is valid.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from tcfg.plugin import Attr, AttributeValueError, Choice, Compiler, Derived, DeriveRequest, Library, package_json

__all__ = ["compilers", "libraries"]

_A_PROFILE = "AArch64 CPUs, or 32-bit Armv7-A and newer A-profile CPUs with NEON"
_M_PROFILE = "Arm M-profile CPUs (Cortex-M)"


@functools.cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = package_json("tcfg_aarch64", "data/byoc.json")
    return data


def _cite(key: str) -> str:
    source = _data()["sources"][key]
    return f"(source: {source['title']}, {source['date']})"


def _cpu(request: DeriveRequest) -> str:
    attrs = request.attrs
    shown = [f"-{name}={attrs[name]}" for name in ("mtriple", "mcpu", "march") if name in attrs]
    return " ".join(shown) or "this target"


def _not_a_profile(name: str, request: DeriveRequest, source: str) -> str | None:
    """Why ``name`` cannot run here (it needs AArch64, or A-profile 32-bit Arm with NEON), or None."""
    features: Mapping[str, Any] = request.features
    if features.get("is_aarch64"):
        return None
    profile = features.get("profile")
    if profile == "a" and features.get("neon"):
        return None
    if profile is None:
        what = "is not an Arm CPU this plugin knows"
    elif profile != "a":
        what = f"is an {str(profile).upper()}-profile Arm CPU"
    else:
        what = "is a 32-bit A-profile Arm CPU without NEON"
    return f"{name} runs on {_A_PROFILE}; {_cpu(request)} {what} {_cite(source)}"


def _not_m_profile(name: str, request: DeriveRequest, source: str) -> str | None:
    profile = request.features.get("profile")
    if profile == "m":
        return None
    what = "is not an Arm CPU this plugin knows" if profile is None else f"is an {str(profile).upper()}-profile Arm CPU"
    if request.features.get("is_aarch64"):
        what = "is an AArch64 (A-profile) CPU"
    return f"{name} runs on {_M_PROFILE}; {_cpu(request)} {what} {_cite(source)}"


def _refuse(name: str, reason: str | None, where: str) -> None:
    if reason is not None:
        raise AttributeValueError(f"-compiler={name}: {reason}; valid on {where}")


def _parse_acl(request: DeriveRequest) -> Derived:
    _refuse("arm_compute_lib", _not_a_profile("arm_compute_lib", request, "acl"), _A_PROFILE)
    return _keyed("arm_compute_lib")


def _parse_cmsis_nn(request: DeriveRequest) -> Derived:
    _refuse("cmsis-nn", _not_m_profile("cmsis-nn", request, "cmsis_nn"), _M_PROFILE)
    return _keyed("cmsis-nn")


def _parse_ethos_u(request: DeriveRequest) -> Derived:
    _refuse("ethos-u", _not_m_profile("ethos-u", request, "vela_readme"), f"{_M_PROFILE} next to an Ethos-U NPU")
    return _keyed("ethos-u")


@functools.cache
def _keyed(name: str) -> Derived:
    return Derived(keys=(name,))


def compilers() -> tuple[Compiler, ...]:
    """``arm_compute_lib`` (``llvm``), ``cmsis-nn`` and ``ethos-u`` (``c`` and ``llvm``)."""
    ethos = _data()["ethos_u"]
    return (
        Compiler(
            "arm_compute_lib",
            ("llvm",),
            parser=_parse_acl,
            doc="Arm Compute Library: NEON kernels for Arm application processors (Linux, Android).",
        ),
        Compiler(
            "cmsis-nn",
            ("c", "llvm"),
            parser=_parse_cmsis_nn,
            doc="CMSIS-NN: neural-network kernels for Cortex-M (plain C, DSP or MVE implementations).",
        ),
        Compiler(
            "ethos-u",
            ("c", "llvm"),
            (
                Attr(
                    "accelerator_config",
                    Choice(ethos["configs"]),
                    default=ethos["default"],
                    doc="The Ethos-U NPU and its MACs per cycle, as Vela's --accelerator-config names it.",
                ),
            ),
            parser=_parse_ethos_u,
            doc="Arm Ethos-U microNPU (U55, U65, U85) driven by a Cortex-M CPU; models compiled with Vela.",
        ),
    )


def _rule(name: str, check: Callable[[str, DeriveRequest, str], str | None], source: str) -> Any:
    def rule(request: DeriveRequest) -> str | None:
        return check(name, request, source)

    return rule


def libraries() -> tuple[Library, ...]:
    """The ``-libs`` names of Arm ``llvm``/``c`` targets: acl (Arm Compute Library) and openblas."""
    source = _data()["source"]
    return (
        Library("acl", ("llvm", "c"), "Arm Compute Library", _rule("acl", _not_a_profile, "acl"), _A_PROFILE, source),
        Library(
            "openblas", ("llvm", "c"), "OpenBLAS", _rule("openblas", _not_a_profile, "openblas"), _A_PROFILE, source
        ),
    )
