"""Plugins load when a target needs them (their ``tcfg.provides`` manifests), with the answers of loading all.

These tests use the plugins installed in the environment; with none installed they check
the core alone.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

import tcfg
from tcfg._registry.discovery import discover
from tcfg._registry.registry import Registry
from tcfg._registry.staging import covers, tag_prefix
from tcfg.testing import fake_distribution, manifest

MANIFESTS = {cand.name: cand.provides for cand in discover({})[0]}


def loaded_everything() -> Registry:
    reg = Registry()
    reg.list_tags()
    return reg


def registered(reg: Registry, plugin: str) -> tuple[set[tuple[str, str]], list[str]]:
    """What ``plugin`` registered in ``reg``: manifest entries ``(space, name)`` but tags, and its tag names."""
    found = {(space, name) for space, _, name in (entry.partition(".") for entry in manifest(plugin, reg))}
    tags = [t for t in reg.list_tags(aliases=True) if (info := reg.tag_info(t)) is not None and info.owner == plugin]
    return found, tags


@pytest.mark.parametrize("plugin", sorted(MANIFESTS))
def test_each_manifest_declares_exactly_what_its_plugin_registers(plugin: str) -> None:
    """Every name but tags exactly; every tag covered by a tag entry, and every tag entry covering one of its tags."""
    manifest = MANIFESTS[plugin]
    assert manifest is not None, f"plugin {plugin!r} declares nothing in tcfg.provides"
    names, tags = registered(loaded_everything(), plugin)
    assert {(s, n) for s, n in manifest if s != "tag"} == names
    prefixes = [n for s, n in manifest if s == "tag"]
    assert [t for t in tags if not any(covers(p, t) for p in prefixes)] == []
    assert [p for p in prefixes if not any(covers(p, t) for t in tags)] == []


def test_tag_entries_of_plugins_sharing_a_vendor_do_not_overlap_unless_one_depends_on_the_other() -> None:
    """Otherwise a first tag would import the other plugin too (it might declare the same name)."""
    entries = [(plugin, n) for plugin, manifest in MANIFESTS.items() for s, n in manifest or () if s == "tag"]
    needs = {("apple", "aarch64"), ("tensorrt", "cuda")}  # declared dependencies
    overlapping = sorted(
        (a, p, b, q)
        for a, p in entries
        for b, q in entries
        if a < b
        and (tag_prefix(p).startswith(tag_prefix(q)) or tag_prefix(q).startswith(tag_prefix(p)))
        and (a, b) not in needs
        and (b, a) not in needs
    )
    assert overlapping == []


def names_to_try(reg: Registry) -> list[str]:
    """Every tag name, alias and variant, and a target of every kind and CPU architecture."""
    names = reg.list_tags(aliases=True)
    names += [f"{tag}:{variant}" for tag in reg.list_tags() for variant in reg.tag_entry(tag).variants]
    names += [kind for kind in reg.list_kinds() if kind != "composite"]
    names += [f"llvm -mtriple={arch}-unknown-linux-gnu" for p in reg.cpu_parsers() for arch in p.arches]
    return names


def test_a_lazy_registry_answers_what_a_fully_loaded_one_does() -> None:
    eager = loaded_everything()
    names = names_to_try(eager)
    lazy = Registry()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            want = eager.target(name)
            got = lazy.target(name)
            assert (str(got), got.keys, dict(got.features)) == (str(want), want.keys, dict(want.features)), name
    assert [(r.name, r.status) for r in lazy.plugins()] == [(r.name, r.status) for r in eager.plugins()]


def test_an_unknown_name_gets_the_fully_loaded_error() -> None:
    specs = ["nvidia/a10O", "cudaa -arch=sm_80"]
    if "aarch64" in MANIFESTS:  # without its CPU parser, any -mcpu of AArch64 is taken as given
        specs.append("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a7z")
    for spec in specs:
        errors = []
        for reg in (loaded_everything(), Registry()):
            with pytest.raises(tcfg.TargetError) as caught:
                reg.target(spec)
            errors.append(str(caught.value))
        assert errors[0] == errors[1]


#: A first target of each plugin's kinds (and CPU architectures), and its plugin.
FIRST_TARGETS = [
    ({"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mcpu": "cortex-a72"}, "aarch64"),
    ("llvm -mtriple=x86_64-linux-gnu -mcpu=skylake", "x86"),
    ("llvm -mtriple=riscv64-linux-gnu -mcpu=sifive-x280", "riscv"),
    ("cuda -arch=sm_80", "cuda"),
    ("nvptx -mcpu=sm_80", "cuda"),
    ("rocm -mcpu=gfx942", "rocm"),
    ("vulkan", "gpuapi"),
    ("opencl -device=adreno", "gpuapi"),
    ("webgpu", "gpuapi"),
    ("metal", "apple"),
    ("hexagon -mcpu=hexagonv73", "hexagon"),
    ("trn", "aws"),
]


@pytest.mark.parametrize(("spec", "plugin"), FIRST_TARGETS, ids=[str(spec).split()[0] for spec, _ in FIRST_TARGETS])
def test_a_first_target_imports_its_plugin_alone_and_not_marshmallow(spec: Any, plugin: str) -> None:
    """A fresh process building one target loads only its plugin, and not marshmallow (schemas only)."""
    if plugin not in MANIFESTS:
        pytest.skip(f"needs the {plugin} plugin installed")
    code = (
        "import sys, tcfg\n"
        f"t = tcfg.Target({spec!r})\n"
        "dict(t.features)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith('tcfg_')}))\n"
        "heavy = {'marshmallow'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == f"['tcfg_{plugin}']"
    assert out[1] == "[]"


def test_loading_every_plugin_and_its_tags_does_not_import_marshmallow() -> None:
    """What ``tcfg.list_tags()`` loads (every installed plugin, every tag) does not import marshmallow either."""
    code = "import sys, tcfg\ntcfg.list_tags()\nheavy = {'marshmallow'}\nprint(sorted(heavy & set(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_threads_that_query_a_fresh_registry_at_once_all_wait_for_its_load() -> None:
    from functools import partial

    from tests.threads import at_once

    for _ in range(10):
        got = at_once(4, partial(Registry.target, Registry(), "llvm -mtriple=x86_64-linux-gnu -num-cores=2"))
        assert len({str(t) for t in got}) == 1 and len(got) == 4


def _names_used(config: Any) -> set[tuple[str, str]]:
    """The manifest names ``(space, name)`` a target's ``export()`` config uses, nested targets included."""
    from tcfg.plugin import arch_family

    found: set[tuple[str, str]] = set()
    if isinstance(config, dict):
        if isinstance(config.get("kind"), str):
            found.add(("kind", config["kind"]))
        if isinstance(config.get("mtriple"), str):
            found.add(("arch", arch_family(config["mtriple"])))
        if isinstance(config.get("compiler"), str):
            found.add(("compiler", config["compiler"]))
        found |= {("library", lib) for lib in config.get("libs", ())}
        for role in ("executor", "runtime"):
            chosen = config.get(role)
            name = chosen.get("name") if isinstance(chosen, dict) else chosen
            if isinstance(name, str):
                found.add((role, name))
        for value in config.values():
            found |= _names_used(value)
    elif isinstance(config, list):
        for value in config:
            found |= _names_used(value)
    return found


