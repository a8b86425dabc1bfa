"""generic_func: dispatch by the first target key that has an implementation."""

from __future__ import annotations

import pytest

import tcfg
from tests.fake_plugins import AccelPlugin


@pytest.fixture
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[AccelPlugin()], autoload=False)


def make_schedule() -> tcfg.GenericFunc[str]:
    @tcfg.generic_func
    def schedule(op: str, target: tcfg.Target | None = None) -> str:
        """Schedule op."""
        return f"default {op}"

    @schedule.register(["device"])
    def _device(op: str, target: tcfg.Target | None = None) -> str:
        return f"device {op}"

    @schedule.register("accel_gen2")
    def _gen2(op: str, target: tcfg.Target | None = None) -> str:
        return f"gen2 {op}"

    return schedule


def test_dispatch_by_argument_then_current_then_default(reg: tcfg.Registry) -> None:
    schedule = make_schedule()
    gen2 = tcfg.Target("accel -gen=2", registry=reg)  # keys: accel, accel_gen2, device
    gen1 = tcfg.Target("accel -gen=1", registry=reg)
    assert schedule("conv", gen2) == "gen2 conv"
    assert schedule("conv", target=gen1) == "device conv"
    with gen2:
        assert schedule("conv") == "gen2 conv"
    assert schedule("conv") == "default conv"
    cpu = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=reg)
    assert schedule("conv", cpu) == "default conv"
    assert schedule.__doc__ == "Schedule op."


def test_user_keys_come_first(reg: tcfg.Registry) -> None:
    schedule = make_schedule()
    t = tcfg.Target("accel -gen=2 -keys=device", registry=reg)
    assert schedule("mm", t) == "device mm"


def test_registering_a_key_twice_needs_override() -> None:
    schedule = make_schedule()
    taken = r"generic function 'schedule': key 'device' already has an implementation"
    with pytest.raises(tcfg.TargetError, match=taken + r" \(registered keys: accel_gen2, device\); pass override=True"):
        schedule.register("device")(lambda op, target=None: "again")
    schedule.register("device", override=True)(lambda op, target=None: "again")
    assert schedule.dispatch(None) is schedule.default
