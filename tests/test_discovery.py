"""Discovery: the ``tcfg`` and ``tcfg.provides`` entry points of installed distributions, read
with importlib-metadata (zipped installs included), and the ``TCFG_*`` filters, whose bad
values warn with the closest valid names."""

from __future__ import annotations

import sys
import warnings
import zipfile
from pathlib import Path

import pytest

import tcfg
from tcfg._registry.discovery import discover
from tcfg.testing import fake_distribution

PLUGIN = "from tcfg.plugin import hookimpl\nANSWER = 42\n"


def site(tmp_path: Path, *names: str, version: str = "0.1") -> Path:
    """A directory holding one fake distribution ``tcfg-fake-NAME`` per name, each with a plugin ``NAME``."""
    for name in names:
        fake_distribution(
            tmp_path,
            f"tcfg-fake-{name}",
            {"tcfg": {name: f"tcfg_fake_{name}.plugin"}, "tcfg.provides": {f"kind.{name}": f"tcfg_fake_{name}.plugin"}},
            version=version,
            modules={f"tcfg_fake_{name}/__init__.py": "", f"tcfg_fake_{name}/plugin.py": PLUGIN},
        )
    return tmp_path


def found(environ: dict[str, str], path: Path | str) -> tuple[list[str], list[str]]:
    load, skip = discover(environ, path=[str(path)])
    return [c.name for c in load], [s.name for s in skip]


def test_a_dist_info_install_is_found_with_its_manifest(tmp_path: Path) -> None:
    (cand,), skipped = discover({}, path=[str(site(tmp_path, "alpha"))])
    assert skipped == []
    assert (cand.name, cand.origin.name, cand.origin.version) == ("alpha", "tcfg-fake-alpha", "0.1")
    assert cand.provides == frozenset({("kind", "alpha")})


def test_extras_are_ignored_when_matching_the_manifest_and_loading(tmp_path: Path) -> None:
    """``[extras]`` name optional dependencies, not the object: the manifest still matches and ``load`` works."""
    fake_distribution(
        tmp_path,
        "extra-plugin",
        {
            "tcfg": {"with_extras": "tcfg._build.memo:MAX_DEPTH [speed, fast]"},
            "tcfg.provides": {"kind.extra": "tcfg._build.memo:MAX_DEPTH"},
        },
        version="1.0",
    )
    (cand,), _ = discover({}, path=[str(tmp_path)])
    assert (cand.name, cand.origin.name, cand.origin.version) == ("with_extras", "extra-plugin", "1.0")
    assert cand.provides == frozenset({("kind", "extra")})
    assert cand.load() == 32


def test_a_plugin_without_a_manifest_provides_none(tmp_path: Path) -> None:
    fake_distribution(tmp_path, "bare", {"bare": "tcfg._model.kind"})
    (cand,), _ = discover({}, path=[str(tmp_path)])
    assert cand.provides is None
    assert cand.load() is sys.modules["tcfg._model.kind"]


def test_the_first_distribution_of_a_name_on_the_path_wins(tmp_path: Path) -> None:
    first = site(tmp_path / "first", "alpha", version="2.0")
    second = site(tmp_path / "second", "alpha", version="1.0")
    load, _ = discover({}, path=[str(first), str(second)])
    assert [(c.name, c.origin.version) for c in load] == [("alpha", "2.0")]
    load, _ = discover({}, path=[str(second), str(first)])
    assert [(c.name, c.origin.version) for c in load] == [("alpha", "1.0")]


def test_a_zipped_distribution_on_sys_path_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    unpacked = site(tmp_path / "unpacked", "zipped")
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for file in sorted(unpacked.rglob("*")):
            if file.is_file():
                zipped.write(file, file.relative_to(unpacked).as_posix())
    assert found({}, archive) == (["zipped"], [])
    monkeypatch.syspath_prepend(str(archive))
    (cand,) = [c for c in discover({})[0] if c.name == "zipped"]
    assert cand.origin.name == "tcfg-fake-zipped" and cand.provides == frozenset({("kind", "zipped")})
    module = cand.load()
    assert module.ANSWER == 42 and str(archive) in str(module.__file__)  # type: ignore[attr-defined]
    monkeypatch.delitem(sys.modules, "tcfg_fake_zipped.plugin")
    monkeypatch.delitem(sys.modules, "tcfg_fake_zipped")


