"""The portable capability vocabulary: every kind and tag of the installed plugins answers every name."""

from __future__ import annotations

import contextlib

import pytest

import tcfg
from tcfg._model.portable import Answer, unanswered, vocabulary


def _targets() -> dict[str, tcfg.Target]:
    """One target per kind that builds bare, each CPU parser's architectures, and every tag (hosts too)."""
    found: dict[str, tcfg.Target] = {}
    registry = tcfg.Target("llvm").registry
    for kind in tcfg.list_kinds():
        with contextlib.suppress(tcfg.TargetError):  # a kind with required attributes: its tags cover it
            found[kind] = tcfg.Target(kind)
    found["composite"] = tcfg.Target({"kind": "composite", "devices": ["llvm"]})
    for parser in registry.cpu_parsers():
        for arch in parser.arches:
            triple = {"arm": "armv7a-linux-gnueabihf"}.get(arch, f"{arch}-unknown-linux-gnu")
            found[f"llvm -mtriple={triple}"] = tcfg.Target(f"llvm -mtriple={triple}")
    for tag in tcfg.list_tags():
        target = tcfg.Target(tag)
        found[tag] = target
        if target.host is not None:
            found[f"{tag} (host)"] = target.host
    return found


def test_every_kind_and_tag_answers_every_portable_name() -> None:
    missing = {}
    for name, target in _targets().items():
        answers = target.features.portable()
        assert list(answers) == list(vocabulary()), name
        if unanswered(answers):
            missing[name] = unanswered(answers)
        for term, answer in answers.items():
            assert answer.why, (name, term)  # every answer says where it comes from
    assert not missing, f"portable names without an answer: {missing}"


def test_a_portable_name_reads_its_answer_and_explains_it() -> None:
    target = tcfg.Target("llvm -mtriple=mips-unknown-linux-gnu")
    assert target.features.fp16 is None
    assert target.features["vector_bits"] is None
    assert "fp16" not in target.features
    assert "no installed CPU plugin knows the architecture" in target.features.explain("fp16")
    assert target.features.portable()["cores"] == Answer(
        None, "the target gives no -num-cores (a tag of a real machine does)"
    )
    assert tcfg.Target("llvm -mtriple=mips-unknown-linux-gnu -num-cores=4").features.cores == 4


def test_the_vocabulary_has_one_meaning_unit_and_type_per_name() -> None:
    terms = vocabulary()
    names = "fp16 bf16 fp8_e4m3 fp8_e5m2 fp64 int8_dot int4 vector_bits scalable_vectors matrix warp_size"
    for required in [*names.split(), "shared_memory_bytes", "l2_cache_bytes", "max_threads_per_block", "cores"]:
        assert required in terms
    for term in terms.values():
        assert term.type in ("bool", "int", "str") and term.meaning
        assert (term.unit != "") == (term.type == "int"), term


def test_a_portable_answer_of_the_wrong_type_blames_the_plugin() -> None:
    from tcfg._model.portable import answers

    with pytest.raises(tcfg.PluginError, match=r"fp16=1 .* fp16 is a bool"):
        answers("t", lambda target: {"fp16": Answer(1, "x")}, "the kind 'k'")
    with pytest.raises(tcfg.PluginError, match="not portable names"):
        answers("t", lambda target: {"fp17": Answer(True, "x")}, "the kind 'k'")


def test_reading_portable_names_loads_nothing_at_build() -> None:
    target = tcfg.Target("llvm -mtriple=mips-unknown-linux-gnu -num-cores=2")
    assert target._features is None or target._features._answers is None


@pytest.mark.parametrize(
    ("plugins", "spec", "name", "value", "fact"),
    [
        ("rocm", "amd/mi300x", "bf16", True, "rocm's mai_insts"),
        ("gpuapi", "vulkan/amd-radeon-rx-7800-xt", "fp16", True, "supports_float16"),
        ("aarch64 aws", "aws/graviton3", "fp16", True, "aarch64's fullfp16"),
        ("aarch64 aws", "aws/graviton3", "vector_bits", 256, "neoverse-v1 implements 256-bit SVE"),
        ("aarch64 aws", "aws/graviton4", "scalable_vector_max_bits", 128, "neoverse-v2"),
        ("aarch64", "llvm -mtriple=aarch64-linux-gnu -mcpu=a64fx", "vector_bits", 512, "a64fx"),
        ("riscv", "llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-x280", "scalable_vector_min_bits", 512, "zvl512b"),
        ("cuda", "nvidia/a100", "matrix_formats", "fp16,bf16,int8,int4", "tensor-core inputs"),
    ],
)
def test_the_issues_measured_cases(plugins: str, spec: str, name: str, value: object, fact: str) -> None:
    loaded = {record.name for record in tcfg.plugins() if record.status == "loaded"}
    if not set(plugins.split()) <= loaded:
        pytest.skip(f"needs the plugins {plugins} (loaded: {sorted(loaded)})")
    target = tcfg.Target(spec)
    assert target.features[name] == value
    assert fact in target.features.explain(name)


def test_a_vendor_feature_of_a_portable_spelling_stays_readable() -> None:
    if "aarch64" not in {record.name for record in tcfg.plugins() if record.status == "loaded"}:
        pytest.skip("needs the aarch64 plugin")
    target = tcfg.Target("arm/mps3-an547")
    assert target.features.vendor("fp16") is True  # Arm's fp16: half-precision conversions (VFP)
    assert "aarch64's fullfp16" in target.features.explain("fp16")  # portable fp16: arithmetic


def test_the_example_plugin_answers_every_portable_name(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "docs" / "example_plugin"))
    from tcfg_example_loongarch import plugin

    reg = tcfg.Registry(plugins=[plugin], autoload=False)
    for spec in ("llvm -mtriple=loongarch64 -mcpu=la464", "c -mcpu=loongarch64 -mattr=-d", "loongson/3a6000"):
        answers = tcfg.Target(spec, registry=reg).features.portable()
        assert unanswered(answers) == [], spec
    la464 = tcfg.Target("llvm -mtriple=loongarch64 -mcpu=la464", registry=reg).features
    assert la464.vector_bits == 256 and la464.fp64 is True and la464.cores is None
    assert la464.explain("vector_bits") == "vector_bits = 256 (portable): -mcpu=la464 has it"
    assert tcfg.Target("loongson/3a6000", registry=reg).features.cores == 4  # the core's answer, from -num-cores
    assert tcfg.Target("c -mcpu=loongarch64 -mattr=-d", registry=reg).features.fp64 is False
    sys.modules.pop("tcfg_example_loongarch.plugin", None)
