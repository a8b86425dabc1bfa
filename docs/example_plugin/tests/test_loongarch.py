"""Tests of the example plugin: in an isolated registry, through its entry point, and
against clang-22 (skipped where clang-22 is not installed)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

import tcfg
from tcfg.testing import check_plugin, registry_with
from tcfg_example_loongarch import plugin
from tcfg_example_loongarch.facts import cpu_table


@pytest.fixture(scope="module")
def reg() -> tcfg.Registry:
    return registry_with(plugin)


def test_everything_builds() -> None:
    """tcfg.testing's walk: every tag and variant builds, with no PluginWarning."""
    check_plugin(plugin)


def test_cpu_features_and_keys(reg: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=loongarch64 -mcpu=la664", registry=reg)
    assert t.keys == ("loongarch_cpu", "cpu")
    assert t.features.lasx and t.features.frecipe and t.features.simd_bits == 256
    assert t.features.explain("lasx") == "lasx = True: -mcpu=la664 has it"


def test_mattr_removes_what_depends_on_it(reg: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=loongarch64 -mcpu=la464 -mattr=-lsx", registry=reg)
    assert not t.features.lsx and not t.features.lasx and t.features.simd_bits == 0
    added = tcfg.Target("llvm -mtriple=loongarch64 -mcpu=loongarch64 -mattr=+lasx", registry=reg)
    assert added.features.lsx and added.features.explain("lsx") == "lsx = True: -mattr=+lasx requires lsx"


def test_bad_input_names_the_closest_choices(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.AttributeValueError, match="did you mean 'la664'"):
        tcfg.Target("llvm -mtriple=loongarch64 -mcpu=la646", registry=reg)
    with pytest.raises(tcfg.AttributeValueError, match="did you mean 'lsx'"):
        tcfg.Target("llvm -mtriple=loongarch64 -mattr=+lsxa", registry=reg)


def test_tag_round_trips(reg: tcfg.Registry) -> None:
    t = tcfg.Target("loongson/3a6000", registry=reg)
    assert t.attrs["num-cores"] == 4 and t.features.lasx
    assert tcfg.Target(str(t), registry=reg) == t == tcfg.Target(t.export(), registry=reg)


def test_codegen_spells_the_cpu_as_clang_does(reg: tcfg.Registry) -> None:
    cg = tcfg.Target("c -mcpu=la464 -mattr=+frecipe", registry=reg).codegen().to_dict()
    assert "-march=la464" in cg["clang"] and "-mcpu=la464" in cg["llc"]
    assert cg["features"] == "+frecipe"


def test_found_through_the_entry_point() -> None:
    loaded = tcfg.Registry(environ={"TCFG_LOAD_PLUGINS": "loongarch"})
    assert [r.status for r in loaded.plugins() if r.name == "loongarch"] == ["loaded"]


def clang_features(cpu: str) -> set[str]:
    clang = shutil.which("clang-22")
    if clang is None:
        pytest.skip("clang-22 is not installed")
    cmd = [clang, "--target=loongarch64-linux-gnu", f"-march={cpu}", "-###", "-c", "-x", "c", "/dev/null"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    return set(re.findall(r'"-target-feature" "\+([^"]+)"', out))


@pytest.mark.parametrize("cpu", sorted(cpu_table()["cpus"]))
def test_extensions_match_clang(cpu: str) -> None:
    known = set(cpu_table()["extensions"])
    assert clang_features(cpu) & known == set(cpu_table()["cpus"][cpu]["extensions"])