def test_env_filters_select_and_skip(tmp_path: Path) -> None:
    path = site(tmp_path, "alpha", "beta")
    assert found({}, path) == (["alpha", "beta"], [])
    assert found({"TCFG_LOAD_PLUGINS": "beta"}, path) == (["beta"], ["alpha"])
    assert found({"TCFG_LOAD_PLUGINS": ""}, path) == ([], ["alpha", "beta"])
    assert found({"TCFG_DISABLED_PLUGINS": " alpha ,"}, path) == (["beta"], ["alpha"])
    assert found({"TCFG_DISABLE_PLUGIN_AUTOLOAD": "1"}, path) == ([], [])
    reasons = {s.name: s.reason for s in discover({"TCFG_LOAD_PLUGINS": "beta"}, path=[str(path)])[1]}
    assert reasons == {"alpha": "not listed in TCFG_LOAD_PLUGINS"}


@pytest.mark.parametrize(
    ("environ", "loaded", "said"),
    [
        ({"TCFG_LOAD_PLUGINS": "nope"}, [], "TCFG_LOAD_PLUGINS='nope' names 'nope', which is no installed tcfg plugin"),
        ({"TCFG_LOAD_PLUGINS": "CUDA"}, [], "names 'CUDA', which is no installed tcfg plugin; did you mean 'cuda'?"),
        (
            {"TCFG_LOAD_PLUGINS": "cuda,rocn"},
            ["cuda"],
            "names 'rocn', which is no installed tcfg plugin; did you mean 'rocm'",
        ),
        ({"TCFG_DISABLED_PLUGINS": "cudaa"}, ["cuda", "rocm"], "TCFG_DISABLED_PLUGINS='cudaa' names 'cudaa'"),
    ],
)
def test_a_name_that_is_no_installed_plugin_warns_with_the_closest(
    tmp_path: Path, environ: dict[str, str], loaded: list[str], said: str
) -> None:
    path = site(tmp_path, "cuda", "rocm")
    with pytest.warns(tcfg.PluginWarning) as caught:
        assert found(environ, path)[0] == loaded
    (warning,) = caught
    assert said in str(warning.message)


def test_nope_lists_the_installed_plugins(tmp_path: Path) -> None:
    with pytest.warns(tcfg.PluginWarning, match=r"valid choices: 'cuda', 'rocm'"):
        found({"TCFG_LOAD_PLUGINS": "nope"}, site(tmp_path, "cuda", "rocm"))


@pytest.mark.parametrize(
    ("flag", "value", "hint"),
    [
        ("TCFG_STRICT_PLUGINS", "2", ""),
        ("TCFG_DISABLE_PLUGIN_AUTOLOAD", "maybe", ""),
        ("TCFG_STRICT_PLUGINS", "ture", "did you mean 'true'? "),
    ],
)
def test_a_flag_that_is_no_boolean_warns_with_the_valid_spellings(
    tmp_path: Path, flag: str, value: str, hint: str
) -> None:
    with pytest.warns(tcfg.PluginWarning) as caught:
        assert found({flag: value}, site(tmp_path, "alpha")) == (["alpha"], [])  # it counts as off
    (warning,) = caught
    assert str(warning.message) == (
        f"{flag}={value!r} is not a boolean, so it counts as off; {hint}"
        "the valid spellings are 1, true, yes, on (on) and 0, false, no, off or empty (off)"
    )


def test_a_strict_flag_that_is_no_boolean_warns_through_the_registry(tmp_path: Path) -> None:
    with pytest.warns(tcfg.PluginWarning, match=r"TCFG_STRICT_PLUGINS='2' is not a boolean"):
        tcfg.Registry(environ={"TCFG_STRICT_PLUGINS": "2", "TCFG_LOAD_PLUGINS": ""}).list_kinds()


@pytest.mark.parametrize(
    "environ",
    [
        {"TCFG_LOAD_PLUGINS": "alpha", "TCFG_DISABLED_PLUGINS": "alpha"},
        {"TCFG_LOAD_PLUGINS": ""},
        {"TCFG_STRICT_PLUGINS": "TRUE", "TCFG_DISABLE_PLUGIN_AUTOLOAD": " off "},
        {"TCFG_STRICT_PLUGINS": "", "TCFG_DISABLE_PLUGIN_AUTOLOAD": "0"},
        {"TCFG_DISABLE_PLUGIN_AUTOLOAD": "yes", "TCFG_LOAD_PLUGINS": "nope"},  # nothing scanned, nothing to check
    ],
)
def test_valid_values_do_not_warn(tmp_path: Path, environ: dict[str, str]) -> None:
    path = site(tmp_path, "alpha")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found(environ, path)


def test_discovery_imports_no_plugin_module(tmp_path: Path) -> None:
    discover({}, path=[str(site(tmp_path, "unimported"))])
    assert "tcfg_fake_unimported" not in sys.modules
