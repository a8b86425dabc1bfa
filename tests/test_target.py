"""Target: construction from every input form, identity, canonical text and round trips."""

from __future__ import annotations

import copy
import json
import multiprocessing
import pickle
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import tcfg
from tcfg._model.cpu import host_triple
from tcfg.plugin import Attr, Derived, Integer, TargetKind
from tests.fake_plugins import AccelPlugin, plugin_with


@pytest.fixture
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[AccelPlugin()], autoload=False)


def roundtrips(t: tcfg.Target) -> None:
    reg = t.registry
    assert tcfg.Target(str(t), registry=reg) == t
    assert tcfg.Target(t.export(), registry=reg) == t
    assert tcfg.Target(t.to_json(), registry=reg) == t
    assert str(tcfg.Target(str(t), registry=reg)) == str(t)
    assert tcfg.Target(t.to_json(), registry=reg).to_json() == t.to_json()


def test_string_dict_and_json_forms_build_the_same_target(core: tcfg.Registry) -> None:
    forms = [
        "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon",
        "llvm --mtriple aarch64-linux-gnu -mcpu cortex-a72 -mattr=+neon",
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mcpu": "cortex-a72", "mattr": ["+neon"]},
        '{"kind": "llvm", "mattr": ["+neon"], "mcpu": "cortex-a72", "mtriple": "aarch64-linux-gnu"}',
    ]
    targets = [tcfg.Target(f, registry=core) for f in forms]
    assert all(t == targets[0] for t in targets)
    assert len({hash(t) for t in targets}) == 1
    assert str(targets[0]) == "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon"
    roundtrips(targets[0])


