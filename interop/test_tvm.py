"""tcfg and the real Apache TVM 0.27: ``to_tvm``/``from_tvm`` laws, for our tags and for all of TVM's.

* ``tcfg.from_tvm(tvm.target.Target(t.to_tvm()).export()) == t`` for every tag of ours
  whose kind TVM has, for those tags as hosts, and for composites of them;
* every TVM tag's export reads back through ``from_tvm`` as the same device (kind and
  every attribute TVM gives), and tcfg's own tag of that name is that device too;
* the classic strings of TVM up to 0.2x read as the dicts TVM 0.27 takes;
* ``core/tcfg/data/tvm_kinds.json`` is what this TVM says.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import tcfg
from tcfg._services.to_tvm import tvm_kinds
from tests.test_tvm_tags import DIFFERENCES  # where tcfg's facts differ from TVM's, and why

from .support import plugin_of, tag_targets

tvm = pytest.importorskip("tvm", reason="Apache TVM is not installed: pip install apache-tvm==0.27.0.post1")

OURS = tag_targets()
TVM_KINDS = tvm_kinds()["kinds"]
#: What TVM's export holds that is not an attribute of the device.
NOT_DEVICE = {"kind", "keys", "tag", "host"}


def through_tvm(target: tcfg.Target) -> tcfg.Target:
    """``target`` to TVM, built by TVM, exported by TVM and read back."""
    return tcfg.from_tvm(tvm.target.Target(target.to_tvm()).export())


def test_the_kinds_table_is_what_this_tvm_says() -> None:
    path = Path(__file__).parent / "scripts" / "tvm_kinds.py"
    spec = importlib.util.spec_from_file_location("tvm_kinds_script", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert tvm.__version__ == tvm_kinds()["version"]
    assert script.kinds() == TVM_KINDS and tvm_kinds()["fixed"] == script.FIXED


@pytest.mark.parametrize(
    ("kind", "option", "value"), [(k, o, v) for k, f in tvm_kinds()["fixed"].items() for o, v in f.items()]
)
def test_a_fixed_option_is_fixed_in_tvm(kind: str, option: str, value: str) -> None:
    assert tvm.target.Target({"kind": kind}).export()[option] == value
    with pytest.raises(Exception, match=option):
        tvm.target.Target({"kind": kind, option: value + "-other"})


@pytest.mark.parametrize(("name", "target"), OURS, ids=[name for name, _ in OURS])
def test_our_tag_comes_back_from_tvm_equal(name: str, target: tcfg.Target) -> None:
    if target.kind.name not in TVM_KINDS:
        pytest.skip(f"TVM {tvm.__version__} has no kind {target.kind.name!r}")
    assert through_tvm(target) == target


CPU_TAGS = [name for name, target in OURS if target.kind.name == "llvm"]


@pytest.mark.parametrize("host", CPU_TAGS)
def test_our_cpu_tags_as_hosts_come_back_equal(host: str) -> None:
    for device in ("c -mcpu=cortex-m4", "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake"):
        target = tcfg.Target(device, host=host)
        assert through_tvm(target) == target


def composites() -> list[tuple[str, tcfg.Target]]:
    """Per kind TVM has: all our tags of that kind as one composite's devices, on the first CPU tag as host."""
    by_kind: dict[str, list[tcfg.Target]] = {}
    for _, target in OURS:
        if target.kind.name in TVM_KINDS:
            by_kind.setdefault(target.kind.name, []).append(target)
    host = CPU_TAGS[0] if CPU_TAGS else "llvm -mtriple=x86_64-linux-gnu"
    return [
        (kind, tcfg.Target({"kind": "composite", "devices": devices, "host": host}))
        for kind, devices in by_kind.items()
    ]


@pytest.mark.parametrize(("kind", "composite"), composites(), ids=[kind for kind, _ in composites()])
def test_composites_of_our_tags_come_back_equal(kind: str, composite: tcfg.Target) -> None:
    assert through_tvm(composite) == composite
    nested = tcfg.Target({"kind": "composite", "devices": [composite, composite.attrs["devices"][0]]})
    assert through_tvm(nested) == nested


def _same(tcfg_value: Any, tvm_value: Any) -> bool:
    if isinstance(tvm_value, (list, tuple)):
        return tuple(tcfg_value or ()) == tuple(tvm_value)
    return bool(tcfg_value == tvm_value)


