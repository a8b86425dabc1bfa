"""The hexagon kind: attributes, features, errors, round trips, composites, the entry point."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import tcfg
import tcfg_hexagon
import tcfg_hexagon.plugin
from tcfg.testing import check_plugin, registry_with


def _roundtrip(t: tcfg.Target, reg: tcfg.Registry) -> None:
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t


@pytest.mark.parametrize("cpu", tcfg_hexagon.cpu_names())
def test_every_cpu_round_trips(cpu: str, reg: tcfg.Registry) -> None:
    variants = ["", " -mattr=+hvxv68,+hvx-length64b,-hvx-qfloat -num-cores=4 -vtcm-capacity=262144"]
    if cpu not in ("hexagonv5", "hexagonv55"):
        variants.append(" -mattr=+hvx -llvm-options=-force-hvx-float -mtriple=hexagon-unknown-elf")
    for extra in variants:
        t = tcfg.Target(f"hexagon -mcpu={cpu}{extra}", registry=reg)
        assert t.keys == ("hexagon", "cpu") and t.kind.device_type == "hexagon"
        assert t.features.hexagon_arch == int(cpu.removeprefix("hexagonv").removesuffix("t"))
        _roundtrip(t, reg)


@pytest.mark.parametrize(
    "tag",
    [
        "qcom/hexagon-v65",
        "qcom/hexagon-v66",
        "qcom/hexagon-v68",
        "qcom/hexagon-v69",
        "qcom/hexagon-v73",
        "qcom/hexagon-v75",
    ],
)
def test_tvm_tags(tag: str, reg: tcfg.Registry) -> None:
    t = tcfg.Target(tag, registry=reg)
    assert t.tag == tag and t.features.hvx and t.features.hvx_length == 128
    _roundtrip(t, reg)
    # Each attribute and key as TVM 0.27 exports the tag: interop/test_tvm.py, with TVM installed.


def test_tag_list(reg: tcfg.Registry) -> None:
    assert reg.list_tags("qcom/hexagon") == [f"qcom/hexagon-v{v}" for v in (65, 66, 68, 69, 73, 75)]


def test_hvx_features_and_explain(reg: tcfg.Registry) -> None:
    t = tcfg.Target("qcom/hexagon-v68 -mattr=+hvxv68,+hvx-length64b,+hvx-ieee-fp", registry=reg)
    assert (t.features.hvx_version, t.features.hvx_length, t.features.hvx_ieee_fp) == (68, 64, True)
    assert not t.features.hvx_qfloat and "hvx-length64b" in t.features.explain("hvx_length")
    assert not tcfg.Target("hexagon -mcpu=hexagonv73", registry=reg).features.hvx
    tiny = tcfg.Target("hexagon -mcpu=hexagonv67t", registry=reg)
    assert tiny.features.audio and tiny.features.hexagon_arch == 67


def test_default_cpu_fills_attrs_but_is_not_printed(reg: tcfg.Registry) -> None:
    t = tcfg.Target("hexagon -mattr=+hvx", registry=reg)
    assert t.attrs["mcpu"].startswith("hexagonv") and "mcpu" not in t.export()
    assert "default" in t.features.explain("hexagon_arch")
    _roundtrip(t, reg)


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("hexagon -mcpu=hexagonv6", "did you mean 'hexagonv69'"),
        ("hexagon -mcpu=hexagonv5 -mattr=+hvx", "no HVX v5"),
        ("hexagon -mattr=+hvx-qfloat", "requires HVX"),
        ("hexagon -mattr=+hvx-length64b", "requires HVX"),
        ("hexagon -mattr=-hvx-length64b", "choose the HVX length"),
        ("hexagon -mcpu=hexagonv66 -mattr=+hvx,+hvx-ieee-fp", "HVX v66 does not have it"),
        ("hexagon -mattr=+hvx,+v73", "comes from -mcpu"),
        ("hexagon -mattr=-hvxv68", "write -hvx"),
        ("hexagon -mattr=+hvxv64", "did you mean"),
        ("hexagon -mattr=+hvx-lenght128b", "did you mean 'hvx-length128b'"),
        ("hexagon -mattr=hvx", "with \\+ or -"),
        ("hexagon -mtriple=x86_64-linux-gnu", "Hexagon triple"),
        ("hexagon -num-cores=0", ">= 1"),
        ('{"kind": "hexagon", "vtcm-capacity": "4"}', "integer"),
        ("hexagon -mcpu=hexagonv68 -mattr=+hvx -mfoo=1", "mfoo"),
    ],
)
def test_bad_input_is_a_target_error(spec: str, says: str, reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match=says):
        tcfg.Target(spec, registry=reg)


def test_composite_with_x86_host() -> None:
    x86 = pytest.importorskip("tcfg_x86.plugin")
    import tcfg_hexagon.plugin

    reg = registry_with(tcfg_hexagon.plugin, x86)
    spec = {
        "kind": "composite",
        "host": "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake",
        "devices": ["qcom/hexagon-v73", "hexagon -mcpu=hexagonv79 -mattr=+hvx,+hvx-ieee-fp"],
    }
    t = tcfg.Target(spec, registry=reg)
    assert [d.kind.name for d in t.attrs["devices"]] == ["hexagon", "hexagon"]
    assert t.attrs["devices"][1].features.hvx_ieee_fp
    _roundtrip(t, reg)
    config = tcfg.CompilationConfig({**spec, "devices": ["qcom/hexagon-v73"]}, registry=reg)
    assert config.host is not None and config.host.kind.name == "llvm"
    assert config.target_for("hexagon") == tcfg.Target("qcom/hexagon-v73", registry=reg).with_host(config.host)
    assert tcfg.Target(config.to_target().export(), registry=reg) == config.to_target()


def test_codegen_to_dict(reg: tcfg.Registry) -> None:
    data = tcfg.Target("qcom/hexagon-v68", registry=reg).codegen().to_dict()
    assert data["kind"] == "hexagon" and data["triple"] == "hexagon" and data["cpu"] == "hexagonv68"
    assert (data["hvx_version"], data["hvx_length"]) == (68, 128)
    assert data["llc"][-1] == "-force-hvx-float" and data["clang"][-3:-1] == ["-mllvm", "-force-hvx-float"]
    assert json.loads(json.dumps(data)) == data


def test_entry_point_and_lazy_import() -> None:
    loaded = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "hexagon"})
    assert tcfg.Target("qcom/hexagon-v75", registry=loaded).features.hvx_version == 75
    code = "import tcfg_hexagon.plugin, tcfg_hexagon.facts as t; assert t._raw.cache_info().currsize == 0"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk: each kind's default target, every tag and variant, no PluginWarning."""
    check_plugin(tcfg_hexagon.plugin)


