"""``from_tvm(tvm.target.Target(t.to_tvm()).export()) == t`` for every tag variant and for targets
generated from each kind's own values, with the real Apache TVM 0.27 (issue 26).

Generated targets draw, for each kind TVM has, attributes TVM has too, with values our tags give
that kind (so that they describe real devices), plus given keys, an empty tag and empty keys
(which normalise away). A kind's own defaults TVM fills from this machine (``cuda``'s ``arch``,
``rocm``'s ``mcpu``) are always given: without them TVM's answer depends on the machine.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tcfg
from tcfg._registry.registry import default_registry
from tcfg._services.to_tvm import tvm_kinds

tvm = pytest.importorskip("tvm", reason="Apache TVM is not installed: pip install apache-tvm==0.27.0.post1")

TVM_KINDS = tvm_kinds()["kinds"]
#: What TVM fills from this machine when it is not given.
MACHINE = {"cuda": "arch", "rocm": "mcpu", "nvptx": "mcpu"}


def through_tvm(target: tcfg.Target) -> tcfg.Target:
    return tcfg.from_tvm(tvm.target.Target(target.to_tvm()).export())


def variants() -> list[str]:
    registry = default_registry()
    found = []
    for name in tcfg.list_tags():
        info = registry.tag_info(name)
        found += [f"{name}:{v}" for v in (info.variants if info else ())]
    return found


@pytest.mark.parametrize("name", variants())
def test_every_tag_variant_comes_back_equal(name: str) -> None:
    target = tcfg.Target(name)
    if target.kind.name not in TVM_KINDS:
        pytest.skip(f"TVM 0.27 has no kind {target.kind.name!r}")
    assert through_tvm(target) == target


def _values() -> dict[str, dict[str, list[Any]]]:
    """For each kind TVM has: attribute -> the values our tags give it (TVM's options only)."""
    seen: dict[str, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
    for name in tcfg.list_tags():
        target = tcfg.Target(name)
        kind = target.kind.name
        if kind not in TVM_KINDS or kind == "composite":
            continue
        options = set(TVM_KINDS[kind]["options"]) - {"host", "tag", "keys", "devices"}
        for attr, value in target.export().items():
            if attr in options and value not in seen[kind][attr]:
                seen[kind][attr].append(value)
    return {kind: dict(attrs) for kind, attrs in seen.items()}


VALUES = _values()


@st.composite
def generated(draw: st.DrawFn) -> tcfg.Target:
    kind = draw(st.sampled_from(sorted(VALUES)))
    config: dict[str, Any] = {"kind": kind}
    for attr, choices in sorted(VALUES[kind].items()):
        if attr == MACHINE.get(kind) or draw(st.booleans()):
            config[attr] = draw(st.sampled_from(choices))
    extra = draw(st.sampled_from([{}, {"tag": ""}, {"keys": []}, {"keys": [""]}, {"keys": ["my_key"]}]))
    config.update(extra)
    try:
        return tcfg.Target(config)
    except tcfg.TargetError:
        assume(False)
        raise


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(generated())
def test_generated_targets_of_every_kind_come_back_equal(target: tcfg.Target) -> None:
    assert through_tvm(target) == target


def test_empty_tag_and_keys_normalise_away() -> None:
    plain = tcfg.Target("cuda -arch=sm_80")
    for spec in ("cuda -arch=sm_80 -tag=''", "cuda -arch=sm_80 -keys=", "cuda -arch=sm_80 -keys=cuda,gpu"):
        assert tcfg.Target(spec) == plain
        assert through_tvm(tcfg.Target(spec)) == plain


def test_a_tag_the_target_was_not_built_from_is_refused() -> None:
    with pytest.raises(tcfg.TargetError, match="not built from"):
        tcfg.Target("cuda -arch=sm_80 -tag=nvidia/a100")
    with pytest.raises(tcfg.UnknownTagError):
        tcfg.Target("cuda -arch=sm_80 -tag=nvidia/not-a-gpu")
    a100 = tcfg.Target("nvidia/a100 -l2_cache_size_bytes=1048576")
    assert a100.tag == "nvidia/a100" and tcfg.Target(str(a100)) == a100 and through_tvm(a100) == a100
