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
    from tcfg_example_loongarch import plugin

    reg = tcfg.Registry(plugins=[plugin], autoload=False)
    t = tcfg.Target("llvm -mtriple=loongarch64 -mcpu=la464", registry=reg)
    assert t.features.lasx and t.features.simd_bits == 256 and t.keys == ("loongarch_cpu", "cpu")
    assert t.features.explain("lasx") == "lasx = True: -mcpu=la464 has it"
    assert tcfg.Target("loongson/3a6000", registry=reg).attrs["num-cores"] == 4
    with pytest.raises(tcfg.AttributeValueError, match="did you mean 'la464'"):
        tcfg.Target("llvm -mtriple=loongarch64 -mcpu=la446", registry=reg)
    cg = tcfg.Target("c -mcpu=la464 -mattr=+frecipe", registry=reg).codegen().to_dict()
    assert cg["cpu"] == "la464" and cg["features"] == "+frecipe"
    sys.modules.pop("tcfg_example_loongarch.plugin", None)