def _differences(target: tcfg.Target, export: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """The device attributes of TVM's ``export`` that ``target`` has otherwise: name -> (tcfg's, TVM's)."""
    fixed = tvm_kinds()["fixed"].get(export["kind"], {})
    return {
        name: (target.attrs.get(name), value)
        for name, value in export.items()
        if name not in NOT_DEVICE and name not in fixed and not name.startswith("feature.")
        if not _same(target.attrs.get(name), value)
    }


def _export(name: str) -> dict[str, Any]:
    """TVM's export of tag ``name`` as plain data (``str()`` of a TVM 0.27 target is its JSON)."""
    config: dict[str, Any] = json.loads(str(tvm.target.Target(name)))
    return config


TVM_TAGS = sorted(tvm.target.list_tags())


@pytest.mark.parametrize("name", TVM_TAGS)
def test_a_tvm_tag_reads_back_as_the_same_device(name: str) -> None:
    export = _export(name)
    try:
        back = tcfg.from_tvm(tvm.target.Target(name))
    except tcfg.UnknownKindError as exc:
        plugin = plugin_of(exc)
        if plugin is None:
            raise
        pytest.skip(f"{export['kind']} targets need {plugin}, which is not installed")
    assert back.kind.name == export["kind"]
    assert _differences(back, export) == {}
    if "host" in export:
        assert back.host is not None and _differences(back.host, export["host"]) == {}


def _tcfg_tag(name: str) -> tcfg.Target:
    """tcfg's target of TVM's tag ``name``, or skip the test when the plugin it needs is not installed."""
    try:
        return tcfg.Target(name)
    except (tcfg.UnknownKindError, tcfg.UnknownTagError) as exc:
        plugin = plugin_of(exc)
        if plugin is None:
            raise
        pytest.skip(f"{name!r} needs {plugin}, which is not installed")


#: Attributes that name a device's architecture; with the integer ones (the limits) they say which device it is.
ARCH = ("arch", "mcpu")


@pytest.mark.parametrize("name", TVM_TAGS)
def test_tcfg_knows_each_tvm_tag_as_the_same_device(name: str) -> None:
    """tcfg's tag (or alias) of TVM's tag name: the same kind, arch and limits (TVM's integer attributes).

    tcfg's may say more (TVM's ``arm/mate10`` names no CPU; tcfg's is a Cortex-A53), and
    spell what TVM keeps for information (``model``, ``device``, the triple) otherwise.
    """
    export = _export(name)
    ours = _tcfg_tag(name)
    assert ours.kind.name == export["kind"]
    device = {key: value for key, value in export.items() if key in ARCH or type(value) is int}
    differ = _differences(ours, device | {"kind": export["kind"]})
    assert {key: why for key, why in differ.items() if (name, key) not in DIFFERENCES} == {}


#: Kinds whose tags of TVM's names carry every one of TVM's attributes and keys, spelled alike.
EXACT_KINDS = ("vulkan", "opencl", "webgpu", "hexagon")


@pytest.mark.parametrize("name", [name for name in TVM_TAGS if _export(name)["kind"] in EXACT_KINDS])
def test_gpu_api_and_hexagon_tags_are_tvms_export_exactly(name: str) -> None:
    export = _export(name)
    ours = _tcfg_tag(name)
    assert list(ours.keys) == export["keys"]
    for attr, value in export.items():
        if attr not in ("kind", "keys", "tag"):
            mine = ours.attrs[attr]
            assert (list(mine) if isinstance(mine, tuple) else mine) == value, attr


#: Classic strings as TVM 0.1x/0.2x printed them (the -keys TVM derived included), and the dicts TVM 0.27 takes.
CLASSIC = [
    (
        "llvm -keys=arm_cpu,cpu -device=arm_cpu -mattr=+neon -model=bcm2837 -mtriple=armv7l-linux-gnueabihf",
        {
            "kind": "llvm",
            "device": "arm_cpu",
            "mattr": ["+neon"],
            "model": "bcm2837",
            "mtriple": "armv7l-linux-gnueabihf",
        },
    ),
    (
        "cuda -keys=cuda,gpu -arch=sm_80 -max_num_threads=1024 -thread_warp_size=32 -libs=cublas",
        {"kind": "cuda", "arch": "sm_80", "libs": ["cublas"]},
    ),
    (
        "llvm -keys=cpu -mcpu=skylake-avx512 -num-cores=4 -mtriple=x86_64-linux-gnu",
        {"kind": "llvm", "mcpu": "skylake-avx512", "num-cores": 4, "mtriple": "x86_64-linux-gnu"},
    ),
]


@pytest.mark.parametrize(
    ("classic", "config"), CLASSIC, ids=[c.split(" -")[0] + str(i) for i, (c, _) in enumerate(CLASSIC)]
)
def test_a_classic_string_reads_as_tvm_s_dict(classic: str, config: dict[str, Any]) -> None:
    try:
        want = tcfg.from_tvm(tvm.target.Target(config).export())
    except tcfg.UnknownKindError as exc:
        pytest.skip(f"needs {plugin_of(exc)}")
    assert tcfg.from_tvm(classic) == want
    with pytest.raises(Exception, match="no longer supported"):
        tvm.target.Target(classic)  # TVM 0.27 itself reads JSON only
