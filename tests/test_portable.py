"""The portable capability vocabulary: every kind and tag of the installed plugins answers every name."""

from __future__ import annotations

import pytest

import tcfg
from tcfg._model.portable import Answer, unanswered, vocabulary


def _targets() -> dict[str, tcfg.Target]:
    """One target per kind that builds bare, each CPU parser's architectures, and every tag (hosts too)."""
    found: dict[str, tcfg.Target] = {}
    registry = tcfg.Target("llvm").registry
    for kind in tcfg.list_kinds():
        try:
            found[kind] = tcfg.Target(kind)
        except tcfg.TargetError:
            pass  # a kind with required attributes: its tags cover it
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
    for required in (
        "fp16 bf16 fp8_e4m3 fp8_e5m2 fp64 int8_dot int4 vector_bits scalable_vectors matrix "
        "warp_size shared_memory_bytes l2_cache_bytes max_threads_per_block cores"
    ).split():
        assert required in terms
    for term in terms.values():
        assert term.type in ("bool", "int", "str") and term.meaning
        assert (term.unit != "") == (term.type == "int"), term


def test_a_portable_answer_of_the_wrong_type_blames_the_plugin() -> None:
    from tcfg._model.portable import answers

    with pytest.raises(tcfg.PluginError, match="fp16=1 .* fp16 is a bool"):
        answers("t", lambda target: {"fp16": Answer(1, "x")}, "the kind 'k'")
    with pytest.raises(tcfg.PluginError, match="not portable names"):
        answers("t", lambda target: {"fp17": Answer(True, "x")}, "the kind 'k'")


def test_reading_portable_names_loads_nothing_at_build() -> None:
    target = tcfg.Target("llvm -mtriple=mips-unknown-linux-gnu -num-cores=2")
    assert target._features is None or target._features._answers is None  # noqa: SLF001
