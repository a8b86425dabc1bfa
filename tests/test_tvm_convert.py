"""``Target.to_tvm()`` and ``tcfg.from_tvm()`` without TVM: the forms, the key and tag rules, the errors.

The TVM exports below were recorded from Apache TVM 0.27.0.post1
(``tvm.target.Target(config).export()``); ``interop/test_tvm.py`` runs the same laws
against the real TVM.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import tcfg
from tcfg._services.to_tvm import tvm_kinds

from .fake_plugins import AccelPlugin

#: tvm.target.Target({"kind": "llvm", "mtriple": "aarch64-linux-gnu"}).export() in TVM 0.27.
TVM_AARCH64 = {
    "kind": "llvm",
    "tag": "",
    "keys": ["arm_cpu", "cpu"],
    "feature.has_sme": False,
    "feature.has_matmul_i8": False,
    "feature.has_dotprod": False,
    "feature.has_fp16_simd": False,
    "feature.has_sve": False,
    "feature.has_asimd": True,
    "feature.is_aarch64": True,
    "mtriple": "aarch64-linux-gnu",
}
#: tvm.target.Target({"kind": "c"}).export() in TVM 0.27.
TVM_C = {"kind": "c", "tag": "", "keys": ["cpu"]}


class FakeMap:
    """Stands for tvm_ffi's Map: has ``items()``, is no dict."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def items(self) -> Iterator[tuple[str, Any]]:
        return iter(self.data.items())


class FakeArray:
    """Stands for tvm_ffi's Array: iterable, no list."""

    def __init__(self, items: list[Any]) -> None:
        self.items_ = items

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items_)


