"""The SPIR-V environment of a Vulkan target: version encodings, versions, capabilities, extensions.

Facts come from ``data/spirv.json`` (the Vulkan and SPIR-V specifications). The versions
use TVM's encodings: ``vulkan_api_version`` is ``VK_MAKE_API_VERSION(0, major, minor,
patch)`` (1.3 is 4206592) and ``max_spirv_version`` the SPIR-V header's version word
(``major << 16 | minor << 8``: 1.5 is 0x10500 = 66816). Without either, the target is
Vulkan 1.0 with SPIR-V 1.0, TVM's conservative assumption.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from tcfg.plugin import AttributeValueError, package_json

__all__ = [
    "SpirvEnv",
    "decode_api_version",
    "decode_spirv_version",
    "encode_api_version",
    "encode_spirv_version",
    "facts",
    "spirv_env",
]


@functools.cache
def facts() -> dict[str, Any]:
    """The contents of ``data/spirv.json``."""
    data: dict[str, Any] = package_json("tcfg_gpuapi", "data/spirv.json")
    return data


def _key(version: str) -> tuple[int, int]:
    major, minor = version.split(".")
    return int(major), int(minor)


def encode_api_version(version: str) -> int:
    """``VK_MAKE_API_VERSION(0, major, minor, 0)`` of ``"1.3"``."""
    major, minor = _key(version)
    return major << 22 | minor << 12


def encode_spirv_version(version: str) -> int:
    """The SPIR-V version word of ``"1.5"`` (0x10500)."""
    major, minor = _key(version)
    return major << 16 | minor << 8


def _known_api() -> str:
    return ", ".join(f"{encode_api_version(v)} (Vulkan {v})" for v in facts()["api_versions"])


def _known_spirv() -> str:
    return ", ".join(f"{encode_spirv_version(v)} (SPIR-V {v})" for v in facts()["spirv_versions"])


@functools.cache
def decode_api_version(value: int) -> str:
    """``"1.3"`` for a ``VK_MAKE_API_VERSION`` value; an error for anything else."""
    variant, major, minor = value >> 29, (value >> 22) & 0x7F, (value >> 12) & 0x3FF
    text = f"{major}.{minor}"
    if variant != 0 or text not in facts()["api_versions"]:
        raise AttributeValueError(
            f"-vulkan_api_version={value} is not a known Vulkan API version: it is encoded as "
            f"VK_MAKE_API_VERSION(0, major, minor, patch) = major<<22 | minor<<12 | patch, so it reads "
            f"variant {variant}, version {text}; known versions: {_known_api()}"
        )
    return text


@functools.cache
def decode_spirv_version(value: int) -> str:
    """``"1.5"`` for a SPIR-V version word; an error for anything else."""
    major, minor, low = value >> 16, (value >> 8) & 0xFF, value & 0xFF
    text = f"{major}.{minor}"
    if low or text not in facts()["spirv_versions"]:
        raise AttributeValueError(
            f"-max_spirv_version={value} (0x{value:x}) is not a SPIR-V version word "
            f"(major<<16 | minor<<8); known: {_known_spirv()}"
        )
    return text


def _max_spirv(api: str) -> tuple[str, str | None]:
    """(the SPIR-V version Vulkan ``api`` allows, the one a Vulkan extension allows beyond it, or None)."""
    row = facts()["api_versions"][api]
    beyond = row.get("max_spirv_with_extension")
    plain: str = row["max_spirv"]
    return plain, (beyond[0] if beyond else None)


def _min_api(spirv: str) -> str:
    """The first Vulkan version that may consume SPIR-V ``spirv`` (with an extension where one allows it)."""
    versions: list[str] = list(facts()["api_versions"])
    for api in versions:
        plain, beyond = _max_spirv(api)
        if _key(spirv) <= _key(beyond or plain):
            return api
    raise AssertionError(f"no Vulkan version takes SPIR-V {spirv}")  # every known version has one


class SpirvEnv(NamedTuple):
    """What a Vulkan target's shaders may be: Vulkan and SPIR-V versions, capabilities, extensions.

    ``vulkan_given`` is False when the Vulkan version is the least one the SPIR-V
    version needs (no ``-vulkan_api_version``); ``subgroup_operations`` holds the names
    of the subgroup operation bits set (``basic``, ``vote``, ...).
    """

    vulkan: str
    spirv: str
    vulkan_given: bool
    spirv_given: bool
    capabilities: tuple[str, ...]
    extensions: tuple[str, ...]
    subgroup_operations: tuple[str, ...]


def _subgroup_rows(mask: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = facts()["subgroup_operations"]
    unknown = mask & ~sum(r["bit"] for r in rows)
    if unknown:
        raise AttributeValueError(
            f"-supported_subgroup_operations={mask} has bits 0x{unknown:x} that are no VkSubgroupFeatureFlagBits; "
            "known bits: " + ", ".join(f"{r['bit']} ({r['vulkan']})" for r in rows)
        )
    return [r for r in rows if mask & r["bit"]]


@functools.cache
def spirv_env(api: int | None, spirv: int | None, supports: frozenset[str], subgroup_mask: int) -> SpirvEnv:
    """The SPIR-V environment of a target with these versions, ``supports_*`` attributes set true, and subgroup bits.

    Raises :class:`AttributeValueError` for encodings that are no version, a SPIR-V
    version the Vulkan version cannot consume, and subgroup operations below SPIR-V 1.3.
    """
    api_text = decode_api_version(api) if api is not None else None
    spirv_text = decode_spirv_version(spirv) if spirv is not None else None
    if api_text is not None and spirv_text is not None:
        plain, beyond = _max_spirv(api_text)
        if _key(spirv_text) > _key(beyond or plain):
            most = f"SPIR-V {plain}" + (
                f" ({beyond} with {facts()['api_versions'][api_text]['max_spirv_with_extension'][1]})" if beyond else ""
            )
            raise AttributeValueError(
                f"-max_spirv_version={spirv} (SPIR-V {spirv_text}) is more than Vulkan {api_text} "
                f"(-vulkan_api_version={api}) consumes: at most {most}; "
                "source: the Vulkan specification, appendix 'Vulkan Environment for SPIR-V'"
            )
    if spirv_text is None:
        spirv_text = _max_spirv(api_text)[0] if api_text is not None else "1.0"
    vulkan = api_text if api_text is not None else _min_api(spirv_text)
    subgroups = _subgroup_rows(subgroup_mask)
    minimum = facts()["subgroup_min_spirv"]
    if subgroups and _key(spirv_text) < _key(minimum):
        raise AttributeValueError(
            f"-supported_subgroup_operations={subgroup_mask}: subgroup operations need SPIR-V {minimum} "
            f"(the GroupNonUniform capabilities) but this target's SPIR-V is {spirv_text}; give "
            f"-vulkan_api_version={encode_api_version('1.1')} (Vulkan 1.1) or later"
        )
    capabilities = ["Shader"]
    extensions: list[str] = []
    core = facts()["core_since"]
    rows = [facts()["supports"][name] for name in facts()["supports"] if name in supports] + subgroups
    for row in rows:
        capabilities += [c for c in row.get("capabilities", ()) if c not in capabilities]
        for ext in row.get("extensions", ()):
            if ext not in extensions and not (ext in core and _key(spirv_text) >= _key(core[ext])):
                extensions.append(ext)
    return SpirvEnv(
        vulkan,
        spirv_text,
        api_text is not None,
        spirv is not None,
        tuple(capabilities),
        tuple(extensions),
        tuple(r["name"] for r in subgroups),
    )
