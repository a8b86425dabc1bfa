"""The start-up path runs without importing :mod:`typing`, and ``tcfg._base_typing`` stands in for it."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import typing

import pytest

from tcfg import _base_typing


class Ours(_base_typing.NamedTuple):
    """A point."""

    x: int
    y: str = "a"
    z: tuple[int, ...] = ()

    def total(self) -> int:
        return self.x + len(self.y)


class Theirs(typing.NamedTuple):
    """A point."""

    x: int
    y: str = "a"
    z: tuple[int, ...] = ()

    def total(self) -> int:
        return self.x + len(self.y)


def test_named_tuples_behave_as_typings_do() -> None:
    for cls in (Ours, Theirs):
        point = cls(1)
        assert cls._fields == ("x", "y", "z")
        assert cls._field_defaults == {"y": "a", "z": ()}
        assert point == (1, "a", ()) and isinstance(point, tuple)
        assert repr(point) == f"{cls.__name__}(x=1, y='a', z=())"
        assert point._replace(y="bc").total() == 3
        assert cls._make([2, "b", (3,)])._asdict() == {"x": 2, "y": "b", "z": (3,)}
        assert cls.__doc__ == "A point." and cls.__module__ == __name__
        assert list(cls.__annotations__) == ["x", "y", "z"]
        assert pickle.loads(pickle.dumps(point)) == point
        assert not hasattr(point, "__dict__")


def test_a_field_without_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="without a default follows one with a default"):

        class Bad(_base_typing.NamedTuple):
            a: int = 0
            b: int


def test_overload_and_protocol_at_run_time() -> None:
    def f() -> int:
        return 1

    assert _base_typing.overload(f) is f
    assert _base_typing.Protocol is object


@pytest.mark.parametrize(
    "code",
    [
        "tcfg.Target({'kind': 'llvm', 'mtriple': 'x86_64-linux-gnu', 'num-cores': 4}).features",
        "tcfg.Target('llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon').keys",
        'tcfg.Target(\'{"kind": "c", "mcpu": "generic"}\').attrs',
    ],
)
def test_building_a_target_imports_no_typing(code: str) -> None:
    """The core's path (no plugin loaded; tests/test_lazy_loading.py covers the aarch64 plugin's)."""
    script = f"import sys, tcfg\n{code}\nprint(sorted({{'typing', 'inspect', 'dataclasses'}} & set(sys.modules)))\n"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TCFG_")}
    env.update(TCFG_LOAD_PLUGINS="", PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