def test_target_from_target_is_the_same_value(core: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mcpu=generic -mtriple=x86_64-linux-gnu", registry=core)
    assert tcfg.Target(t, registry=core) is t


def test_attrs_hold_defaults_but_text_and_export_hold_only_configuration(reg: tcfg.Registry) -> None:
    t = tcfg.Target("accel -gen=1 -mode=exact", registry=reg)
    assert t.attrs["mode"] == "exact" and t.attrs["ecc"] is True and t.attrs["lanes"] == 8
    assert str(t) == "accel -gen=1 -lanes=8"
    assert t.export() == {"kind": "accel", "gen": 1, "lanes": 8}
    assert t == tcfg.Target("accel -gen=1", registry=reg)
    with pytest.raises(TypeError):
        t.attrs["gen"] = 2  # type: ignore[index]


def test_every_attribute_type_round_trips(reg: tcfg.Registry) -> None:
    t = tcfg.Target(
        {
            "kind": "accel",
            "gen": 3,
            "mode": "fast",
            "ecc": False,
            "units": ["mma", "has space", "com,ma", "quo'te", 'dq"', "back\\slash", ""],
            "label": "  spaced  ",
            "peer": {"kind": "accel", "gen": 1, "label": 'it\'s "nested"'},
            "libs": [],
            "host": {
                "kind": "llvm",
                "mtriple": "aarch64-linux-gnu",
                "host": "llvm -mtriple=x86_64-linux-gnu",
            },
        },
        registry=reg,
    )
    roundtrips(t)
    assert t.attrs["units"][1:3] == ("has space", "com,ma")
    assert t.host is not None and t.host.host is not None
    assert t.host.host.attrs["mtriple"] == "x86_64-linux-gnu"
    assert "-ecc=false" in str(t)


def test_bare_flag_means_true_and_false_is_printed_only_when_not_default(core: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -fast-math", registry=core)
    assert t.attrs["fast-math"] is True
    assert str(t).endswith("-fast-math")
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu -fast-math=false", registry=core).config.get("fast-math") is None


def test_llvm_without_triple_or_cpu_means_this_machine(core: tcfg.Registry) -> None:
    t = tcfg.Target("llvm", registry=core)
    assert t.attrs["mtriple"] == host_triple()
    assert t.export()["mtriple"] == host_triple()
    assert tcfg.Target("c", registry=core).attrs.get("mtriple") is None


def test_no_cpu_plugin_leaves_a_valid_generic_cpu(core: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72", registry=core)
    assert t.keys == ("cpu",)
    assert dict(t.features) == {}


def test_immutable_hashable_and_usable_as_dict_keys(core: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=core)
    with pytest.raises(AttributeError):
        t.kind = None  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del t.kind
    table = {t: 1}
    assert table[tcfg.Target({"kind": "llvm", "mtriple": "x86_64-linux-gnu"}, registry=core)] == 1
    assert copy.deepcopy(t) is t


def test_different_values_are_different_targets(core: tcfg.Registry) -> None:
    a = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -num-cores=4", registry=core)
    b = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -num-cores=8", registry=core)
    c = tcfg.Target("c -mtriple=x86_64-linux-gnu -mcpu=generic", registry=core)
    assert a != b and a != c and a != "llvm"


def test_tags_with_overrides_keep_the_tag_and_round_trip(reg: tcfg.Registry) -> None:
    t = tcfg.Target("acme/a2 -lanes=32", registry=reg)
    assert t.tag == "acme/a2" and t.attrs["lanes"] == 32 and t.attrs["gen"] == 2
    roundtrips(t)
    d = tcfg.Target({"tag": "acme/a2", "lanes": 32}, registry=reg)
    assert d == t


def test_tag_names_with_punctuation(reg: tcfg.Registry) -> None:
    t = tcfg.Target("acme/a2,board-1.0", registry=reg)
    assert t.tag == "acme/a2,board-1.0"
    assert t.host is not None and t.host.attrs["mtriple"] == "x86_64-linux-gnu"
    roundtrips(t)
    reg.register_tag("x.y-z/1,2", "acme/a2,board-1.0 -gen=3")
    u = tcfg.Target("x.y-z/1,2", registry=reg)
    assert u.tag == "x.y-z/1,2" and u.attrs["gen"] == 3
    roundtrips(u)


def test_host_argument_with_host_and_without_host(core: tcfg.Registry) -> None:
    dev = tcfg.Target("c -mcpu=cortex-m4", host="llvm -mtriple=x86_64-linux-gnu", registry=core)
    assert dev.host == tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=core)
    assert "-host=" in str(dev)
    roundtrips(dev)
    assert dev.without_host() == tcfg.Target("c -mcpu=cortex-m4", registry=core)
    other = dev.with_host("llvm -mtriple=aarch64-linux-gnu")
    assert other.host is not None and other.host.attrs["mtriple"] == "aarch64-linux-gnu"
    plain = tcfg.Target("c -mcpu=cortex-m4", registry=core)
    assert plain.without_host() is plain


def test_current_is_a_stack_per_thread(core: tcfg.Registry) -> None:
    a = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=core)
    b = tcfg.Target("c -mcpu=cortex-m4", registry=core)
    assert tcfg.Target.current() is None
    seen: list[object] = []
    with a:
        assert tcfg.Target.current() is a
        with b:
            assert tcfg.Target.current() is b
            worker = threading.Thread(target=lambda: seen.append(tcfg.Target.current()))
            worker.start()
            worker.join()
        assert tcfg.Target.current() is a
    assert tcfg.Target.current() is None
    assert seen == [None]


def test_current_is_per_asyncio_task(core: tcfg.Registry) -> None:
    """Two tasks each inside ``with t:`` see their own target, and nothing stays set afterwards."""
    import asyncio

    a = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=core)
    b = tcfg.Target("c -mcpu=cortex-m4", registry=core)

    async def inside(target: tcfg.Target, log: list[object]) -> None:
        with target:
            await asyncio.sleep(0)  # let the other task enter its block
            log.append(tcfg.Target.current())
            await asyncio.sleep(0)
            log.append(tcfg.Target.current())

    async def both() -> tuple[list[object], list[object]]:
        first: list[object] = []
        second: list[object] = []
        await asyncio.gather(inside(a, first), inside(b, second))
        return first, second

    assert asyncio.run(both()) == ([a, a], [b, b])
    assert tcfg.Target.current() is None


def test_leaving_with_blocks_out_of_order_is_an_error(core: tcfg.Registry) -> None:
    """Leaving a block closes the blocks left open inside it too (issue 30: at 29e6cae the stack was
    left as it was, so once the inner one was closed the outer block stayed current for good)."""
    a = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=core)
    b = tcfg.Target("c -mcpu=cortex-m4", registry=core)
    a.__enter__()
    b.__enter__()
    with pytest.raises(tcfg.TargetError, match="out of order: the innermost is 'c -mcpu=cortex-m4'"):
        a.__exit__(None, None, None)
    assert tcfg.Target.current() is None  # a's block has ended, and b's with it
    with pytest.raises(tcfg.TargetError, match="no block is open"):
        b.__exit__(None, None, None)
    assert tcfg.Target.current() is None
    with pytest.raises(tcfg.TargetError, match="no block is open"):
        a.__exit__(None, None, None)


