"""Kinds, tags and CPU architectures of known plugins that are not loaded: the error or warning names the plugin."""

from __future__ import annotations

import importlib.metadata
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

import tcfg

KNOWN = json.loads((Path(tcfg.__file__).parent / "data" / "known_plugins.json").read_text())["plugins"]


@pytest.fixture(autouse=True)
def no_installed_plugins(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Registries scan an installation that holds the core alone (but in the test that reads the real one)."""
    if request.node.name != "test_the_table_matches_what_each_installed_known_plugin_registers":
        monkeypatch.setattr("tcfg._registry.loading.discover", lambda environ=None, **_: ([], []))


def bare(strict: bool = False) -> tcfg.Registry:
    """A registry that scans the installation (finding no plugin)."""
    return tcfg.Registry(strict=strict, environ={})


@pytest.mark.parametrize(
    ("kind", "plugin"),
    [(kind, row["distribution"]) for row in KNOWN.values() for kind in row["kinds"]],
)
def test_a_kind_of_a_known_plugin_names_the_plugin(kind: str, plugin: str) -> None:
    reg = bare()
    for spec in (f"{kind} -arch=sm_80", {"kind": kind}, json.dumps({"kind": kind})):
        with pytest.raises(tcfg.UnknownKindError) as caught:
            tcfg.Target(spec, registry=reg)
        message = str(caught.value)
        assert f"kind {kind!r} is provided by {plugin} (not installed): pip install {plugin}" in message
        assert "did you mean" not in message


def test_the_cuda_example_of_the_contract() -> None:
    with pytest.raises(
        tcfg.UnknownKindError, match=r"kind 'cuda' is provided by tcfg-plugin-cuda .*pip install tcfg-plugin-cuda"
    ):
        tcfg.Target("cuda -arch=sm_80", registry=bare())


@pytest.mark.parametrize(
    ("tag", "plugin"),
    [
        ("nvidia/a100", "tcfg-plugin-cuda"),
        ("nvidia/jetson-nano:cuda", "tcfg-plugin-cuda"),
        ("amd/mi300x", "tcfg-plugin-rocm"),
        ("qcom/hexagon-v68", "tcfg-plugin-hexagon"),
        ("qcom/adreno-opencl", "tcfg-plugin-gpuapi"),
        ("apple/m1-gpu", "tcfg-plugin-apple"),
        ("aws/trn1/trn1.2xlarge", "tcfg-plugin-aws"),
        ("aws/cpu/c5.4xlarge", "tcfg-plugin-x86"),
        ("riscv/sifive-u74", "tcfg-plugin-riscv"),
        ("raspberry-pi/4b", "tcfg-plugin-aarch64"),
    ],
)
def test_a_tag_prefix_of_a_known_plugin_names_the_plugin(tag: str, plugin: str) -> None:
    reg = bare()
    for spec in (tag, {"tag": tag}):
        with pytest.raises(tcfg.UnknownTagError, match=f"pip install .*{plugin}"):
            tcfg.Target(spec, registry=reg)
    with pytest.raises(tcfg.UnknownTagError, match=f"pip install .*{plugin}"):
        reg.get_tag(tag)


def test_names_no_plugin_provides_get_suggestions() -> None:
    reg = bare()
    with pytest.raises(tcfg.UnknownKindError, match=r"neither a kind nor a tag; did you mean 'llvm'"):
        tcfg.Target("llvn -mcpu=x", registry=reg)
    with pytest.raises(tcfg.UnknownKindError) as caught:
        tcfg.Target("zzz/board", registry=reg)
    assert "pip install" not in str(caught.value)


def test_a_disabled_or_isolated_plugin_is_not_reported_as_not_installed() -> None:
    isolated = tcfg.Registry(autoload=False)
    with pytest.raises(tcfg.UnknownKindError, match="only the plugins it was given"):
        tcfg.Target("cuda", registry=isolated)
    off = tcfg.Registry(environ={"TCFG_DISABLE_PLUGIN_AUTOLOAD": "1"})
    with pytest.raises(tcfg.UnknownKindError, match="TCFG_DISABLE_PLUGIN_AUTOLOAD"):
        tcfg.Target("cuda", registry=off)


@pytest.mark.parametrize(
    ("triple", "arch", "plugin"),
    [
        ("aarch64-linux-gnu", "aarch64", "tcfg-plugin-aarch64"),
        ("armv7a-linux-gnueabihf", "arm", "tcfg-plugin-aarch64"),
        ("x86_64-linux-gnu", "x86_64", "tcfg-plugin-x86"),
        ("riscv64-unknown-linux-gnu", "riscv64", "tcfg-plugin-riscv"),
        ("hexagon", "hexagon", "tcfg-plugin-hexagon"),
    ],
)
def test_an_unclaimed_triple_warns_once_naming_the_plugin(triple: str, arch: str, plugin: str) -> None:
    reg = bare()
    with pytest.warns(tcfg.PluginWarning) as caught:
        t = tcfg.Target(f"llvm -mtriple={triple} -mcpu=cortex-a7600", registry=reg)
    assert t.attrs["mtriple"] == triple  # the target stays valid
    (warning,) = [w for w in caught if issubclass(w.category, tcfg.PluginWarning)]
    assert f"the CPU architecture {arch!r} is provided by {plugin}" in str(warning.message)
    assert f"pip install {plugin}" in str(warning.message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tcfg.Target(f"c -mtriple={triple} -mcpu=other-cpu", registry=reg)  # once per registry and arch
        tcfg.Target(f"llvm -mtriple={triple} -num-cores=3", registry=reg)


def test_strict_mode_makes_an_unclaimed_triple_an_error() -> None:
    reg = bare(strict=True)
    for _ in range(2):  # every time, not once
        with pytest.raises(tcfg.PluginError, match=r"riscv64.*pip install tcfg-plugin-riscv"):
            tcfg.Target("llvm -mtriple=riscv64-unknown-linux-gnu", registry=reg)


def test_an_arch_no_known_plugin_claims_stays_quiet() -> None:
    reg = bare(strict=True)
    assert tcfg.Target("llvm -mtriple=mips64-linux-gnu", registry=reg).attrs["mtriple"] == "mips64-linux-gnu"


def test_a_disabled_plugin_does_not_warn_about_its_arch(monkeypatch: pytest.MonkeyPatch) -> None:
    from tcfg._registry.discovery import Release, Skipped

    skipped = Skipped("aarch64", Release("tcfg-plugin-aarch64", "0.1.0"), "not listed in TCFG_LOAD_PLUGINS")
    monkeypatch.setattr("tcfg._registry.loading.discover", lambda environ=None, **_: ([], [skipped]))
    reg = bare(strict=True)
    tcfg.Target("llvm -mtriple=aarch64-linux-gnu", registry=reg)
    with pytest.raises(
        tcfg.UnknownTagError, match=r"tcfg-plugin-aarch64 \(disabled: not listed in TCFG_LOAD_PLUGINS\)"
    ):
        tcfg.Target("raspberry-pi/4b", registry=reg)


def _depends_on(short: str) -> set[str]:
    """The known plugins that plugin ``short``'s distribution requires (tensorrt: cuda)."""
    requires = importlib.metadata.requires(KNOWN[short]["distribution"]) or []
    return {other for other, row in KNOWN.items() if any(r.startswith(row["distribution"]) for r in requires)}


def _loaded_plugin(reg: tcfg.Registry, short: str) -> tcfg.PluginRecord | None:
    return next((r for r in reg.plugins() if r.name == short and r.status == "loaded"), None)


def test_the_table_matches_what_each_installed_known_plugin_registers() -> None:
    """Every kind, tag and CPU architecture an installed known plugin registers is in its row."""
    reg = tcfg.Registry()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tcfg.PluginWarning)
        reg.list_tags()
    checked = 0
    for short, row in KNOWN.items():
        record = _loaded_plugin(reg, short)
        if record is None:
            continue
        checked += 1
        registered: dict[str, Any] = record.registered
        assert set(registered.get("kinds", ())) == set(row["kinds"]), short
        arches = {a for p in reg.cpu_parsers() if reg.owner("CPU architecture", p.arches[0]) == short for a in p.arches}
        assert arches <= set(row["arches"]), short  # the rest: arches of a kind of its own (hexagon)
        for tag in registered.get("tags", ()):
            prefixes = [p for r in KNOWN.values() for p in r["tag_prefixes"] if tag.startswith(p)]
            assert prefixes, f"{short} registers {tag!r}, under no known prefix"
            longest = max(prefixes, key=len)
            owners = {other for other, r in KNOWN.items() if longest in r["tag_prefixes"]}
            assert owners & {short, *_depends_on(short)}, f"{tag!r} of {short}: its prefix {longest!r} is {owners}'s"
    if not checked:
        pytest.skip("no known plugin is installed")
