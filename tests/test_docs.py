"""The plugin guide documents every hook, and its example plugin works in-process too."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

import tcfg
from tcfg import hookspecs

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
HOOKS = [name for name, f in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("tcfg_")]


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_is_in_the_guide_and_has_a_docstring(hook: str) -> None:
    assert f"`{hook}(" in GUIDE
    assert (getattr(hookspecs, hook).__doc__ or "").strip()


def test_example_plugin_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "docs" / "example_plugin"))
    from tcfg_example_riscv import plugin

    reg = tcfg.Registry(plugins=[plugin], autoload=False)
    t = tcfg.Target("llvm -mtriple=riscv64 -mcpu=sifive-x280", registry=reg)
    assert t.features.rvv and t.features.vlen_bits == 512 and t.keys == ("riscv_cpu", "cpu")
    assert t.features.explain("rvv") == "rvv = True: -mcpu=sifive-x280 has it"
    assert tcfg.Target("starfive/visionfive2", registry=reg).attrs["num-cores"] == 4
    with pytest.raises(tcfg.AttributeValueError, match="did you mean 'sifive-u74'"):
        tcfg.Target("llvm -mtriple=riscv64 -mcpu=sifive-u47", registry=reg)
    cg = tcfg.Target("c -mcpu=sifive-u74 -mattr=+v", registry=reg).codegen().to_dict()
    assert cg["cpu"] == "sifive-u74" and cg["features"] == "+v"
    sys.modules.pop("tcfg_example_riscv.plugin", None)
