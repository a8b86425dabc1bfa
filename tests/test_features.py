"""target.features: spellings, aliases, False for declared-but-absent, errors, explain()."""

from __future__ import annotations

import pytest

import tcfg
from tests.fake_plugins import AccelPlugin, ToyCpuPlugin


@pytest.fixture
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[AccelPlugin(), ToyCpuPlugin()], autoload=False)


def test_attribute_item_and_mapping_access(reg: tcfg.Registry) -> None:
    f = tcfg.Target("accel -gen=2", registry=reg).features
    assert f.int8_dot is True and f["int8_dot"] is True and f["int8-dot"] is True
    assert f.vector_lanes == 16
    assert dict(f) == {"int8_dot": True, "vector_lanes": 16}
    assert list(f) == ["int8_dot", "vector_lanes"] and len(f) == 2
    assert f.get("nope", "dflt") == "dflt"


def test_aliases_and_other_spellings_read_the_same_fact(reg: tcfg.Registry) -> None:
    f = tcfg.Target("accel -gen=2", registry=reg).features
    assert f.has_int8_dot is True and f["dot-i8"] is True and f["DOT.I8"] is True
    assert "has_int8_dot" in f and "INT8-DOT" in f


def test_declared_but_absent_reads_false_and_is_not_in(reg: tcfg.Registry) -> None:
    f = tcfg.Target("accel -gen=1", registry=reg).features
    assert f.int8_dot is False and f["has_int8_dot"] is False
    assert "int8_dot" not in f
    # declared by another plugin's parser: still False, not an error
    assert f.toy_vector is False and f.turbo_ready is False


def test_unknown_names_raise_with_close_matches(reg: tcfg.Registry) -> None:
    f = tcfg.Target("accel -gen=1", registry=reg).features
    with pytest.raises(AttributeError, match="did you mean 'int8_dot'"):
        _ = f.int8_dott
    with pytest.raises(KeyError, match="vector_lanes"):
        _ = f["vector_lane"]
    assert "vector_lane" not in f and 3 not in f
    with pytest.raises(AttributeError):
        f.int8_dot = False  # type: ignore[misc]


def test_explain_says_where_a_value_came_from(reg: tcfg.Registry) -> None:
    f = tcfg.Target("accel -gen=2", registry=reg).features
    # int8_dot is a portable name: the kind's same-named feature answers it
    assert f.explain("int8_dot") == (
        "int8_dot = True (portable): the same-named feature of the kind 'accel': "
        "int8_dot = True: -gen=2 (generation 2 and later)"
    )
    assert f.vendor_explain("int8_dot") == "int8_dot = True: -gen=2 (generation 2 and later)"
    assert f.explain("has_int8_dot").startswith("has_int8_dot (alias of int8_dot) = True")
    absent = tcfg.Target("accel -gen=1", registry=reg).features.explain("toy_vector")
    assert absent == "toy_vector = False: nothing in this target implies it (declared by toy)"
    with pytest.raises(KeyError):
        f.explain("missing")


def test_features_compare_to_mappings(reg: tcfg.Registry) -> None:
    a = tcfg.Target("accel -gen=2", registry=reg).features
    b = tcfg.Target("accel -gen=2 -label=x", registry=reg).features
    assert a == b and a == {"int8_dot": True, "vector_lanes": 16}
    assert repr(a) == "Features(int8_dot=True, vector_lanes=16)"