def _providers(key: tuple[str, str]) -> set[str]:
    return {plugin for plugin, manifest in MANIFESTS.items() if manifest is not None and key in manifest}


def _first_tag_of_each_vendor() -> list[str]:
    if not MANIFESTS:
        return []
    firsts: dict[str, str] = {}
    for tag in loaded_everything().list_tags():
        firsts.setdefault(tag.split("/", 1)[0], tag)
    return [firsts[vendor] for vendor in sorted(firsts)]


@pytest.mark.slow
@pytest.mark.parametrize("tag", _first_tag_of_each_vendor())
def test_a_first_tag_imports_only_the_plugins_it_needs(tag: str) -> None:
    """A fresh process building a tag imports its vendor's plugins and those providing what the tag uses.

    Tags are built on first lookup, so no other tag of those plugins is built (whose
    kinds might need other plugins: ``raspberry-pi/4b`` imports no CUDA plugin).
    """
    config = loaded_everything().get_tag(tag)
    allowed = _providers(("tag", tag.split("/", 1)[0]))
    for key in _names_used(config):
        allowed |= _providers(key)
    code = (
        "import sys, tcfg\n"
        f"tcfg.Target({tag!r})\n"
        "print(sorted({m.split('.')[0].removeprefix('tcfg_') for m in sys.modules if m.startswith('tcfg_')}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    imported = set(eval(out))  # a printed list of names
    assert imported <= allowed, f"{tag} imported {sorted(imported - allowed)} too"


def test_the_readme_example_imports_only_the_aarch64_plugin() -> None:
    if "aarch64" not in MANIFESTS:
        pytest.skip("needs the aarch64 plugin installed")
    code = (
        "import sys, tcfg\ntcfg.Target('raspberry-pi/4b')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith('tcfg_')}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['tcfg_aarch64']"


def _plugins_imported_by(code: str) -> list[str]:
    """The ``tcfg_*`` packages a fresh process running ``code`` (after ``import tcfg``) imports."""
    imported = "sorted({m.split('.')[0] for m in sys.modules if m.startswith('tcfg_')})"
    script = f"import json, sys, tcfg\n{code}\nprint(json.dumps({imported}))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    found: list[str] = json.loads(out.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize(
    ("feature", "declarers"),
    [("sve", {"aarch64"}), ("aes", {"aarch64", "x86"}), ("wgmma", set()), ("has_asimd", {"aarch64"})],
)
def test_reading_a_feature_of_another_vendor_imports_only_the_plugins_declaring_it(
    feature: str, declarers: set[str]
) -> None:
    """A cuda target reading ``sve`` imports aarch64 (which declares it: the answer is False), no other plugin."""
    needed = {"cuda", *declarers}
    if not needed <= set(MANIFESTS):
        pytest.skip(f"needs the plugins {sorted(needed)} installed")
    declaring = sorted(p for p, manifest in MANIFESTS.items() if ("feature", feature) in (manifest or ()))
    assert set(declaring) >= declarers  # the manifests say so (test_each_manifest_... checks they are right)
    code = f"t = tcfg.Target('cuda -arch=sm_80')\nassert t.features[{feature!r}] in (False, True)"
    assert _plugins_imported_by(code) == sorted({"tcfg_cuda", *(f"tcfg_{p}" for p in declaring)})


def test_a_manifest_naming_some_features_must_name_all_of_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        "from tcfg.plugin import Feature, hookimpl\n"
        "@hookimpl\n"
        "def tcfg_register_features(register):\n"
        "    register(Feature('named_one', 'declared in the manifest'))\n"
        "    register(Feature('unnamed_one', 'missing from the manifest', aliases=('has_unnamed',)))\n"
    )
    entries = {"tcfg": {"partial": "partial_features"}, "tcfg.provides": {"feature.named_one": "partial_features"}}
    fake_distribution(tmp_path, "tcfg-partial", entries, modules={"partial_features.py": source})
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry(path=[str(tmp_path)])
    with pytest.warns(tcfg.PluginWarning, match=r"'partial'.*add feature\.has_unnamed, feature\.unnamed_one to them"):
        registry.list_kinds()
    assert next(r for r in registry.plugins() if r.name == "partial").status == "failed"