class FakeTVMTarget:
    """Stands for tvm.target.Target: only ``export()`` is used."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config

    def export(self) -> FakeMap:
        return FakeMap({k: FakeArray(v) if isinstance(v, list) else v for k, v in self.config.items()})


def test_the_table_says_where_it_comes_from_and_has_the_core_kinds() -> None:
    table = tvm_kinds()
    assert table["source"].startswith("apache-tvm") and table["date"] and table["version"].startswith("0.27")
    for kind in ("llvm", "c", "composite", "cuda"):
        options = table["kinds"][kind]["options"]
        assert {"kind", "keys", "host", "tag", "device", "model", "libs"} <= set(options)


def test_to_tvm_keeps_what_tvm_has_and_drops_the_rest(core: tcfg.Registry) -> None:
    t = tcfg.Target(
        "c -mtriple=armv7em-none-eabi -mcpu=cortex-m4 -workspace-byte-alignment=8 -model=disco", registry=core
    )
    # TVM's c kind has mcpu and workspace-byte-alignment but no mtriple.
    assert t.to_tvm() == {"kind": "c", "mcpu": "cortex-m4", "workspace-byte-alignment": 8, "model": "disco"}


def test_to_tvm_gives_lists_and_only_the_keys_given(core: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -mattr=+avx2,-avx512f -keys=mine -libs=cblas", registry=core)
    out = t.to_tvm()
    assert out["mattr"] == ["+avx2", "-avx512f"] and out["keys"] == ["mine"] and out["libs"] == ["cblas"]
    assert "cpu" in t.keys and "cpu" not in out["keys"]


def test_to_tvm_converts_hosts_and_devices_and_drops_executor_and_runtime(core: tcfg.Registry) -> None:
    t = tcfg.Target(
        {
            "kind": "composite",
            "devices": ["c -mcpu=cortex-m4", "llvm -mtriple=x86_64-linux-gnu"],
            "host": "llvm -mtriple=aarch64-linux-gnu",
            "executor": "aot",
            "runtime": "crt",
        },
        registry=core,
    )
    out = t.to_tvm()
    assert set(out) == {"kind", "devices", "host"}  # TVM's composite has no executor or runtime
    assert out["host"]["mtriple"] == "aarch64-linux-gnu"
    assert [device["kind"] for device in out["devices"]] == ["c", "llvm"]


def test_to_tvm_of_a_kind_tvm_lacks_says_so() -> None:
    reg = tcfg.Registry(plugins=[AccelPlugin()], autoload=False)
    with pytest.raises(
        tcfg.TargetError, match=r"target 'accel -gen=2 .*': TVM 0\.27.* has no kind 'accel'; TVM's kinds: .*cuda"
    ):
        tcfg.Target("accel -gen=2", registry=reg).to_tvm()


def test_from_tvm_ignores_features_and_the_empty_tag_and_drops_derived_keys(core: tcfg.Registry) -> None:
    back = tcfg.from_tvm(TVM_AARCH64, registry=core)
    # 'cpu' is the kind's own key; the core alone does not derive 'arm_cpu', so it stays as given.
    assert back == tcfg.Target("llvm -mtriple=aarch64-linux-gnu -keys=arm_cpu", registry=core)
    assert tcfg.from_tvm(TVM_C, registry=core) == tcfg.Target("c", registry=core)


def test_from_tvm_reads_tvm_objects_json_text_and_classic_strings(core: tcfg.Registry) -> None:
    host = dict(TVM_AARCH64, keys=["cpu"], mtriple="x86_64-linux-gnu")
    fake = FakeTVMTarget({"kind": "llvm", "tag": "", "keys": ["cpu"], "mcpu": "skylake", "host": FakeTVMTarget(host)})
    want = tcfg.Target("llvm -mcpu=skylake", host="llvm -mtriple=x86_64-linux-gnu", registry=core)
    assert tcfg.from_tvm(fake, registry=core) == want
    text = (
        '{"kind": "llvm", "tag": "", "keys": ["cpu"], "mcpu": "skylake", '
        '"host": {"kind": "llvm", "mtriple": "x86_64-linux-gnu"}}'
    )
    assert tcfg.from_tvm(text, registry=core) == want
    classic = "llvm -keys=cpu -mtriple=x86_64-linux-gnu -device=arm_cpu -model=bcm2711 -libs=cblas,cudnn"
    assert tcfg.from_tvm(classic, registry=core) == tcfg.Target(
        {
            "kind": "llvm",
            "mtriple": "x86_64-linux-gnu",
            "device": "arm_cpu",
            "model": "bcm2711",
            "libs": ["cblas", "cudnn"],
        },
        registry=core,
    )


def test_user_keys_before_the_derived_ones_are_kept_in_order(core: tcfg.Registry) -> None:
    """TVM's keys are the user's then the kind's: the trailing ones tcfg or TVM derive are dropped.

    (So given keys that end with a derived one, ``-keys=mine,cpu``, come back as ``-keys=mine``.)
    """
    back = tcfg.from_tvm({"kind": "c", "keys": ["board", "arm_cpu", "cpu"]}, registry=core)
    assert back.config["keys"] == ("board", "arm_cpu")
    assert back.keys[:3] == ("board", "arm_cpu", "cpu")
    # TVM puts the device name between the given keys and the kind's defaults.
    adreno = {"kind": "c", "keys": ["adreno", "texture", "adreno", "cpu"], "device": "adreno"}
    assert tcfg.from_tvm(adreno, registry=core).config["keys"] == ("adreno", "texture")


@pytest.mark.parametrize(
    "spec",
    [
        "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon -num-cores=4",
        "llvm -mtriple=x86_64-linux-gnu -keys=mine -libs=cblas -opt-level=3 -fast-math",
        "c -mcpu=cortex-m4 -workspace-byte-alignment=8 -constants-byte-alignment=16",
        "llvm -mtriple=x86_64-linux-gnu -device=gpu-host -model=box",
    ],
)
def test_a_target_tvm_can_say_comes_back_equal(core: tcfg.Registry, spec: str) -> None:
    t = tcfg.Target(spec, registry=core)
    assert tcfg.from_tvm(t.to_tvm(), registry=core) == t
    with_host = t.with_host("llvm -mtriple=aarch64-linux-gnu")
    assert tcfg.from_tvm(with_host.to_tvm(), registry=core) == with_host
    composite = tcfg.Target(
        {"kind": "composite", "devices": [t, t], "host": "llvm -mtriple=x86_64-linux-gnu"}, registry=core
    )
    assert tcfg.from_tvm(composite.to_tvm(), registry=core) == composite


def test_a_tag_brings_back_what_tvm_has_no_place_for(core: tcfg.Registry) -> None:
    core.register_tag("test/mcu", {"kind": "c", "mtriple": "thumbv7em-none-eabihf", "mcpu": "cortex-m7"})
    core.register_tag(
        "test/system",
        {
            "kind": "composite",
            "devices": [{"tag": "test/mcu"}],
            "executor": "aot",
            "host": "llvm -mtriple=x86_64-linux-gnu",
        },
    )
    for name in ("test/mcu", "test/system"):
        t = tcfg.Target(name, registry=core)
        out = t.to_tvm()
        device = out["devices"][0] if name == "test/system" else out
        assert "mtriple" not in device and "executor" not in out and out["tag"] == name
        assert tcfg.from_tvm(out, registry=core) == t


def test_a_tag_with_overrides_and_no_kind_is_read_as_tvm_027_does(core: tcfg.Registry) -> None:
    """TVM 0.27's ``{"tag": NAME, ...}``: the tag, with the other entries as overrides."""
    core.register_tag("test/mcu", {"kind": "c", "mtriple": "thumbv7em-none-eabihf", "mcpu": "cortex-m7"})
    t = tcfg.from_tvm({"tag": "test/mcu", "mcpu": "cortex-m4"}, registry=core)
    assert t.kind.name == "c" and t.attrs["mcpu"] == "cortex-m4" and t.attrs["mtriple"] == "thumbv7em-none-eabihf"
    assert t == tcfg.Target({"tag": "test/mcu", "mcpu": "cortex-m4"}, registry=core)
    with pytest.raises(tcfg.UnknownTagError, match=r"unknown tag 'test/mcv'; did you mean 'test/mcu'"):
        tcfg.from_tvm({"tag": "test/mcv"}, registry=core)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ('{"kind": "llvm",', r"TVM target .*invalid JSON"),
        ({"tag": 7}, r"'kind' must be a kind name, got None"),
        (42, r"TVM target '42': expected a tvm.target.Target, a dict, JSON text or a target string, not int"),
        ({"keys": ["cpu"]}, r"'kind' must be a kind name, got None"),
        ({"kind": "ext_dev", "tag": ""}, r"from_tvm: .*unknown kind 'ext_dev'"),
        ({"kind": "c", "tag": "", "vtcm-capacity": 4096}, r"from_tvm: .*kind 'c' has no attribute 'vtcm-capacity'"),
        ({"kind": "llvm", "tag": "", "mcpu": 5}, r"from_tvm: .*mcpu"),
        ({"kind": "llvm", "mattr": FakeMap({})}, r"from_tvm: .*mattr"),
        ({"kind": "llvm", "mcpu": object()}, r"TVM target value <object object .*> \(object\) is not a TVM value"),
        ("llvm -mcpu", r"mcpu"),
    ],
)
def test_bad_tvm_input_is_a_target_error_naming_the_part(core: tcfg.Registry, source: Any, message: str) -> None:
    with pytest.raises(tcfg.TargetError, match=message):
        tcfg.from_tvm(source, registry=core)


def test_from_tvm_reads_keys_made_of_tvms_string_subclass() -> None:
    """TVM's export() gives keys as its own ``String`` (a str subclass): they are TVM's derived
    keys all the same, not configuration (interop's round trip found ``-device=riscv_cpu``)."""

    class String(str):
        pass

    target = tcfg.Target("llvm -mtriple=x86_64-unknown-linux-gnu -device=riscv_cpu")
    exported = {**target.to_tvm(), "keys": [String("riscv_cpu"), String("cpu")]}
    assert tcfg.from_tvm(exported) == target
