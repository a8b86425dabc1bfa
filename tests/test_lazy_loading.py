"""Plugins load when a target needs them (their ``tcfg.provides`` manifests), with the answers of loading all.

These tests use the plugins installed in the environment; with none installed they check
the core alone.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import pytest

import tcfg
from tcfg._registry.discovery import discover
from tcfg._registry.registry import Registry

MANIFESTS = {cand.name: cand.provides for cand in discover({})[0]}


def loaded_everything() -> Registry:
    reg = Registry()
    reg.list_tags()
    return reg


def registered(reg: Registry, plugin: str) -> set[tuple[str, str]]:
    """What ``plugin`` registered in ``reg``, as manifest entries ``(space, name)``."""
    record = next(r for r in reg.plugins() if r.name == plugin)
    got = record.registered
    found = {("kind", k) for k in got.get("kinds", [])}
    found |= {("compiler", c.split(":", 1)[1]) for c in got.get("compilers", [])}
    found |= {("library", c.split(":", 1)[1]) for c in got.get("libraries", [])}
    found |= {(role, name) for role in ("executor", "runtime") for name in got.get(f"{role}s", [])}
    found |= {("arch", arch) for parser in reg.cpu_parsers() for arch in parser.arches}
    found = {(s, n) for s, n in found if s != "arch" or reg.owner("CPU architecture", n) == plugin}
    names = [t for t in reg.list_tags(aliases=True) if reg.tag_entry(t).owner == plugin]
    return found | {("tag", name.split("/", 1)[0]) for name in names}


@pytest.mark.parametrize("plugin", sorted(MANIFESTS))
def test_each_manifest_declares_exactly_what_its_plugin_registers(plugin: str) -> None:
    manifest = MANIFESTS[plugin]
    assert manifest is not None, f"plugin {plugin!r} declares nothing in tcfg.provides"
    assert set(manifest) == registered(loaded_everything(), plugin)


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
