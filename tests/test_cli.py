"""The ``tcfg`` command: every subcommand, human and ``--json`` output, exit statuses.

Most tests run :func:`tcfg.cli.main` in-process against an isolated registry (the core
alone, or the core plus the in-process ``toy`` plugin below), so they pass whatever
plugins are installed; a few run ``python -m tcfg`` as a real subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import tcfg
from tcfg.cli import main
from tcfg.plugin import Attr, Derived, DeriveRequest, Feature, Integer, TargetKind, hookimpl
from tcfg.testing import fake_distribution, registry_with

Capture = pytest.CaptureFixture[str]


def _toy_parser(request: DeriveRequest) -> Derived:
    cores = request.attrs.get("cores", 1)
    if cores >= 4:
        return Derived(
            keys=("toy_wide",),
            features={"wide": True, "lanes": cores * 4},
            why={"wide": f"-cores={cores} implies it"},
        )
    return Derived(features={"lanes": cores * 4})


TOY = TargetKind(
    name="toy",
    device_type="toy",
    attrs=(Attr("cores", Integer(minimum=1), default=1, doc="Number of toy cores."),),
    default_keys=("toy",),
    parser=_toy_parser,
    features=(
        Feature("wide", "Has the wide unit.", aliases=("has_wide",)),
        Feature("lanes", "Vector lanes."),
    ),
    doc="A toy accelerator for tests.",
)


class ToyPlugin:
    """An in-process plugin: the ``toy`` kind (no codegen), two tags, and detection."""

    tcfg_plugin_name = "toy"

    @hookimpl
    def tcfg_register_kinds(self, register: Callable[[TargetKind], None]) -> None:
        register(TOY)

    @hookimpl
    def tcfg_register_tags(self, register: Callable[..., None]) -> None:
        register("toy/board-1.0", {"kind": "toy", "cores": 4}, description="A toy board with four cores")
        register(
            "toy/hosted",
            {"kind": "toy", "host": {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}},
            description="A toy card in an AArch64 host",
        )

    @hookimpl
    def tcfg_detect(self) -> Sequence[str]:
        return ["toy -cores=2"]


class BrokenPlugin:
    """An in-process plugin whose registration raises."""

    tcfg_plugin_name = "broken"

    @hookimpl
    def tcfg_register_kinds(self, register: Callable[[TargetKind], None]) -> None:
        raise RuntimeError("the vendor SDK is missing")


@pytest.fixture
def core() -> tcfg.Registry:
    return tcfg.Registry(autoload=False)


@pytest.fixture
def toy() -> tcfg.Registry:
    return tcfg.Registry(plugins=[ToyPlugin()], autoload=False)


def run(capsys: Capture, registry: tcfg.Registry, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv), registry=registry)
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: Capture, registry: tcfg.Registry, *argv: str) -> Any:
    status, out, err = run(capsys, registry, *argv, "--json")
    assert (status, err) == (0, ""), err
    return json.loads(out)


def assert_bad_input(result: tuple[int, str, str], *needles: str) -> None:
    status, out, err = result
    assert status == 2
    assert out == ""
    assert err.startswith("tcfg: error: ") and err.endswith("\n"), err
    # one line, or three: the message, then the input and the caret line under the offending part
    lines = err.splitlines()
    assert len(lines) == 1 or (len(lines) == 3 and set(lines[2].strip()) == {"^"}), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err


AARCH64 = "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon"

# -- show -------------------------------------------------------------------------------------


def test_show_prints_canonical_string_kind_keys_and_attrs(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, err = run(capsys, core, "show", "llvm  -mcpu=cortex-a72 --mtriple aarch64-linux-gnu -mattr=+neon")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == AARCH64
    assert lines[1].split() == ["kind", "llvm"]
    assert lines[2].split() == ["device", "type", "cpu"]
    assert lines[3].split() == ["keys", "cpu"]
    assert lines[4].split() == ["tag", "(none)"]
    assert lines[5].split() == ["host", "(none)"]
    attrs = {line.split()[0]: line.split()[1:] for line in lines[7:-1]}
    assert attrs == {
        "mtriple": ["aarch64-linux-gnu"],
        "mcpu": ["cortex-a72"],
        "mattr": ["+neon"],
        "fast-math": ["false", "(default)"],
    }
    assert lines[-1].split() == ["features", "(none)"]


def test_show_describes_tag_host_and_features(capsys: Capture, toy: tcfg.Registry) -> None:
    status, out, _ = run(capsys, toy, "show", "toy/hosted -cores=8")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "toy -cores=8 -tag=toy/hosted -host='llvm -mtriple=aarch64-linux-gnu'"
    assert "  keys         toy_wide, toy" in lines
    assert "  tag          toy/hosted" in lines
    host = lines.index("  host         llvm -mtriple=aarch64-linux-gnu")
    assert lines[host + 1] == "    kind         llvm"
    assert "      mtriple    aarch64-linux-gnu" in lines
    assert lines[-3:] == ["  features", "    lanes  32", "    wide   true"]


def test_show_describes_each_device_of_a_composite(capsys: Capture, core: tcfg.Registry) -> None:
    spec = {
        "kind": "composite",
        "host": "llvm -mtriple=aarch64-linux-gnu",
        "devices": ["c -mcpu=cortex-m4", "c -mcpu=cortex-m7"],
        "executor": {"name": "aot", "interface-api": "c"},
    }
    status, out, _ = run(capsys, core, "show", json.dumps(spec))
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == str(tcfg.Target(spec, registry=core))
    devices = lines.index("    devices")
    assert lines[devices + 1 : devices + 3] == ["      c -mcpu=cortex-m4", "        kind         c"]
    assert "      c -mcpu=cortex-m7" in lines
    assert "    executor  'aot -interface-api=c'" in lines


def test_show_marks_defaults(capsys: Capture, toy: tcfg.Registry) -> None:
    _, out, _ = run(capsys, toy, "show", "toy")
    assert "    cores  1  (default)" in out.splitlines()
    _, out, _ = run(capsys, toy, "show", "toy -cores=2")
    assert "    cores  2" in out.splitlines()


def test_show_json_holds_the_canonical_export(capsys: Capture, core: tcfg.Registry) -> None:
    nested = "c -mcpu=cortex-m4 -host='llvm -mtriple=aarch64-linux-gnu'"
    data = run_json(capsys, core, "show", nested)
    target = tcfg.Target(nested, registry=core)
    assert data["config"] == target.export()
    assert tcfg.Target(data["config"], registry=core) == target


def test_show_accepts_json_text_and_json_flag_before_command(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, _ = run(capsys, core, "--json", "show", '{"kind": "c", "mcpu": "cortex-m7"}')
    assert status == 0
    assert json.loads(out)["config"] == {"kind": "c", "mcpu": "cortex-m7"}


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["show", "lvm"], ["'lvm' is neither a kind nor a tag", "did you mean 'llvm'"]),
        (["show", "llvm -opt-level=9"], ["-opt-level expects an integer"]),
        (["show", "llvm -nope=1"], ["kind 'llvm' has no attribute 'nope'"]),
        (["show", ""], ["empty target string"]),
        (["show", '{"kind": "llvm", "num-cores": "4"}'], ["'num-cores' expects an integer"]),
        (["show", "llvm -mtriple='aarch64"], []),
        (
            ["explain", "llvm -mtriple=aarch64-linux-gnu", "dotprod"],
            ["no installed plugin declares the feature 'dotprod'"],
        ),
        (["codegen", "llvm -mfloat-abi=firm"], ["-mfloat-abi expects one of"]),
        (["schema", "llvmm"], ["unknown kind 'llvmm'", "did you mean 'llvm'"]),
        (["frobnicate"], ["invalid choice: 'frobnicate'"]),
        (["kinds", "--colour"], ["unrecognized arguments: --colour"]),
        (["show"], ["required: TARGET"]),
        (["--bogus"], ["--bogus"]),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(
    capsys: Capture, core: tcfg.Registry, argv: list[str], needles: list[str]
) -> None:
    assert_bad_input(run(capsys, core, *argv), *needles)


def test_bad_input_with_json_flag_is_still_one_error_line(capsys: Capture, core: tcfg.Registry) -> None:
    assert_bad_input(run(capsys, core, "show", "lvm", "--json"), "neither a kind nor a tag")


def test_unquoted_target_options_get_a_quoting_hint(capsys: Capture, core: tcfg.Registry) -> None:
    assert_bad_input(
        run(capsys, core, "show", "llvm", "-mcpu=cortex-a72"),
        "unrecognized arguments: -mcpu=cortex-a72",
        "tcfg show 'llvm -mcpu=cortex-a72'",
    )


def test_unknown_feature_of_a_plugin_kind_names_the_closest(capsys: Capture, toy: tcfg.Registry) -> None:
    assert_bad_input(run(capsys, toy, "explain", "toy", "wid"), "'wid'", "did you mean 'wide'")


def test_no_arguments_prints_help_and_exits_2(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, err = run(capsys, core)
    assert status == 2
    assert out == ""
    assert err.startswith("usage: tcfg")
    for command in ("show", "explain", "kinds", "tags", "plugins", "codegen", "schema", "detect"):
        assert f"    {command} " in err


def test_help_and_version_exit_0(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, _ = run(capsys, core, "--version")
    assert (status, out) == (0, f"tcfg-core {tcfg.__version__}\n")
    status, out, _ = run(capsys, core, "show", "--help")
    assert status == 0
    assert out.startswith("usage: tcfg show [-h] [--json] [--compact] TARGET")


# -- explain ------------------------------------------------------------------------------------


def test_explain_all_present_features(capsys: Capture, toy: tcfg.Registry) -> None:
    status, out, _ = run(capsys, toy, "explain", "toy -cores=4")
    assert status == 0
    assert out.splitlines() == ["toy -cores=4", "  lanes = 16", "  wide = True: -cores=4 implies it"]


def test_explain_named_features_and_aliases(capsys: Capture, toy: tcfg.Registry) -> None:
    status, out, _ = run(capsys, toy, "explain", "toy", "has_wide", "lanes")
    assert status == 0
    lines = out.splitlines()
    assert lines[1] == "  has_wide (alias of wide) = False: nothing in this target implies it (declared by toy)"
    assert lines[2] == "  lanes = 4"


def test_explain_says_when_there_are_no_features(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, _ = run(capsys, core, "explain", "llvm -mtriple=riscv64-linux-gnu")
    assert status == 0
    assert "no features: no installed plugin derives any" in out


def test_explain_json(capsys: Capture, toy: tcfg.Registry) -> None:
    data = run_json(capsys, toy, "explain", "toy/board-1.0", "wide")
    assert {key: data[key] for key in ("target", "keys", "features", "kind", "tag")} == {
        "target": "toy -cores=4 -tag=toy/board-1.0",
        "keys": ["toy_wide", "toy"],
        "features": {"wide": {"value": True, "explanation": "wide = True: -cores=4 implies it"}},
        "kind": "toy",
        "tag": "toy/board-1.0",
    }
    assert run_json(capsys, toy, "explain", "toy")["features"] == {"lanes": {"value": 4, "explanation": "lanes = 4"}}


# -- kinds, tags, plugins --------------------------------------------------------------------------


def test_kinds(capsys: Capture, toy: tcfg.Registry) -> None:
    status, out, _ = run(capsys, toy, "kinds")
    assert status == 0
    rows = [line.split(maxsplit=3) for line in out.splitlines()]
    assert rows[0] == ["KIND", "DEVICE", "PLUGIN", "DESCRIPTION"]
    assert [r[0] for r in rows[1:]] == toy.list_kinds()
    by_name = {r[0]: r for r in rows[1:]}
    assert by_name["llvm"] == ["llvm", "cpu", "core", "A CPU, compiled through LLVM."]
    assert by_name["toy"] == ["toy", "toy", "toy", "A toy accelerator for tests."]


def test_kinds_json(capsys: Capture, core: tcfg.Registry) -> None:
    data = run_json(capsys, core, "kinds")
    assert [k["name"] for k in data] == core.list_kinds()
    llvm = next(k for k in data if k["name"] == "llvm")
    assert (llvm["device_type"], llvm["plugin"], llvm["default_keys"]) == ("cpu", "core", ["cpu"])
    attributes = {a["name"]: a for a in llvm["attributes"]}
    assert {"mtriple", "mcpu", "mattr", "num-cores", "host", "compiler"} <= set(attributes)
    assert llvm["doc"] == "A CPU, compiled through LLVM."
    assert attributes["opt-level"]["schema"]["maximum"] == 3 and attributes["opt-level"]["aliases"] == []
    assert attributes["mattr"]["type"] == core.get_kind("llvm").table["mattr"].type.description


def test_tags_with_descriptions_and_prefix(capsys: Capture, toy: tcfg.Registry) -> None:
    status, out, _ = run(capsys, toy, "tags")
    assert status == 0
    assert out.splitlines() == [
        "toy/board-1.0  A toy board with four cores",
        "toy/hosted     A toy card in an AArch64 host",
    ]
    _, out, _ = run(capsys, toy, "tags", "toy/h")
    assert out.splitlines() == ["toy/hosted  A toy card in an AArch64 host"]


def test_tags_says_when_none_match(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, _ = run(capsys, core, "tags", "nvidia/")
    assert status == 0
    assert out == "no tags starting with 'nvidia/'; plugins register tags (see 'tcfg plugins')\n"


def test_tags_json(capsys: Capture, toy: tcfg.Registry) -> None:
    data = run_json(capsys, toy, "tags", "toy/b")
    assert data == [
        {
            "name": "toy/board-1.0",
            "description": "A toy board with four cores",
            "target": "toy -cores=4 -tag=toy/board-1.0",
            "kind": "toy",
            "device_type": "toy",
            "keys": ["toy_wide", "toy"],
            "config": {"kind": "toy", "cores": 4, "tag": "toy/board-1.0"},
            "plugin": "toy",
            "source": "",
            "aliases": [],
            "variants": {},
        }
    ]
    assert run_json(capsys, toy, "tags", "none/") == []


def test_plugins_table_shows_status_and_errors(capsys: Capture) -> None:
    registry = tcfg.Registry(plugins=[ToyPlugin(), BrokenPlugin()], autoload=False)
    status, out, err = run(capsys, registry, "plugins")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["PLUGIN", "STATUS", "DISTRIBUTION", "VERSION", "REGISTERED"]
    core_kinds = len(registry.plugins()[0].registered["kinds"])
    assert lines[1].split()[:4] == ["core", "loaded", "tcfg-core", tcfg.__version__]
    assert f"{core_kinds} kinds" in lines[1]
    assert lines[2].split() == ["toy", "loaded", "-", "-", "1", "kind,", "2", "features,", "2", "tags"]
    assert lines[3].split() == ["broken", "failed", "-", "-"]
    assert lines[4] == "broken: tcfg_register_kinds raised RuntimeError: the vendor SDK is missing"
    assert err.startswith("tcfg: warning: tcfg plugin 'broken' (in-process) was not loaded")
    assert err.count("\n") == 1


def test_plugins_json(capsys: Capture) -> None:
    registry = tcfg.Registry(plugins=[BrokenPlugin()], autoload=False)
    status, out, _ = run(capsys, registry, "plugins", "--json")
    assert status == 0
    data = json.loads(out)
    counted = [{**r.to_dict(), "counts": {k: len(v) for k, v in r.registered.items() if v}} for r in registry.plugins()]
    assert data == counted
    assert data[1]["error"] == registry.plugins()[1].error and data[1]["counts"] == {}
    assert [(d["name"], d["status"]) for d in data] == [("core", "loaded"), ("broken", "failed")]


class DriftingPlugin:
    """An in-process plugin whose tag ``drift/b`` stops building once ``BROKEN`` is set (its facts changed)."""

    tcfg_plugin_name = "drift"
    BROKEN = False

    @staticmethod
    def _parse(request: DeriveRequest) -> Derived:
        if DriftingPlugin.BROKEN and request.attrs.get("tag") == "drift/b":
            raise tcfg.AttributeValueError("the vendor withdrew this board")
        return Derived()

    @hookimpl
    def tcfg_register_kinds(self, register: Callable[[TargetKind], None]) -> None:
        register(TargetKind(name="drift", device_type="drift", parser=self._parse))

    @hookimpl
    def tcfg_register_tags(self, register: Callable[..., None]) -> None:
        register("drift/a", {"kind": "drift"}, variants={"v2": {"tag": "drift/a", "keys": ["drift", "v2"]}})
        register("drift/b", {"kind": "drift"})


@pytest.fixture
def drifting() -> Iterator[tcfg.Registry]:
    registry = registry_with(ToyPlugin(), DriftingPlugin())
    registry.list_tags()  # every tag registers (and builds) before the plugin breaks
    DriftingPlugin.BROKEN = True
    yield registry
    DriftingPlugin.BROKEN = False


def test_plugins_check_passes_good_plugins_with_a_summary(capsys: Capture) -> None:
    status, out, err = run(capsys, registry_with(ToyPlugin(), DriftingPlugin()), "plugins", "--check")
    assert (status, err) == (0, "")
    assert out == "ok: 2 plugins checked, 2 kinds, 4 tags, 1 variant built\n"


def test_plugins_check_names_the_tag_that_fails_and_exits_1(capsys: Capture, drifting: tcfg.Registry) -> None:
    status, out, err = run(capsys, drifting, "plugins", "--check")
    assert (status, err) == (1, "")
    assert out.splitlines() == [
        "drift: tag 'drift/b' does not build: AttributeValueError: target 'drift': the vendor withdrew this board",
        "1 failure in 1 plugin of 2 checked (2 kinds, 4 tags, 1 variant tried)",
    ]
    status, out, _ = run(capsys, drifting, "plugins", "--check", "toy")
    assert (status, out) == (0, "ok: 1 plugin checked, 1 kind, 2 tags, 0 variants built\n")


def test_plugins_check_json(capsys: Capture, drifting: tcfg.Registry) -> None:
    status, out, err = run(capsys, drifting, "plugins", "--check", "drift", "--json")
    assert (status, err) == (1, "")
    assert json.loads(out) == {
        "ok": False,
        "plugins": [
            {
                "name": "drift",
                "status": "loaded",
                "ok": False,
                "problem": None,
                "built": {"kinds": 1, "tags": 2, "variants": 1},
                "failures": [
                    {
                        "what": "tag",
                        "name": "drift/b",
                        "error": "AttributeValueError: target 'drift': the vendor withdrew this board",
                    }
                ],
                "laws": [],
            }
        ],
    }
    assert json.loads(run(capsys, drifting, "plugins", "--check", "toy", "--json")[1])["ok"] is True


def test_plugins_check_reports_a_plugin_that_did_not_load(capsys: Capture) -> None:
    status, out, err = run(capsys, registry_with(ToyPlugin(), BrokenPlugin()), "plugins", "--check")
    assert status == 1
    assert out.splitlines() == [
        "broken: the plugin did not load (failed: tcfg_register_kinds raised RuntimeError: the vendor SDK is missing)",
        "1 failure in 1 plugin of 2 checked (1 kind, 2 tags, 0 variants tried)",
    ]
    assert err.startswith("tcfg: warning: tcfg plugin 'broken' (in-process) was not loaded")


def test_plugins_check_refuses_unknown_names(capsys: Capture, toy: tcfg.Registry) -> None:
    assert_bad_input(run(capsys, toy, "plugins", "--check", "tyo"), "no plugin 'tyo' to check", "'toy'")
    assert_bad_input(run(capsys, toy, "plugins", "toy"), "plugin names are for --check")


def test_strict_plugin_failure_is_bad_input(capsys: Capture) -> None:
    registry = tcfg.Registry(plugins=[BrokenPlugin()], autoload=False, strict=True)
    assert_bad_input(run(capsys, registry, "kinds"), "tcfg plugin 'broken' (in-process) was not loaded")


# -- codegen, schema, detect --------------------------------------------------------------------------


def test_codegen(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, _ = run(capsys, core, "codegen", AARCH64 + " -opt-level=3")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == AARCH64 + " -opt-level=3"
    assert "  triple     aarch64-linux-gnu" in lines
    assert "  features   +neon" in lines
    assert "  float_abi  -" in lines
    assert "  llc        -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon -O=3" in lines
    assert "  clang      --target=aarch64-linux-gnu -mcpu=cortex-a72 -Xclang -target-feature -Xclang +neon -O3" in lines


def test_codegen_json(capsys: Capture, core: tcfg.Registry) -> None:
    data = run_json(capsys, core, "codegen", AARCH64)["codegen"]
    assert data == tcfg.Target(AARCH64, registry=core).codegen().to_dict()
    assert (data["triple"], data["cpu"], data["features"]) == ("aarch64-linux-gnu", "cortex-a72", "+neon")


def test_codegen_without_a_plugin_for_the_kind(capsys: Capture, toy: tcfg.Registry) -> None:
    assert_bad_input(run(capsys, toy, "codegen", "toy"), "no installed plugin generates code for kind 'toy'")


def test_schema(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, _ = run(capsys, core, "schema", "llvm")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "kind llvm (device type cpu, plugin core)"
    rows = {line.split()[0]: line for line in lines[3:]}
    assert set(rows) == set(core.get_kind("llvm").table)
    assert "an integer >= 0 and <= 3" in rows["opt-level"]
    assert rows["fast-math"].split()[6] == "false"


def test_schema_json_is_the_kinds_json_schema(capsys: Capture, core: tcfg.Registry) -> None:
    data = run_json(capsys, core, "schema", "c")
    assert data == core.get_kind("c").json_schema()
    assert data["properties"]["kind"] == {"const": "c"}


def test_detect(capsys: Capture, toy: tcfg.Registry) -> None:
    status, out, err = run(capsys, toy, "detect")
    assert (status, out, err) == (0, "toy -cores=2\n", "")
    assert run_json(capsys, toy, "detect") == [{"kind": "toy", "cores": 2}]


def test_detect_says_when_nothing_is_found(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, err = run(capsys, core, "detect")
    assert (status, out) == (1, "")
    assert err == (
        "tcfg: no installed plugin detected a device on this machine (plugins loaded: core); "
        "install the plugin for this machine's CPU or accelerator\n"
    )
    status, out, _ = run(capsys, core, "detect", "--json")
    assert (status, json.loads(out)) == (1, [])


# -- a real process ------------------------------------------------------------------------------


def tcfg_process(*argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m tcfg ARGV`` with only the core's plugin loaded."""
    env = {**os.environ, "TCFG_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run(
        [sys.executable, "-m", "tcfg", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_process_show_json_round_trips() -> None:
    done = tcfg_process("show", "--json", AARCH64)
    assert (done.returncode, done.stderr) == (0, "")
    assert tcfg.Target(json.loads(done.stdout)["config"], registry=tcfg.Registry(autoload=False)) == tcfg.Target(
        AARCH64, registry=tcfg.Registry(autoload=False)
    )


def test_process_bad_target_is_one_line_and_status_2() -> None:
    done = tcfg_process("show", "llvm -mcpu=cortex-a72 -bogus=1")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(
        "tcfg: error: target 'llvm -mcpu=cortex-a72 -bogus=1': kind 'llvm' has no attribute 'bogus'; "
    )
    _, quoted, caret = done.stderr.splitlines()  # the message, then the input and a caret line under -bogus=1
    assert quoted.strip() == "llvm -mcpu=cortex-a72 -bogus=1" and caret.strip() == "^" * len("-bogus=1")


def test_process_no_arguments_and_version() -> None:
    done = tcfg_process()
    assert done.returncode == 2
    assert done.stderr.startswith("usage: tcfg")
    done = tcfg_process("--version")
    assert (done.returncode, done.stdout) == (0, f"tcfg-core {tcfg.__version__}\n")
    assert tcfg_process("-V").stdout == done.stdout


def test_process_output_that_cannot_be_written() -> None:
    """Closed stdout and a full disk: one line on stderr, status 1; a reader that left early: quiet, status 0."""
    command = [sys.executable, "-m", "tcfg", "kinds"]
    env = {**os.environ, "TCFG_DISABLE_PLUGIN_AUTOLOAD": "1"}
    closed = subprocess.run(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
        preexec_fn=lambda: os.close(1),
        text=True,
        timeout=60,
    )
    assert (closed.returncode, closed.stderr) == (1, "tcfg: error: standard output is closed\n")
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                command, stdout=full, stderr=subprocess.PIPE, env=env, check=False, text=True, timeout=60
            )
        assert (done.returncode, done.stderr) == (1, "tcfg: error: cannot write the output: No space left on device\n")
    reader = subprocess.Popen([*command, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # the reader leaves before the first byte, as `| head -c0` would
    assert reader.wait(timeout=60) == 0
    assert reader.stderr.read() == b""


_DEMO_PLUGIN = """
from tcfg.plugin import TagSpec, TargetKind, hookimpl


@hookimpl
def tcfg_register_kinds(register):
    register(TargetKind(name="demo", device_type="demo"))


@hookimpl
def tcfg_register_tags(register):
    register(TagSpec("demo/one", {"kind": "demo"}, variants={"wide": {"tag": "demo/one", "keys": ["demo", "wide"]}}))
"""


def test_process_plugins_check_builds_an_installed_plugin(tmp_path: Path) -> None:
    """``tcfg plugins --check`` through the process-wide registry: the plugin is found by its entry point."""
    files = {"tcfg_demo/__init__.py": "", "tcfg_demo/plugin.py": _DEMO_PLUGIN}
    fake_distribution(tmp_path, "tcfg-plugin-demo", {"demo": "tcfg_demo.plugin"}, modules=files)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TCFG_")}
    env.update(PYTHONPATH=os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")]), TCFG_LOAD_PLUGINS="demo")
    argv = [sys.executable, "-m", "tcfg", "plugins", "--check"]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "ok: 1 plugin checked, 1 kind, 1 tag, 1 variant built\n",
        "",
    )


def test_process_help_does_not_load_the_registry() -> None:
    code = (
        "import sys; from tcfg.cli import main\n"
        "try: main(['--help'])\n"
        "finally:\n"
        "    names = [m for m in sys.modules if m.startswith(('tcfg', 'pluggy', 'marshmallow'))]\n"
        "    print(sorted(names), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    # The package, the CLI and four foundation modules (errors, version, the CLI's streams, the registry slot):
    # no model or engine.
    assert done.stderr.strip() == str(
        sorted(
            [
                "tcfg",
                "tcfg.cli",
                "tcfg._base",
                "tcfg._base.cli_io",
                "tcfg._base.errors",
                "tcfg._base.version",
                "tcfg._model",
                "tcfg._model.view",
            ]
        )
    )


def test_plugins_check_reports_a_kind_parser_that_breaks_its_laws(capsys: Capture) -> None:
    """A parser that flips a value on every build is not idempotent: ``--check`` says so and exits 1."""
    from tcfg.plugin import Choice

    def flip(request: DeriveRequest) -> Derived:
        return Derived(attrs={**request.attrs, "mode": "b" if request.attrs["mode"] == "a" else "a"})

    kind = TargetKind(
        name="flip", device_type="cpu", attrs=(Attr("mode", Choice(("a", "b")), default="a"),), parser=flip
    )
    flipper = types.SimpleNamespace(
        tcfg_plugin_name="flipper", tcfg_register_kinds=hookimpl(lambda register: register(kind))
    )
    status, out, err = run(capsys, registry_with(flipper), "plugins", "--check")
    assert (status, err) == (1, "")
    assert out.startswith("flipper: target ") and "is not idempotent" in out
    status, out, _ = run(capsys, registry_with(flipper), "plugins", "--check", "--json")
    assert status == 1 and "is not idempotent" in json.loads(out)["plugins"][0]["laws"][0]
