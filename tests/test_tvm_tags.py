"""Every tag name of Apache TVM 0.27 resolves in tcfg, by name or alias, to the same device.

The fixture ``tests/fixtures/tvm_tags.json`` is TVM's own dump (see its ``source``). Each
name whose plugin is installed must build; its kind, CPU architecture family, ``mcpu``
and every attribute TVM gives that the tcfg kind also declares (limits, core counts...)
must match, and so must TVM's derived ``feature.*`` flags that tcfg declares, except the
differences listed in ``DIFFERENCES``, each with its reason. Names whose plugin is not
installed are listed with the plugin that provides them; with every known plugin
installed, none is left.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

import tcfg
from tcfg.plugin import arch_family

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "tvm_tags.json").read_text())
TVM: dict[str, dict[str, Any]] = FIXTURE["tags"]
KNOWN = json.loads((Path(tcfg.__file__).parent / "data" / "known_plugins.json").read_text())["plugins"]

#: Attributes of TVM's exports that are labels or spellings rather than device facts.
LABELS = {"kind", "tag", "keys", "host", "device", "model", "mattr", "mtriple"}

#: ``(TVM name, what differs) -> why``: where tcfg's facts differ from TVM's, and why ours stand.
DIFFERENCES = {
    ("nvidia/jetson-agx-thor", "max_shared_memory_per_block"): "TVM gives the opt-in maximum (227 KB), "
    "which tcfg calls max_shared_memory_per_block_optin (checked below); without opt-in a block has 48 KB",
    ("nvidia/jetson-agx-thor", "l2_cache_size_bytes"): "TVM's 32 MB is in no stored NVIDIA source: left unset",
    ("nvidia/nvidia-b100", "l2_cache_size_bytes"): "TVM's 50 MB is the H100's; no stored source gives the B100's",
    ("nvidia/jetson-orin-nano", "host.mcpu"): "the Orin Nano's CPU is Cortex-A78AE (NVIDIA Jetson Orin "
    "datasheet); TVM names Carmel, the Xavier's",
    ("nvidia/jetson-orin-nano", "host.feature.has_dotprod"): "follows the CPU: Cortex-A78AE has dot product",
    ("nvidia/jetson-agx-orin-64gb", "host.mcpu"): "Cortex-A78AE, the Orin's CPU (TVM: cortex-a78, without AE)",
    ("nvidia/jetson-agx-orin-32gb", "host.mcpu"): "Cortex-A78AE, the Orin's CPU (TVM: cortex-a78, without AE)",
    ("raspberry-pi/4b-aarch64", "host"): "TVM's host is the CPU itself; a tcfg CPU target is its own host",
}
#: TVM derives feature.is_aarch64 from a triple starting with "aarch64" only: arm64 triples read False there.
ARM64_IS_AARCH64 = "feature.is_aarch64"


def _value(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def differences(name: str, tvm: dict[str, Any], t: tcfg.Target, path: str = "") -> set[str]:
    """What of TVM's config ``tvm`` the target ``t`` does not match, as ``path.key`` strings."""
    if tvm["kind"] != t.kind.name:
        return {f"{path}kind"}
    found: set[str] = set()
    attrs = t.attrs
    if "mtriple" in tvm and arch_family(tvm["mtriple"]) != arch_family(attrs.get("mtriple", "")):
        found.add(f"{path}mtriple")
    for key, value in tvm.items():
        if key in LABELS or key.startswith("feature."):
            continue
        if key not in t.kind.table:
            found.add(f"{path}{key} (no such attribute)")
        elif _value(attrs.get(key)) != _value(value):
            found.add(f"{path}{key}")
    for key, value in tvm.items():
        if not key.startswith("feature."):
            continue
        if key == ARM64_IS_AARCH64 and tvm.get("mtriple", "").startswith("arm64") and value is False:
            continue
        try:
            ours = t.features[key[len("feature.") :]]
        except KeyError:  # a feature no installed plugin declares
            continue
        if bool(ours) != value:
            found.add(f"{path}{key}")
    if "host" in tvm:
        if t.host is None:
            found.add(f"{path}host")
        else:
            found |= differences(name, tvm["host"], t.host, f"{path}host.")
    return found


@pytest.fixture(scope="module")
def reg() -> tcfg.Registry:
    registry = tcfg.Registry()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tcfg.PluginWarning)
        registry.list_tags()
    return registry


def _provider(reg: tcfg.Registry, name: str) -> str | None:
    """The plugin(s) to install for TVM's ``name``, or None when they are loaded."""
    kind = TVM[name]["kind"]
    return reg.missing_plugin("tag", name) or (
        reg.missing_plugin("kind", kind) if kind not in reg.list_kinds() else None
    )


def test_the_fixture_is_tvm_0_27s_287_tags() -> None:
    assert FIXTURE["source"].startswith("apache-tvm 0.27.0.post1 tvm.target.list_tags()")
    assert len(TVM) == 287


@pytest.mark.parametrize("name", sorted(TVM))
def test_a_tvm_tag_name_is_the_same_device(reg: tcfg.Registry, name: str) -> None:
    missing = _provider(reg, name)
    if missing is not None:
        pytest.skip(f"{name}: {missing}")
    t = tcfg.Target(name, registry=reg)
    assert t.tag is not None
    entry = reg.tag_entry(name)
    assert t.tag == entry.name and (name == entry.name or name in entry.aliases)
    declared = {*reg.features.docs, *reg.features.aliases}
    expected = {
        what
        for (tvm_name, what) in DIFFERENCES
        if tvm_name == name and ("feature." not in what or what.rpartition("feature.")[2] in declared)
    }
    assert differences(name, TVM[name], t) == expected
    if (name, "max_shared_memory_per_block") in DIFFERENCES:
        assert t.attrs["max_shared_memory_per_block_optin"] == TVM[name]["max_shared_memory_per_block"]
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target({"tag": name}, registry=reg) == t


def test_names_left_unchecked_are_those_of_plugins_not_installed(reg: tcfg.Registry) -> None:
    """Which plugin provides each name not checked here; with every known plugin installed, none is left."""
    left = {name: _provider(reg, name) for name in TVM}
    left = {name: why for name, why in left.items() if why is not None}
    for name, why in left.items():
        assert "pip install tcfg-plugin-" in str(why), name
    installed = {short for short in KNOWN if any(r.name == short and r.status == "loaded" for r in reg.plugins())}
    if installed == set(KNOWN):
        assert left == {}
