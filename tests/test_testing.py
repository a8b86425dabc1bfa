"""tcfg.testing, the plugin author's helpers: registry_with, check_plugin and fake_distribution."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import importlib_metadata
import pytest

import tcfg
from tcfg.plugin import hookimpl
from tcfg.testing import check_plugin, fake_distribution, registry_with
from tests.fake_plugins import AccelPlugin, LabelPlugin, ToyCpuPlugin, plugin_with


def test_registry_with_holds_the_core_and_the_given_plugins_only() -> None:
    reg = registry_with(AccelPlugin(), strict=True)
    assert [r.name for r in reg.plugins()] == ["core", "accel"]
    assert "accel" in reg.list_kinds()
    assert [r.name for r in registry_with().plugins()] == ["core"]


@pytest.mark.parametrize("plugin", [AccelPlugin(), ToyCpuPlugin(), LabelPlugin()], ids=lambda p: p.tcfg_plugin_name)
def test_check_plugin_passes_a_sound_plugin(plugin: object) -> None:
    reg = check_plugin(plugin)
    assert isinstance(reg, tcfg.Registry)


def test_check_plugin_builds_every_tag_and_variant() -> None:
    built: list[str] = []

    def kinds(register: Any) -> None:
        from tests.fake_plugins import ACCEL

        register(ACCEL)

    def tags(register: Any) -> None:
        register("acme/x1", {"kind": "accel", "gen": 1}, variants={"wide": {"tag": "acme/x1", "lanes": 64}})
        built.append("tags")

    reg = check_plugin(plugin_with("acme", tcfg_register_kinds=kinds, tcfg_register_tags=tags))
    assert built == ["tags", "tags"]  # once in each of check_plugin's registries (the laws' is the second)
    assert tcfg.Target("acme/x1:wide", registry=reg).attrs["lanes"] == 64


def test_check_plugin_names_each_failure() -> None:
    def kinds(register: Any) -> None:
        from tcfg.plugin import TargetKind

        def refuse(request: Any) -> Any:
            raise tcfg.AttributeValueError("this kind needs -gen")

        register(TargetKind(name="picky", device_type="picky", parser=refuse))

    plugin = plugin_with("picky", tcfg_register_kinds=kinds)
    with pytest.raises(AssertionError) as caught:
        check_plugin(plugin)
    message = str(caught.value)
    assert "plugin 'picky': 1 failure(s)" in message
    assert "kind 'picky' does not build: AttributeValueError: target 'picky': this kind needs -gen" in message


def test_check_plugin_reports_a_plugin_that_fails_to_load() -> None:
    class Raising:
        tcfg_plugin_name = "raising"

        @hookimpl
        def tcfg_register_kinds(self, register: Any) -> None:
            raise RuntimeError("the vendor SDK is missing")

    with pytest.raises(AssertionError) as caught:
        check_plugin(Raising())
    assert str(caught.value).startswith("plugin 'raising': 1 failure(s):\n  - the plugin did not load (failed: ")
    assert "vendor SDK is missing" in str(caught.value)


def test_check_plugin_takes_the_plugins_it_needs() -> None:
    def tags(register: Any) -> None:
        register("acme/a9", {"tag": "acme/a2", "gen": 3})

    check_plugin(plugin_with("board", tcfg_register_tags=tags), AccelPlugin())
    with pytest.raises(AssertionError, match=r"plugin 'board': 1 failure"):
        check_plugin(plugin_with("board", tcfg_register_tags=tags))


def test_fake_distribution_writes_what_importlib_metadata_reads(tmp_path: Path) -> None:
    meta = fake_distribution(
        tmp_path,
        "tcfg-plugin-demo",
        {"tcfg": {"demo": "tcfg_demo.plugin"}, "tcfg.provides": {"kind.demo": "tcfg_demo.plugin"}},
        version="1.2",
        modules={"tcfg_demo/__init__.py": "", "tcfg_demo/plugin.py": "X = 1\n"},
    )
    assert meta == tmp_path / "tcfg_plugin_demo-1.2.dist-info"
    (dist,) = importlib_metadata.distributions(path=[str(tmp_path)])
    assert (dist.name, dist.version) == ("tcfg-plugin-demo", "1.2")
    assert [(e.group, e.name, e.value) for e in dist.entry_points] == [
        ("tcfg", "demo", "tcfg_demo.plugin"),
        ("tcfg.provides", "kind.demo", "tcfg_demo.plugin"),
    ]
    assert (tmp_path / "tcfg_demo" / "plugin.py").read_text() == "X = 1\n"


def test_fake_distribution_takes_the_tcfg_group_alone_and_copies_packages(tmp_path: Path) -> None:
    package = tmp_path / "src" / "tcfg_copied"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text("from tcfg.plugin import hookimpl\n")
    site = tmp_path / "site"
    fake_distribution(site, "copied", {"copied": "tcfg_copied.plugin"}, modules={"tcfg_copied": package})
    assert (site / "tcfg_copied" / "plugin.py").is_file()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TCFG_")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    code = "import tcfg; print([(r.name, r.status, r.distribution) for r in tcfg.plugins() if r.name == 'copied'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.stdout.strip() == "[('copied', 'loaded', 'copied')]", done.stderr
