"""``tcfg.compat.tvm``'s generic functions, beyond TVM's own tests (interop/tvm_facts/test_target_dispatch.py):
the registry, the override rules, dispatch order by key, and every misuse as a TargetError."""

from __future__ import annotations

import itertools

import pytest

import tcfg
from tcfg.compat.tvm import Target, generic_func, get_native_generic_func, override_native_generic_func

_names = (f"test_generic_{n}" for n in itertools.count())


def test_the_registry_gives_one_function_per_name() -> None:
    name = next(_names)
    assert get_native_generic_func(name) is get_native_generic_func(name)
    assert get_native_generic_func(name).keys == []


def test_a_call_dispatches_on_the_first_key_with_an_implementation() -> None:
    func = get_native_generic_func(next(_names))
    func.set_default(lambda x: ("default", x))
    func.register(lambda x: ("gpu", x), "gpu")
    func.register(lambda x: ("cpu", x), ["cpu", "arm_cpu"])
    assert func(1) == ("default", 1)
    with Target("cuda"):  # keys cuda, gpu
        assert func(1) == ("gpu", 1)
    with Target("llvm -mtriple=aarch64-linux-gnu"):  # keys arm_cpu, cpu
        assert func(1) == ("cpu", 1)
    func.register(lambda x: ("arm", x), "arm_cpu", allow_override=True)
    with Target("llvm -mtriple=aarch64-linux-gnu"):
        assert func(1) == ("arm", 1)
        assert func.get_packed_func()(2) == ("arm", 2)  # type: ignore[misc]
    with Target("metal"):  # keys metal, gpu
        assert func(1) == ("gpu", 1)


def test_dispatch_ignores_targets_among_the_arguments() -> None:
    """TVM dispatches on the current target only; a target passed as an argument is data."""
    func = get_native_generic_func(next(_names))
    func.set_default(lambda t: "default")
    func.register(lambda t: "gpu", "gpu")
    assert func(Target("cuda")) == "default"


def test_taken_keys_and_defaults_need_allow_override() -> None:
    func = get_native_generic_func(next(_names))
    func.set_default(abs)
    with pytest.raises(tcfg.TargetError, match="already has a default"):
        func.set_default(round)
    func.register(abs, ["cuda", "gpu"])
    with pytest.raises(
        tcfg.TargetError, match=r"key 'gpu' already has an implementation \(registered keys: cuda, gpu\)"
    ):
        func.register(round, "gpu")
    func.register(round, "gpu", allow_override=True)
    with Target("metal"):
        assert func(1.6) == 2


def test_no_default_and_no_key_is_a_clear_error() -> None:
    func = get_native_generic_func(next(_names))
    func.register(lambda: "gpu", "gpu")
    with pytest.raises(tcfg.TargetError, match=r"no implementation for target None .*registered keys: \['gpu'\]"):
        func()
    with Target("llvm"), pytest.raises(tcfg.TargetError, match=r"its keys: \[.*'cpu'\]"):
        func()


@pytest.mark.parametrize("bad", ["", 3, None, ["cuda", ""], ["cuda", 7]])
def test_bad_keys_are_refused(bad: object) -> None:
    func = get_native_generic_func(next(_names))
    with pytest.raises(tcfg.TargetError, match="key"):
        func.register(abs, bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["", None, 3])
def test_bad_names_are_refused(bad: object) -> None:
    with pytest.raises(tcfg.TargetError, match="the name must be a non-empty string"):
        get_native_generic_func(bad)  # type: ignore[arg-type]


def test_what_is_not_a_function_is_refused() -> None:
    func = get_native_generic_func(next(_names))
    with pytest.raises(tcfg.TargetError, match="is not a function"):
        func.register("abs", "gpu")  # type: ignore[arg-type]
    with pytest.raises(tcfg.TargetError, match="is not a function"):
        func.set_default(42)  # type: ignore[arg-type]


def test_override_native_generic_func() -> None:
    name = next(_names)

    @override_native_generic_func(name)
    def f(x: int) -> int:
        """the default"""
        return x + 1

    f.register("cuda", lambda x: x + 2)  # type: ignore[attr-defined]

    @f.register("cpu")  # type: ignore[attr-defined,untyped-decorator]
    def _cpu(x: int) -> int:
        return x + 10

    f.register("cpu", lambda x: x + 20)  # type: ignore[attr-defined]  # override=True is the default here
    assert f.__doc__ == "the default" and f.fdefault(1) == 2  # type: ignore[attr-defined]
    assert f.generic_func_node is get_native_generic_func(name)  # type: ignore[attr-defined]
    assert f(1) == 2
    with Target("cuda"):
        assert f(1) == 3
    with Target("llvm"):
        assert f(1) == 21
    with pytest.raises(tcfg.TargetError, match=r"keyword arguments \['x'\]"):
        f(x=1)

    @override_native_generic_func(name)
    def g(x: int) -> int:
        return x - 1

    assert g(1) == 0 and f(1) == 0  # one function per name: the new default replaced the old one


def test_generic_func_as_tvm_python_has_it() -> None:
    @generic_func
    def h(x: int, scale: int = 1) -> int:
        return x * scale

    h.register("gpu", lambda x, scale=1: -x * scale)  # type: ignore[attr-defined]
    with pytest.raises(tcfg.TargetError, match=r"key 'gpu' already has an implementation"):
        h.register("gpu", abs)  # type: ignore[attr-defined]
    assert set(h.dispatch_dict) == {"gpu"} and h.fdefault(2) == 2  # type: ignore[attr-defined]
    assert h(2, scale=3) == 6
    with Target("vulkan"):
        assert h(2, scale=3) == -6
        assert h.get_packed_func()(2) == -2  # type: ignore[attr-defined]
