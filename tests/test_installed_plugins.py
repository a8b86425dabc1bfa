"""Real installed plugins: the example plugin of docs/plugins.md and throwaway faulty ones,
written as dist-info installs into a scratch directory by :func:`tcfg.testing.fake_distribution`
(no pip) and loaded through the ``tcfg`` entry points by fresh processes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tcfg.testing import fake_distribution

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = {
    "loongarch": ROOT / "docs" / "example_plugin",
    **{name: ROOT / "tests" / "plugins" / name for name in ("broken", "shadow", "slow", "raising", "invalid", "liar")},
}

REPORT = """
import json, warnings, tcfg
warnings.simplefilter("ignore")
out = {"plugins": {r.name: r.to_dict() for r in tcfg.plugins()}, "kinds": tcfg.list_kinds(), "tags": tcfg.list_tags()}
try:
    t = tcfg.Target("llvm -mtriple=loongarch64-linux-gnu -mcpu=la664 -mattr=-lasx")
    out["target"] = {"str": str(t), "keys": list(t.keys), "features": dict(t.features)}
except tcfg.TargetError as exc:
    out["target"] = {"error": type(exc).__name__ + ": " + str(exc)}
print(json.dumps(out))
"""


def project(pyproject: Path) -> tuple[str, str, dict[str, dict[str, str]]]:
    """The name, version and entry points of a plugin's ``pyproject.toml`` (the few TOML forms these use)."""
    fields: dict[str, str] = {}
    groups: dict[str, dict[str, str]] = {}
    section = ""
    for line in pyproject.read_text(encoding="utf-8").splitlines():
        header = re.fullmatch(r"\[(.+)\]", line.strip())
        if header:
            section = header.group(1)
            continue
        entry = re.fullmatch(r'"?([^"=]+?)"?\s*=\s*"([^"]*)"', line.strip())
        if entry is None:
            continue
        key, value = entry.groups()
        if section == "project":
            fields[key] = value
        elif section.startswith("project.entry-points."):
            groups.setdefault(section.removeprefix("project.entry-points.").strip('"'), {})[key] = value
    return fields["name"], fields["version"], groups


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test plugins, each a dist-info install (metadata, entry points, package) in one directory."""
    target = tmp_path_factory.mktemp("site")
    for source in PLUGINS.values():
        name, version, groups = project(source / "pyproject.toml")
        packages = {p.name: p for p in source.glob("tcfg_*") if p.is_dir()}
        fake_distribution(target, name, groups, version=version, modules=packages)
    return target


def run(site: Path, code: str = REPORT, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TCFG_")}
    environ["PYTHONPATH"] = os.pathsep.join([str(site), environ.get("PYTHONPATH", "")])
    environ.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=120)


def report(site: Path, **env: str) -> dict[str, Any]:
    result = run(site, **env)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_example_plugin_loads_through_its_entry_point(site: Path) -> None:
    data = report(site, TCFG_LOAD_PLUGINS="loongarch")
    record = data["plugins"]["loongarch"]
    assert (record["status"], record["distribution"], record["version"]) == (
        "loaded",
        "tcfg-example-loongarch",
        "0.1.0",
    )
    assert record["registered"]["cpu_parsers"] == ["loongarch"]
    assert "loongson/3a6000" in data["tags"]
    target = data["target"]
    assert target["keys"] == ["loongarch_cpu", "cpu"]
    assert target["features"] == {"is_loongarch": True, "simd_bits": 128, "lsx": True, "frecipe": True}


def test_env_controls_select_plugins(site: Path) -> None:
    assert set(report(site, TCFG_DISABLE_PLUGIN_AUTOLOAD="1")["plugins"]) == {"core"}
    none = report(site, TCFG_LOAD_PLUGINS="")
    assert set(none["plugins"]) >= {"core", "loongarch"}
    assert none["plugins"]["loongarch"]["status"] == "disabled"
    assert "TCFG_LOAD_PLUGINS" in none["plugins"]["loongarch"]["error"]
    blocked = report(site, TCFG_LOAD_PLUGINS="loongarch,slow", TCFG_DISABLED_PLUGINS="slow")
    assert blocked["plugins"]["slow"]["status"] == "disabled"
    assert blocked["plugins"]["loongarch"]["status"] == "loaded"


def test_plugin_that_fails_to_import_leaves_the_others_working(site: Path) -> None:
    data = report(site, TCFG_LOAD_PLUGINS="loongarch,broken")
    assert data["plugins"]["broken"]["status"] == "failed"
    assert "tcfg_missing_dependency" in data["plugins"]["broken"]["error"]
    assert data["plugins"]["loongarch"]["status"] == "loaded"
    assert data["target"]["keys"] == ["loongarch_cpu", "cpu"]
    warned = run(site, "import tcfg; tcfg.list_kinds()", TCFG_LOAD_PLUGINS="broken")
    assert "PluginWarning" in warned.stderr and "'broken'" in warned.stderr


def test_two_plugins_claiming_one_architecture(site: Path) -> None:
    data = report(site, TCFG_LOAD_PLUGINS="loongarch,shadow")
    error = data["plugins"]["shadow"]["error"]
    assert data["plugins"]["shadow"]["status"] == "failed"
    assert "'shadow'" in error and "'loongarch'" in error and "'loongarch64'" in error
    assert data["target"]["keys"] == ["loongarch_cpu", "cpu"]


def test_a_raising_plugin_leaves_nothing_behind(site: Path) -> None:
    data = report(site, TCFG_LOAD_PLUGINS="raising,invalid")
    assert data["plugins"]["raising"]["status"] == "failed"
    assert "the tag table is corrupt" in data["plugins"]["raising"]["error"]
    assert "raising-kind" not in data["kinds"]


def test_a_plugin_tag_that_does_not_build_is_that_plugins_error_when_looked_up(site: Path) -> None:
    """Tags are built on first lookup: the bad one is the plugin's error there; its good tag works."""
    code = (
        "import tcfg\n"
        "print(tcfg.Target('invalid/good').tag)\n"
        "try:\n    tcfg.Target('invalid/bad')\n"
        "except tcfg.PluginError as exc:\n    print(exc)\n"
        "print([r.status for r in tcfg.plugins() if r.name == 'invalid'])\n"
    )
    result = run(site, code, TCFG_LOAD_PLUGINS="invalid")
    assert result.returncode == 0, result.stderr
    good, error, status = result.stdout.strip().splitlines()
    assert good == "invalid/good"
    assert "tag 'invalid/bad' of plugin 'invalid' does not build" in error and "num-cores" in error
    assert "tcfg plugins --check invalid" in error
    assert status == "['loaded']"


