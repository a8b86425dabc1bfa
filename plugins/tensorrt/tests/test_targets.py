"""Features with provenance, round trips, defaults, tags, the entry point, import cost and speed."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable

import pytest

import tcfg
import tcfg_cuda.plugin
import tcfg_tensorrt.plugin
from tcfg.testing import check_plugin, registry_with
from tcfg_tensorrt.byoc import PRECISION_FLAGS, make_compiler
from tcfg_tensorrt.facts import data

Build = Callable[[str], tcfg.Target]

ROUND_TRIP = [
    "cuda -arch=sm_87 -compiler=tensorrt -trt_version=10.3 -trt_precisions=fp16,int8 -trt_dla_core=1 -trt_gpu_fallback",
    "cuda -arch=sm_90a -compiler=tensorrt -trt_version=10.9 -trt_strongly_typed -trt_workspace_bytes=0",
    "cuda -arch=sm_100a -compiler=tensorrt -trt_version=11.4.1 -trt_optimization_level=0 -trt_sparsity "
    "-trt_version_compatible -trt_hardware_compatibility=ampere_plus -trt_tf32=false",
    "cuda -arch=sm_80 -compiler=tensorrt -trt_version=10.0 -trt_timing_cache='/data/my caches/a100.cache' "
    "-trt_precision_constraints=obey -trt_precisions=bf16",
    {"kind": "cuda", "arch": "sm_87", "compiler": "tensorrt", "trt_version": "10.3", "dla_cores": 1},
    {"tag": "nvidia/jetson-orin-nx", "compiler": "tensorrt", "trt_version": "10.3", "trt_precisions": ["fp16"]},
    "nvidia/jetson-agx-orin/tensorrt",
    "nvidia/jetson-thor/tensorrt",
]


@pytest.mark.parametrize("spec", ROUND_TRIP, ids=range(len(ROUND_TRIP)))
def test_round_trips(build: Build, spec: str) -> None:
    t = build(spec)
    assert build(str(t)) == t
    assert build(t.export()) == t
    assert build(t.to_json()) == t
    assert str(build(str(t))) == str(t)
    assert json.loads(t.to_json()) == t.export()


def test_options_are_typed_in_dict_input(build: Build) -> None:
    with pytest.raises(tcfg.TargetError, match="integer"):
        build({"kind": "cuda", "arch": "sm_80", "compiler": "tensorrt", "trt_version": "10.3", "trt_dla_core": "0"})
    with pytest.raises(tcfg.TargetError, match="string"):
        build({"kind": "cuda", "arch": "sm_80", "compiler": "tensorrt", "trt_version": 10.3})


def test_specializes_the_plain_cuda_target(build: Build) -> None:
    trt = build("cuda -arch=sm_80 -compiler=tensorrt -trt_version=10.3")
    assert trt.is_specialization_of(build("cuda -arch=sm_80"))
    assert trt != build("cuda -arch=sm_80")
    assert trt.keys[0] == "tensorrt" and "cuda" in trt.keys


def test_features_follow_device_and_version(build: Build) -> None:
    orin = build("cuda -arch=sm_87 -compiler=tensorrt -trt_version=10.3").features
    assert (orin.trt_fp16, orin.trt_int8, orin.trt_bf16, orin.trt_tf32) == (True, True, True, True)
    assert (orin.trt_fp8, orin.trt_fp4, orin.dla, orin.trt_strongly_typed) == (False, False, False, False)
    assert orin.dla_cores == 2 and orin.trt_version == "10.3"
    t4 = build("cuda -arch=sm_75 -compiler=tensorrt -trt_version=10.3").features
    assert (t4.trt_fp16, t4.trt_int8, t4.trt_bf16, t4.trt_tf32, t4.trt_fp8) == (True, True, False, False, False)
    assert t4.dla_cores is False
    ada = build("cuda -arch=sm_89 -compiler=tensorrt -trt_version=10.3").features
    assert ada.trt_fp8 is True and ada.trt_fp4 is False
    rtx50 = build("cuda -arch=sm_120 -compiler=tensorrt -trt_version=11.0").features
    assert rtx50.trt_fp4 is True and rtx50.trt_fp8 is True and rtx50.trt_strongly_typed is True
    assert rtx50.trt_version == "11.0"


def test_dla_without_fallback_narrows_precisions(build: Build) -> None:
    dla = build("cuda -arch=sm_87 -compiler=tensorrt -trt_version=10.3 -trt_precisions=fp16 -trt_dla_core=0")
    assert dla.features.dla is True
    assert (dla.features.trt_fp16, dla.features.trt_int8) == (True, True)
    assert (dla.features.trt_bf16, dla.features.trt_tf32) == (False, False)
    assert "DLA core 0" in dla.features.explain("trt_bf16")
    fallback = build(
        "cuda -arch=sm_87 -compiler=tensorrt -trt_version=10.3 -trt_precisions=fp16 -trt_dla_core=0 -trt_gpu_fallback"
    )
    assert fallback.features.trt_bf16 is True


def test_tf32_option(build: Build) -> None:
    off = build("cuda -arch=sm_80 -compiler=tensorrt -trt_version=10.3 -trt_tf32=false")
    assert off.features.trt_tf32 is False
    assert "-trt_tf32=false" in off.features.explain("trt_tf32")


def test_explain_cites_sources(build: Build) -> None:
    t = build("cuda -arch=sm_89 -compiler=tensorrt -trt_version=10.3")
    assert "docs.nvidia.com" in t.features.explain("trt_fp8")
    assert "no FP4" in t.features.explain("trt_fp4")
    strong = build("cuda -arch=sm_89 -compiler=tensorrt -trt_version=11.2")
    assert "always strongly typed" in strong.features.explain("trt_strongly_typed")


def test_default_version_is_documented_and_used(reg: tcfg.Registry) -> None:
    from tcfg_tensorrt.detect import installed_version

    expected = installed_version() or data()["default_version"]
    t = tcfg.Target("cuda -arch=sm_80 -compiler=tensorrt", registry=reg)
    assert t.attrs["trt_version"] == expected
    assert "trt_version" not in t.export()
    pinned = registry_with(*_plugins())
    assert make_compiler("10.3").table["trt_version"].default == "10.3"
    assert pinned.compilers("cuda")["tensorrt"].table["trt_version"].default == expected


def _plugins() -> list[object]:
    import tcfg_cuda.plugin
    import tcfg_tensorrt.plugin

    return [tcfg_cuda.plugin, tcfg_tensorrt.plugin]


def test_installed_version_from_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata, util

    from tcfg_tensorrt import detect

    real_find_spec = util.find_spec
    monkeypatch.setattr(util, "find_spec", lambda name: object() if name == "tensorrt" else real_find_spec(name))

    def fake_version(dist: str) -> str:
        if dist == "tensorrt-cu13":
            return "10.14.1.48"
        raise metadata.PackageNotFoundError(dist)

    detect.installed_version.cache_clear()
    monkeypatch.setattr(metadata, "version", fake_version)
    try:
        assert detect.installed_version() == "10.14.1"
    finally:
        detect.installed_version.cache_clear()


def test_installed_version_is_none_without_the_module(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import util

    from tcfg_tensorrt import detect

    real_find_spec = util.find_spec
    monkeypatch.setattr(util, "find_spec", lambda name: None if name == "tensorrt" else real_find_spec(name))
    detect.installed_version.cache_clear()
    try:
        assert detect.installed_version() is None
    finally:
        detect.installed_version.cache_clear()


def test_tags(build: Build) -> None:
    names = registry_with(*_plugins()).list_tags("nvidia/")
    ours = [n for n in names if n.endswith(("/tensorrt", "/tensorrt-11"))]
    assert sorted(ours) == sorted(data()["tags"])
    agx = build("nvidia/jetson-agx-orin/tensorrt")
    assert agx.kind.name == "composite"
    assert agx.host is not None and agx.host.attrs["mcpu"] == "cortex-a78ae"
    gpu, dla0, dla1 = agx.attrs["devices"]
    assert gpu.features.dla is False and gpu.attrs["arch"] == "sm_87"
    assert (dla0.attrs["trt_dla_core"], dla1.attrs["trt_dla_core"]) == (0, 1)
    assert dla0.features.dla is True and dla0.codegen().trtexec_args()[:2] == ["--fp16", "--int8"]
    nano = build("nvidia/jetson-orin-nano/tensorrt")
    assert len(nano.attrs["devices"]) == 1 and nano.attrs["devices"][0].features.dla_cores is False
    with pytest.raises(tcfg.TargetError, match="no DLA"):
        build(
            {
                "tag": "nvidia/jetson-orin-nano",
                "compiler": "tensorrt",
                "trt_version": "10.3",
                "dla_cores": 0,
                "trt_precisions": ["fp16"],
                "trt_dla_core": 0,
            }
        )
    thor = build("nvidia/jetson-thor/tensorrt")
    (thor_gpu,) = thor.attrs["devices"]
    assert thor_gpu.features.trt_strongly_typed is True and thor_gpu.features.trt_fp4 is True
    orin11 = build("nvidia/jetson-agx-orin/tensorrt-11")
    assert [d.attrs.get("trt_dla_core") for d in orin11.attrs["devices"]] == [None, 0, 1]
    assert all("trt_precisions" not in d.attrs for d in orin11.attrs["devices"])
    config = tcfg.CompilationConfig(agx)
    assert config.host == agx.host


def test_xavier_cannot_be_a_tensorrt_target(build: Build) -> None:
    with pytest.raises(tcfg.AttributeValueError, match=r"8\.5\.2"):
        build({"tag": "nvidia/jetson-agx-xavier", "compiler": "tensorrt", "trt_version": "10.0"})


def test_data_file_is_consistent() -> None:
    loaded = data()
    sources = loaded["sources"]
    for source in sources.values():
        assert source["url"].startswith("https://") and source["date"] and source["says"]
    cited: list[str] = []
    for row in loaded["devices"].values():
        cited += row["sources"]
        for span in [*row["support"], *row.get("dla_support", [])]:
            cited += span["sources"]
        assert set(row["precisions"]) <= set(loaded["precisions"]["order"])
        if not all(span["to"] is None for span in row["support"]):
            assert row["unsupported_reason"]
        if row["dla_cores"]:
            assert "dla_support" in row and "dla_unsupported_reason" in row
    for tag in loaded["tags"].values():
        cited += tag["sources"]
    sections = (*loaded["releases"].values(), *loaded["majors"].values(), loaded["precisions"], loaded["codegen"])
    for section in sections:
        cited += section["sources"]
    assert set(cited) <= set(sources), set(cited) - set(sources)
    assert set(sources) <= set(cited), set(sources) - set(cited)
    assert tuple(loaded["precisions"]["flags"]) == PRECISION_FLAGS
    assert loaded["unconfirmed"], "facts the sources did not confirm are listed"


def test_entry_point_loads_the_plugin() -> None:
    reg = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "cuda,tensorrt"})
    t = tcfg.Target("cuda -arch=sm_86 -compiler=tensorrt -trt_version=10.5", registry=reg)
    assert t.features.trt_bf16 is True
    records = {p.name: p for p in reg.plugins()}
    assert records["tensorrt"].status == "loaded"


def test_import_is_cheap() -> None:
    code = (
        "import sys, tcfg_tensorrt.plugin\n"
        "assert 'tensorrt' not in sys.modules\n"
        "assert 'tcfg_tensorrt.facts' not in sys.modules\n"
        "assert 'tcfg_tensorrt.codegen' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_building_is_fast(reg: tcfg.Registry) -> None:
    spec = "cuda -arch=sm_87 -compiler=tensorrt -trt_version=10.3 -trt_precisions=fp16,int8 -trt_dla_core=0"
    tcfg.Target(spec, registry=reg)
    variants = [
        spec.replace("-trt_dla_core=0", f"-trt_dla_core={i % 2} -trt_optimization_level={i % 6}") for i in range(12)
    ]
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for text in variants:
            tcfg.Target(text, registry=reg)
        best = min(best, (time.perf_counter() - start) / len(variants))
    assert best < 400e-6, f"{best * 1e6:.1f} µs per target"


def test_check_plugin_builds_every_kind_tag_and_variant() -> None:
    """tcfg.testing's walk (beside the plugin it needs): every kind's default, tag and variant; no PluginWarning."""
    check_plugin(tcfg_tensorrt.plugin, tcfg_cuda.plugin)
