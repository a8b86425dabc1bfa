"""What the ``tcfg`` command shows people and programs: complete JSON, carets, tables that fit, counted devices."""

from __future__ import annotations

import json
from typing import Any

import pytest

import tcfg
import tcfg.plugin
from tcfg._services import textout
from tcfg._services.describe import describe
from tcfg.cli import main

Capture = pytest.CaptureFixture[str]

NESTED = "composite -devices=c,c,'llvm -mtriple=aarch64-linux-gnu' -host='llvm -mtriple=aarch64-linux-gnu'"
DESCRIPTION_KEYS = {"target", "kind", "device_type", "keys", "tag", "config", "attrs", "features", "host", "codegen"}


def run(capsys: Capture, registry: tcfg.Registry, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv), registry=registry)
    out, err = capsys.readouterr()
    return status, out, err


def test_show_json_is_the_complete_description(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, err = run(capsys, core, "show", NESTED, "--json")
    data = json.loads(out)
    target = tcfg.Target(NESTED, registry=core)
    assert (status, err) == (0, "") and set(data) == DESCRIPTION_KEYS | {"devices"}
    assert data["config"] == target.export() and tcfg.Target(data["config"], registry=core) == target
    assert data["host"]["kind"] == "llvm" and data["host"]["codegen"]["triple"] == "aarch64-linux-gnu"
    assert [d["kind"] for d in data["devices"]] == ["c", "c", "llvm"]
    assert data["codegen"] is None  # no plugin generates code for a composite
    leaf = describe(tcfg.Target("llvm -mtriple=aarch64-linux-gnu -mattr=+neon", registry=core))
    assert leaf["attrs"]["mattr"] == ["+neon"] and leaf["attrs"]["fast-math"] is False
    assert leaf["device_type"] == "cpu" and leaf["keys"] == ["cpu"] and leaf["host"] is None


@pytest.mark.parametrize("command", ["show", "explain", "codegen"])
def test_every_target_command_gives_the_description(capsys: Capture, core: tcfg.Registry, command: str) -> None:
    _, out, _ = run(capsys, core, command, "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72", "--json")
    data = json.loads(out)
    assert set(data) >= DESCRIPTION_KEYS and data["codegen"]["cpu"] == "cortex-a72"


def test_json_is_compact_when_piped_and_indented_on_a_terminal(
    capsys: Capture, core: tcfg.Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, piped, _ = run(capsys, core, "show", "c", "--json")
    assert piped.count("\n") == 1 and ", " not in piped
    monkeypatch.setattr(textout, "is_terminal", lambda stream=None: True)
    _, shown, _ = run(capsys, core, "show", "c", "--json")
    assert shown.count("\n") > 10 and json.loads(shown) == json.loads(piped)
    _, compact, _ = run(capsys, core, "show", "c", "--json", "--compact")
    assert compact == piped


def test_an_error_prints_the_caret_line(capsys: Capture, core: tcfg.Registry) -> None:
    status, out, err = run(capsys, core, "show", "llvm -mcpux=cortex-a72")
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        "tcfg: error: target 'llvm -mcpux=cortex-a72': kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?",
        "  llvm -mcpux=cortex-a72",
        "       ^^^^^^^^^^^^^^^^^",
    ]


def test_identical_devices_print_once_with_their_number(capsys: Capture, core: tcfg.Registry) -> None:
    _, out, _ = run(capsys, core, "show", NESTED)
    lines = out.splitlines()
    assert "      c  (x2)" in lines
    assert sum(line.split() == ["kind", "c"] for line in lines) == 1


def test_tables_fit_the_width_and_wrap_long_cells() -> None:
    long_type = "one of " + ", ".join(f"'value{i}'" for i in range(60))
    rows = [
        ("ATTRIBUTE", "TYPE", "DEFAULT", "DESCRIPTION"),
        ("a", long_type, "-", "words " * 40),
        ("b", "int", "1", "x"),
    ]
    lines = textout.table_lines(rows, 80, "  ")
    assert lines and max(map(len, lines)) <= 80
    assert lines[0].split() == ["ATTRIBUTE", "TYPE", "DEFAULT", "DESCRIPTION"]
    assert any(line.startswith("  b ") for line in lines)
    joined = " ".join(lines)
    assert "'value59'" in joined and joined.count("words") == 40  # wrapped, nothing lost
    piped = textout.table_lines(rows, 80, "  ", wrap=False)
    assert len(piped) == 3  # one line per row for programs
    assert piped[2].index("int") == piped[1].index("one of")  # the type column is not padded to 500 characters
    assert len(piped[2]) < 80


def test_counted_keeps_first_order() -> None:
    assert textout.counted(["a", "b", "a", "c", "a"]) == [("a", 3), ("b", 1), ("c", 1)]


def test_cli_tools_are_the_forms() -> None:
    from tcfg import cli
    from tcfg._services.forms import COMPILERS, FORMS

    assert tuple(FORMS) == cli._TOOLS and cli._COMPILERS == COMPILERS


def test_dir_shows_the_public_api_only() -> None:
    names = dir(tcfg)
    assert {"Target", "CompilationConfig", "from_tvm", "TargetError", "__version__", "plugin"} <= set(names)
    assert not {"sys", "Mapping", "Sequence", "TYPE_CHECKING", "annotations", "view"} & set(names)
    assert [n for n in names if n.startswith("_") and n != "__version__"] == []
    assert all(hasattr(tcfg, name) for name in set(names) - {"cli", "hookspecs", "plugin", "testing"})


@pytest.mark.parametrize("command", ["kinds", "tags", "plugins"])
def test_listing_json_is_compact_when_piped_and_indented_on_a_terminal(
    capsys: Capture, core: tcfg.Registry, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    _, piped, _ = run(capsys, core, command, "--json")
    assert piped.count("\n") == 1 and piped == json.dumps(json.loads(piped), separators=(",", ":")) + "\n"
    monkeypatch.setattr(textout, "is_terminal", lambda stream=None: True)
    _, shown, _ = run(capsys, core, command, "--json")
    assert json.loads(shown) == json.loads(piped)
    assert shown.count("\n") > (1 if json.loads(piped) else 0)
    _, compact, _ = run(capsys, core, command, "--json", "--compact")
    assert compact == piped


def test_kinds_json_has_every_fact_of_the_table_and_the_schema(capsys: Capture, core: tcfg.Registry) -> None:
    _, text, _ = run(capsys, core, "kinds")
    data = json.loads(run(capsys, core, "kinds", "--json")[1])
    for row, kind in zip(text.splitlines()[1:], data, strict=True):
        assert row.split(maxsplit=3) == [kind["name"], kind["device_type"], kind["plugin"], kind["doc"]]
        schema = dict(core.get_kind(kind["name"]).json_schema()["properties"])
        assert schema.pop("kind") == {"const": kind["name"]}
        assert {a["name"]: a["schema"] for a in kind["attributes"]} == schema
    composite = next(k for k in data if k["name"] == "composite")
    assert composite["compilers"] == {} and "devices" in [a["name"] for a in composite["attributes"]]


class _TaggedPlugin:
    """Tags with an alias and a variant, for the listing's JSON."""

    tcfg_plugin_name = "tagged"

    @tcfg.plugin.hookimpl
    def tcfg_register_tags(self, register: Any) -> None:
        register(
            tcfg.plugin.TagSpec(
                "demo/one",
                "llvm -mtriple=aarch64-linux-gnu",
                description="one board",
                source="a test",
                aliases=("demo/uno",),
                variants={"fast": {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "opt-level": 3}},
            )
        )


def test_tags_json_lists_aliases_and_variants_as_the_text_does(capsys: Capture) -> None:
    registry = tcfg.Registry(plugins=[_TaggedPlugin()], autoload=False)
    names = registry.list_tags(aliases=True)
    assert names == ["demo/one", "demo/uno"]
    _, text, _ = run(capsys, registry, "tags", "--aliases")
    assert text.splitlines()[-1].split(maxsplit=1) == ["demo/uno", "alias of demo/one"]
    data = json.loads(run(capsys, registry, "tags", "--aliases", "--json")[1])
    assert [row["name"] for row in data] == names
    for row in data:
        entry = registry.tag_entry(row["name"])
        if "alias_of" in row:
            assert row == {"name": row["name"], "alias_of": entry.name} and entry.name != row["name"]
            continue
        assert row["target"] == str(entry.target) and row["keys"] == list(entry.target.keys)
        assert set(row["variants"]) == set(entry.variants)
        for variant, facts in row["variants"].items():
            assert facts["target"] == str(registry.tag_entry(f"{row['name']}:{variant}").target)
    one = data[0]
    facts = (one["description"], one["source"], one["plugin"], one["aliases"])
    assert facts == ("one board", "a test", "tagged", ["demo/uno"])
    assert one["variants"]["fast"]["config"]["opt-level"] == 3 and one["kind"] == "llvm"


def test_the_caret_stays_under_the_offending_part_when_characters_are_escaped_or_wide() -> None:
    from tcfg._base.cli_io import caret_under

    line, carets = "llvm -model=\u00e9 -mcpux=a", "              ^^^^^^^^^"
    assert caret_under(line, carets, "utf-8") == carets
    shown = line.encode("ascii", "backslashreplace").decode()
    assert caret_under(line, carets, "ascii") == " " * shown.index("-mcpux") + "^" * 9
    wide = "llvm -model=\u65e5\u672c -mcpux=a"
    assert caret_under(wide, " " * 15 + "^" * 9, "utf-8") == " " * 17 + "^" * 9
    assert caret_under("a\u0301 -x", "   ^^", "utf-8") == "  ^^"  # a combining accent takes no column


def test_an_escaped_error_keeps_its_caret_aligned(
    capsys: Capture, core: tcfg.Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="backslashreplace", write_through=True)
    monkeypatch.setattr(sys, "stderr", stream)
    assert main(["show", "llvm -model=\u00e9 -mcpux=cortex-a72"], registry=core) == 2
    stream.seek(0)
    _, shown, carets = stream.buffer.getvalue().decode("ascii").splitlines()  # type: ignore[attr-defined]
    assert shown.strip() == "llvm -model=\\xe9 -mcpux=cortex-a72"
    assert carets.index("^") == shown.index("-mcpux") and carets.strip() == "^" * len("-mcpux=cortex-a72")