def test_the_default_cpu_named_is_the_same_target(reg: tcfg.Registry) -> None:
    """``hexagon -mcpu=hexagonv68`` (clang-22's default, named) is ``hexagon``: TVM's export of
    either (which names the CPU) reads back as the same target."""
    plain = tcfg.Target("hexagon", registry=reg)
    named = tcfg.Target(f"hexagon -mcpu={plain.attrs['mcpu']}", registry=reg)
    assert named == plain and str(named) == "hexagon"
    assert tcfg.from_tvm(plain.to_tvm(), registry=reg) == plain
    other = tcfg.Target("hexagon -mcpu=hexagonv73", registry=reg)
    assert other != plain and str(other) == "hexagon -mcpu=hexagonv73"


def test_older_clangs_get_only_the_hvx_options_they_know(reg: tcfg.Registry) -> None:
    """clang 13 has no -mhvx-qfloat (nor LLVM 13 the feature): v68 with qfloat names clang 14; v65 is said by all."""
    v68 = tcfg.Target("qcom/hexagon-v68", registry=reg).codegen()
    with pytest.raises(tcfg.TargetError, match=r"clang 13 cannot express .*hvx-qfloat.*clang 14 is the first"):
        v68.flags("clang", 13)
    with pytest.raises(tcfg.TargetError, match=r"llc 13 cannot express .*hvx-qfloat.*llc 14 is the first"):
        v68.flags("llc", 13)
    assert "-mhvx-qfloat" in v68.flags("clang", 14)
    v65 = tcfg.Target("qcom/hexagon-v65", registry=reg).codegen()
    assert v65.flags("clang", 13) == ["--target=hexagon", "-mcpu=hexagonv65", "-mhvx=v65", "-mhvx-length=128b"]


def test_an_hvx_version_an_older_llvm_lacks_is_refused(reg: tcfg.Registry) -> None:
    """-mhvx=v73 names LLVM's hvxv73, which LLVM 13 does not have."""
    from tcfg.plugin import compiler_knows

    assert not compiler_knows("llvm", "hexagon", "features", "hvxv73", 13)
    with pytest.raises(tcfg.TargetError, match=r"clang 13 cannot express"):
        tcfg.Target("qcom/hexagon-v73", registry=reg).codegen().flags("clang", 13)