def test_a_block_left_open_inside_a_with_statement_ends_with_it(core: tcfg.Registry) -> None:
    """The issue's case: a generator suspended inside its own ``with`` leaves that block open."""
    a = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=core)
    b = tcfg.Target("c -mcpu=cortex-m4", registry=core)

    def inside_b() -> Iterator[None]:
        with b:
            yield

    suspended = inside_b()
    with pytest.raises(tcfg.TargetError, match="out of order"), a:
        next(suspended)
        assert tcfg.Target.current() is b
    assert tcfg.Target.current() is None
    with pytest.raises(tcfg.TargetError, match="no block is open"):
        suspended.close()
    assert tcfg.Target.current() is None


def test_specialization(reg: tcfg.Registry) -> None:
    base = tcfg.Target("accel -gen=2", registry=reg)
    turbo = tcfg.Target("accel -gen=2 -compiler=turbo", registry=reg)
    assert turbo.is_specialization_of(base)
    assert not base.is_specialization_of(turbo)
    assert not tcfg.Target("accel -gen=3", registry=reg).is_specialization_of(base)
    assert base.is_specialization_of(base)


def test_compiler_attributes_parsers_and_errors(reg: tcfg.Registry) -> None:
    t = tcfg.Target("accel -gen=2 -compiler=turbo -turbo_level=3", registry=reg)
    assert t.keys == ("accel", "accel_gen2", "turbo", "device")
    assert t.features.turbo_ready is True
    roundtrips(t)
    with pytest.raises(tcfg.UnknownAttributeError, match="add -compiler=turbo"):
        tcfg.Target("accel -gen=2 -turbo_level=2", registry=reg)
    with pytest.raises(tcfg.AttributeValueError, match="need generation 2"):
        tcfg.Target("accel -gen=1 -compiler=turbo -turbo_level=2", registry=reg)
    with pytest.raises(tcfg.AttributeValueError, match=r"did you mean 'turbo'\?"):
        tcfg.Target("accel -compiler=turbbo", registry=reg)


def test_keys_user_first_then_parser_then_kind_without_repeats(reg: tcfg.Registry) -> None:
    t = tcfg.Target("accel -gen=1 -keys=mine,device", registry=reg)
    assert t.keys == ("mine", "device", "accel", "accel_gen1")


def test_pickle_and_spawned_process_rebuild_equal_targets(core: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=aarch64-linux-gnu -model='a b' -host='llvm -mtriple=x86_64-linux-gnu'")
    assert pickle.loads(pickle.dumps(t)) == t
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        text = pool.apply(str, (t,))
    assert text == str(t)


def test_json_is_canonical_and_compact(core: tcfg.Registry) -> None:
    t = tcfg.Target({"mcpu": "generic", "kind": "llvm", "mtriple": "x86_64-linux-gnu"}, registry=core)
    assert t.to_json() == '{"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": "generic"}'
    assert json.loads(t.to_json()) == t.export()
    assert repr(t) == "Target('llvm -mtriple=x86_64-linux-gnu -mcpu=generic')"


def test_repeated_strings_come_from_the_cache(core: tcfg.Registry) -> None:
    a = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=core)
    assert tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=core) is a


def test_parser_implied_defaults_fill_attrs_but_are_not_configuration() -> None:
    def parse(request: Any) -> Derived:
        return Derived(defaults={"regs": 64 * request.attrs.get("size", 1)})

    kind = TargetKind("gpu", "gpu", attrs=(Attr("size", Integer()), Attr("regs", Integer())), parser=parse)
    reg = tcfg.Registry(plugins=[plugin_with("g", tcfg_register_kinds=lambda register: register(kind))], autoload=False)
    t = tcfg.Target("gpu -size=2", registry=reg)
    assert t.attrs["regs"] == 128 and str(t) == "gpu -size=2" and t.export() == {"kind": "gpu", "size": 2}
    assert tcfg.Target("gpu -size=2 -regs=128", registry=reg) == t
    assert str(tcfg.Target("gpu -size=2 -regs=100", registry=reg)) == "gpu -size=2 -regs=100"
    roundtrips(t)