def test_strict_mode_turns_failures_into_errors(site: Path) -> None:
    result = run(site, "import tcfg; tcfg.list_kinds()", TCFG_LOAD_PLUGINS="broken", TCFG_STRICT_PLUGINS="1")
    assert result.returncode != 0
    assert "tcfg.PluginError" in result.stderr and "'broken'" in result.stderr


def test_slow_plugin_delays_loading_but_not_import(site: Path) -> None:
    start = time.perf_counter()
    assert run(site, "import tcfg", TCFG_LOAD_PLUGINS="slow").returncode == 0
    import_only = time.perf_counter() - start
    data = report(site, TCFG_LOAD_PLUGINS="slow,loongarch")
    assert import_only < 2.0
    assert data["plugins"]["slow"]["status"] == "loaded" and "slow/box" in data["tags"]


@pytest.mark.parametrize(
    ("fault", "cause"),
    [
        ("broken", "tcfg_missing_dependency"),
        ("shadow", "already owns"),
        ("raising", "the tag table is corrupt"),
    ],
)
def test_each_fault_is_reported_by_the_cli_and_strict_mode(site: Path, fault: str, cause: str) -> None:
    listed = run(
        site,
        "from tcfg.cli import main; raise SystemExit(main(['plugins', '--json']))",
        TCFG_LOAD_PLUGINS=f"loongarch,{fault}",
    )
    records = {r["name"]: r for r in json.loads(listed.stdout)}
    assert records[fault]["status"] == "failed" and cause in records[fault]["error"]
    assert records["loongarch"]["status"] == "loaded"
    shown = run(
        site,
        "from tcfg.cli import main; raise SystemExit(main(['show', 'loongson/3a6000']))",
        TCFG_LOAD_PLUGINS=f"loongarch,{fault}",
    )
    assert shown.returncode == 0 and "loongarch_cpu" in shown.stdout
    strict = run(
        site, "import tcfg; tcfg.list_kinds()", TCFG_LOAD_PLUGINS=f"loongarch,{fault}", TCFG_STRICT_PLUGINS="1"
    )
    assert strict.returncode != 0 and "PluginError" in strict.stderr and cause in strict.stderr


def test_a_plugin_with_a_manifest_is_imported_only_when_a_target_needs_it(site: Path) -> None:
    code = (
        "import sys, json, warnings, tcfg\n"
        "warnings.simplefilter('ignore')\n"
        "tcfg.Target('llvm -mtriple=loongarch64-linux-gnu -mcpu=la664')\n"
        "before = sorted(m for m in sys.modules if m.startswith('tcfg_test_liar'))\n"
        "try:\n"
        "    tcfg.Target('liar')\n"
        "    built = 'built'\n"
        "except tcfg.TargetError as exc:\n"
        "    built = str(exc)\n"
        "records = {r.name: r.to_dict() for r in tcfg.plugins()}\n"
        "print(json.dumps([before, built, records['liar']]))\n"
    )
    result = run(site, code, TCFG_LOAD_PLUGINS="loongarch,liar")
    assert result.returncode == 0, result.stderr
    before, built, record = json.loads(result.stdout)
    assert before == []  # loading loongarch's target did not import it
    assert record["status"] == "failed"
    assert "registers the kind 'undeclared', which its tcfg.provides entry points do not declare" in record["error"]
    assert "unknown kind 'liar'" in built or "neither a kind nor a tag" in built
