"""The ``tcfg`` command: look at targets, kinds, tags and plugins from a terminal.

``main(argv, registry=None)`` runs one command and returns the exit status: 0 on
success, 2 for bad input (an unknown command or option, or any
:class:`tcfg.TargetError`; one line ``tcfg: error: ...`` on stderr, no traceback,
followed by the input and a caret line under the offending part when the error has
them), 1 when ``tcfg detect`` finds no device. ``--json`` makes every command print
JSON on stdout instead of text (a target's complete description for ``show``,
``explain`` and ``codegen``; every fact of the listing and more for ``kinds``, ``tags``
and ``plugins``), indented on a terminal and compact when piped or with
``--compact``. ``registry`` replaces the process-wide
:func:`tcfg._registry.registry.default_registry` (for embedding and tests).

Only :mod:`argparse` and the cheap ``tcfg`` package are imported at module level,
so ``tcfg --help`` starts fast; the registry loads on the first command that needs it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

import tcfg
from tcfg._base.cli_io import error_line, escape_unencodable, refuse_arguments, silence_stdout
from tcfg._base.errors import TargetError

if TYPE_CHECKING:
    from tcfg._model.target import Target
    from tcfg._registry.registry import Registry

__all__ = ["main"]

_EPILOG = """\
examples:
  tcfg show 'llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72'
  tcfg explain raspberry-pi/4b dotprod
  tcfg tags nvidia/
  tcfg schema llvm --json

A target is one argument: quote it when it has options. The TCFG_LOAD_PLUGINS,
TCFG_DISABLED_PLUGINS, TCFG_DISABLE_PLUGIN_AUTOLOAD and TCFG_STRICT_PLUGINS
environment variables choose the plugins, as for the Python API.
"""

#: ``codegen --for TOOL``: the tools (``tcfg._services.forms.FORMS``, named here so that ``--help`` imports nothing).
_TOOLS = ("tvm", "mlir", "iree", "triton", "clang", "gcc", "llc", "nvcc")
#: The tools that take ``--version`` and ``--opt-level``.
_COMPILERS = ("clang", "gcc", "llc")

#: Commands whose first positional argument is a target (for the quoting hint).
_TARGET_COMMANDS = frozenset({"show", "explain", "codegen"})


class _UsageError(Exception):
    """Bad command-line input; the message is one line."""


class _Exit(Exception):
    """argparse finished early (``--help``, ``--version``) with this status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of printing usage and calling ``sys.exit``."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)

    def _print_message(self, message: str, file: Any = None) -> None:  # (argparse's ignores write errors)
        (file or sys.stderr).write(message)  # --help, --version: main reports a failure

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _Exit(status)


def _build_parser() -> _Parser:
    parser = _Parser(
        prog="tcfg",
        description="What exactly am I compiling for? Inspect compilation targets, kinds, tags and plugins.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-V", "--version", action="version", version=f"tcfg-core {tcfg.__version__}")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    # Each subcommand also takes --json; SUPPRESS keeps a top-level --json from being reset.
    common = _Parser(add_help=False)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON instead of text")
    common.add_argument(
        "--compact",
        action="store_true",
        help="with --json: one line even on a terminal (piped output is compact anyway)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(name: str, summary: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=summary, description=summary, parents=[common])

    show = command("show", "print a target: canonical string, kind, keys, host, tag, attributes, features")
    show.add_argument("target", metavar="TARGET", help="a target string, tag or JSON text")
    explain = command("explain", "say where each feature of a target comes from")
    explain.add_argument("target", metavar="TARGET", help="a target string, tag or JSON text")
    explain.add_argument("features", metavar="FEATURE", nargs="*", help="feature names (default: all present)")
    command("kinds", "list the registered target kinds")
    tags = command("tags", "list the registered tags with their descriptions and variants (NAME:VARIANT)")
    tags.add_argument("prefix", metavar="PREFIX", nargs="?", help="only tags whose name starts with this")
    tags.add_argument("--aliases", action="store_true", help="list the tags' aliases too (other projects' names)")
    plugins = command("plugins", "list the discovered plugins, their status and errors (--check: build their targets)")
    plugins.add_argument(
        "names", metavar="NAME", nargs="*", help="with --check: the plugins to check (default: every enabled plugin)"
    )
    plugins.add_argument(
        "--check",
        action="store_true",
        help="build each kind's default target, every tag and every variant of the plugins; exit 1 if any fails",
    )
    codegen = command("codegen", "print the code generator's configuration for a target, or one tool's form of it")
    codegen.add_argument("target", metavar="TARGET", help="a target string, tag or JSON text")
    codegen.add_argument(
        "--for",
        dest="form",
        choices=_TOOLS,
        metavar="TOOL",
        help=f"only the form one tool reads: {', '.join(_TOOLS)}",
    )
    codegen.add_argument(
        "--version",
        dest="tool_version",
        type=int,
        metavar="N",
        help="with --for clang|gcc|llc: the compiler's major version (default: clang/llc 22, the newest gcc known)",
    )
    codegen.add_argument(
        "--opt-level", type=int, metavar="N", help="with --for clang|gcc|llc: add this optimisation level (-ON)"
    )
    schema = command("schema", "print a kind's attributes (--json: its JSON Schema)")
    schema.add_argument("kind", metavar="KIND", help="a kind name, e.g. llvm")
    detect = command("detect", "print targets for the devices of this machine, or of a recorded one (--from)")
    recorded = "read a recording, not this machine (NAME: cpuinfo, sysctl, nvidia-smi, rocminfo, vulkaninfo)"
    detect.add_argument("--from", dest="sources", action="append", metavar="NAME=FILE", help=recorded)
    detect.add_argument("--why-not", metavar="CPU", help="print the features the machine lacks for this -mcpu")
    return parser


def main(argv: Sequence[str] | None = None, *, registry: Registry | None = None) -> int:
    """Run the ``tcfg`` command line ``argv`` (default: ``sys.argv[1:]``) and return its exit status.

    ``registry`` is the registry to query (default: the process-wide one).
    """
    if sys.stdout is None:  # started with stdout closed (``tcfg tags >&-``)
        _error_line("error: standard output is closed")
        return 1
    args_list = list(sys.argv[1:] if argv is None else argv)
    refused = refuse_arguments(args_list)  # before argparse, whose cost grows with their number squared
    if refused is not None:
        _error_line(f"error: {refused}")
        return 2
    escape_unencodable()  # print what the streams' encoding cannot show as escapes, never fail on it
    parser = _build_parser()
    if not args_list:
        with contextlib.suppress(OSError):
            parser.print_help(sys.stderr)
        return 2
    try:
        try:
            args, extra = parser.parse_known_args(args_list)
        except _Exit as done:  # --help, --version: their output may fail too (``>/dev/full``)
            sys.stdout.flush()
            return done.status
        if extra:
            raise _UsageError(_unrecognized(args, extra))
        if args.command is None:  # options alone (``tcfg --json``)
            raise _UsageError(f"a command is needed: {', '.join(_COMMANDS)} (see tcfg --help)")
        if registry is None:
            from tcfg._registry.registry import default_registry

            registry = default_registry()
        _STYLE["compact"] = bool(getattr(args, "compact", False))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", tcfg.PluginWarning)
            try:
                status = _COMMANDS[args.command](registry, args)
            finally:
                for warning in caught:
                    label = "warning" if warning.category is tcfg.PluginWarning else warning.category.__name__
                    _error_line(f"{label}: {warning.message}")
        sys.stdout.flush()
        return status
    except _UsageError as exc:
        _error_line(f"error: {exc}")
        return 2
    except TargetError as exc:
        _error_line(f"error: {exc}", caret=True)
        return 2
    except BrokenPipeError:
        # The reader went away (``tcfg tags | head``): it has what it wanted; stop quietly, like other Unix tools.
        _silence_stdout()
        return 0
    except OSError as exc:  # stdout cannot take the output (``> /dev/full``)
        _silence_stdout()
        _error_line(f"error: cannot write the output: {exc.strerror or exc}")
        return 1


_silence_stdout, _error_line = silence_stdout, error_line  # (tcfg._base.cli_io)


def _unrecognized(args: argparse.Namespace, extra: list[str]) -> str:
    message = f"unrecognized arguments: {' '.join(extra)}"
    if args.command in _TARGET_COMMANDS and any(word.startswith("-") for word in extra):
        whole = shlex.quote(" ".join([args.target, *extra]))
        message += f"; a target with options is one argument: tcfg {args.command} {whole}"
    return message


# -- output helpers ---------------------------------------------------------------------


#: Output style chosen on the command line (``--compact``).
_STYLE = {"compact": False}


def _print_json(data: Any) -> None:
    """JSON on stdout: indented on a terminal, one compact line when piped or with ``--compact``."""
    from tcfg._services.textout import json_text

    print(json_text(data, compact=_STYLE["compact"]))


def _table(rows: Iterable[Sequence[str]], out: TextIO | None = None, indent: str = "") -> None:
    """Print ``rows`` as left-aligned columns: on a terminal they fit its width (long cells wrap in
    their column); piped, one line per row, columns padded no wider than a share of that width."""
    from tcfg._services.textout import is_terminal, table_lines, terminal_width

    stream = out or sys.stdout
    for line in table_lines(rows, terminal_width(), indent, wrap=is_terminal(stream)):
        print(line, file=stream)


# -- show ---------------------------------------------------------------------------------


def _describe(target: Target, indent: str = "") -> list[str]:
    """Lines describing ``target``; nested targets (host, devices) are described the same way, indented."""
    from tcfg._services.textout import counted, value_text

    rows: list[tuple[str, str]] = [
        ("kind", target.kind.name),
        ("device type", target.kind.device_type),
        ("keys", ", ".join(target.keys)),
        ("tag", target.tag or "(none)"),
    ]
    width = max(len(label) for label, _ in [*rows, ("features", "")])
    lines = [f"{indent}{label.ljust(width)}  {value}" for label, value in rows]
    host = target.host
    if host is None:
        lines.append(f"{indent}{'host'.ljust(width)}  (none)")
    else:
        lines.append(f"{indent}{'host'.ljust(width)}  {host}")
        lines += _describe(host, indent + "  ")
    order = {name: i for i, name in enumerate(target.kind.table)}
    attrs = sorted(
        ((n, v) for n, v in target.attrs.items() if n not in ("host", "tag")),
        key=lambda item: (order.get(item[0], len(order)), item[0]),
    )
    lines.append(f"{indent}attrs")
    attr_width = max((len(n) for n, _ in attrs), default=0)
    for name, value in attrs:
        mark = "" if name in target.config else "  (default)"
        nested = _nested_targets(value)
        if nested is None:
            lines.append(f"{indent}  {name.ljust(attr_width)}  {_attr_text(target, name, value)}{mark}")
            continue
        lines.append(f"{indent}  {name}{mark}")
        for inner, times in counted(nested):  # identical devices once, with their number
            lines.append(f"{indent}    {inner}" + (f"  (x{times})" if times > 1 else ""))
            lines += _describe(inner, indent + "      ")
    present = target.features.items()
    if not present:
        lines.append(f"{indent}{'features'.ljust(width)}  (none)")
    else:
        lines.append(f"{indent}features")
        feat_width = max(len(n) for n, _ in present)
        lines += [f"{indent}  {n.ljust(feat_width)}  {value_text(v)}" for n, v in present]
    return lines


def _nested_targets(value: Any) -> list[Target] | None:
    """The targets an attribute value holds (a Target or a list of them), or None for other values."""
    if isinstance(value, tcfg.Target):
        return [value]
    if isinstance(value, tuple) and value and all(isinstance(v, tcfg.Target) for v in value):
        return list(value)
    return None


def _attr_text(target: Target, name: str, value: Any) -> str:
    """``value`` of attribute ``name`` as the string grammar prints it (its type's ``to_text``)."""
    text: str = target._attr_type(name).to_text(value)  # as str(target) prints it
    return text


def _show(registry: Registry, args: argparse.Namespace) -> int:
    target = registry.target(args.target)
    if args.json:
        from tcfg._services.describe import describe

        _print_json(describe(target))
        return 0
    print(target)
    for line in _describe(target, "  "):
        print(line)
    return 0


# -- explain ------------------------------------------------------------------------------


def _explain(registry: Registry, args: argparse.Namespace) -> int:
    target = registry.target(args.target)
    features = target.features
    names: list[str] = list(args.features) or features.keys()
    explained: dict[str, dict[str, Any]] = {}
    for name in names:
        try:
            explained[name] = {"value": features[name], "explanation": features.explain(name)}
        except KeyError as exc:
            raise TargetError(f"target {str(target)!r}: {exc.args[0]}") from None
    if args.json:
        from tcfg._services.describe import describe

        _print_json({**describe(target), "features": explained})
        return 0
    print(target)
    if not explained:
        print(f"  no features: no installed plugin derives any for this {target.kind.name!r} target")
    for entry in explained.values():
        print(f"  {entry['explanation']}")
    return 0


# -- kinds, tags, plugins -------------------------------------------------------------------


def _kinds(registry: Registry, args: argparse.Namespace) -> int:
    kinds = [registry.get_kind(name) for name in registry.list_kinds()]
    if args.json:
        from tcfg._services.listing import kinds_data

        _print_json(kinds_data(registry))
        return 0
    _table(
        [("KIND", "DEVICE", "PLUGIN", "DESCRIPTION")]
        + [(k.name, k.device_type, registry.owner("kind", k.name), k.doc) for k in kinds]
    )
    return 0


def _tags(registry: Registry, args: argparse.Namespace) -> int:
    names = registry.list_tags(args.prefix, aliases=args.aliases)
    if args.json:
        from tcfg._services.listing import tags_data

        _print_json(tags_data(registry, names))
        return 0
    if not names:
        where = f" starting with {args.prefix!r}" if args.prefix else ""
        print(f"no tags{where}; plugins register tags (see 'tcfg plugins')")
        return 0
    rows: list[tuple[str, str]] = []
    for name in names:
        entry = registry.tag_entry(name)
        if entry.name != name:
            rows.append((name, f"alias of {entry.name}"))
            continue
        rows.append((name, entry.description or str(entry.target)))
        rows += [(f"  {name}:{v}", str(registry.tag_entry(f"{name}:{v}").target)) for v in entry.variants]
    _table(rows)
    return 0


def _count(number: int, plural: str) -> str:
    """``"1 kind"``, ``"3 kinds"``: ``plural`` loses its final s for one."""
    return f"{number} {plural[:-1] if number == 1 and plural.endswith('s') else plural}"


def _plugins(registry: Registry, args: argparse.Namespace) -> int:
    if args.check:
        return _check_plugins(registry, args)
    if args.names:
        raise _UsageError("plugin names are for --check: tcfg plugins --check NAME ...")
    if args.json:
        from tcfg._services.listing import plugins_data

        _print_json(plugins_data(registry))
        return 0
    records = registry.plugins()
    rows: list[tuple[str, ...]] = [("PLUGIN", "STATUS", "DISTRIBUTION", "VERSION", "REGISTERED")]
    for record in records:
        data = record.to_dict()
        registered = ", ".join(_count(len(v), k.replace("_", " ")) for k, v in data["registered"].items())
        rows.append((record.name, record.status, record.distribution or "-", record.version or "-", registered))
    _table(rows)
    for record in records:
        if record.error:
            print(f"{record.name}: {record.error}")
    return 0


def _check_plugins(registry: Registry, args: argparse.Namespace) -> int:
    """``tcfg plugins --check [NAME ...]``: build each target of the named plugins (all if none), check their laws.

    Prints each failure (``PLUGIN: tag 'NAME' does not build: ERROR``) and a summary, and
    returns 1 if there is any; 0 with a one-line summary otherwise.
    """
    from tcfg._base.errors import describe_choices
    from tcfg._services.plugin_check import check_record

    registry.list_tags()  # loads every plugin and its tags
    # The core is no plugin to check: its composite kind has no default target (it needs -devices).
    records = {record.name: record for record in registry.plugins() if record.name != "core"}
    unknown = [name for name in args.names if name not in records]
    if unknown:
        choices = describe_choices(unknown[0], records) if records else "no plugin is installed"
        raise _UsageError(f"no plugin {unknown[0]!r} to check; {choices}")
    names = list(dict.fromkeys(args.names)) or [n for n, r in records.items() if r.status != "disabled"]
    checks = [check_record(registry, records[name], name, registry.anew()) for name in names]
    failed = [check for check in checks if not check.ok]
    if args.json:
        _print_json({"ok": not failed, "plugins": [check.to_dict() for check in checks]})
        return 1 if failed else 0
    for check in failed:
        for message in check.messages():
            print(f"{check.name}: {message}")
    built = {sort: sum(check.built.get(sort, 0) for check in checks) for sort in ("kinds", "tags", "variants")}
    what = ", ".join(_count(number, sort) for sort, number in built.items())
    if failed:
        problems = _count(sum(len(check.messages()) for check in failed), "failures")
        print(f"{problems} in {_count(len(failed), 'plugins')} of {len(checks)} checked ({what} tried)")
        return 1
    print(f"ok: {_count(len(checks), 'plugins')} checked, {what} built")
    return 0


# -- codegen, schema, detect ----------------------------------------------------------------


def _codegen(registry: Registry, args: argparse.Namespace) -> int:
    target = registry.target(args.target)
    if args.form is not None:
        _print_form(target, args, args.json)
        return 0
    if args.tool_version is not None or args.opt_level is not None:
        raise _UsageError(f"--version and --opt-level need --for {'|'.join(_COMPILERS)}")
    config = target.codegen().to_dict()
    if args.json:
        from tcfg._services.describe import describe

        _print_json({**describe(target), "codegen": config})
        return 0
    from tcfg._services.textout import mapping_lines

    print(target)
    for line in mapping_lines(config, "  "):
        print(line)
    return 0


def _print_form(target: Target, args: argparse.Namespace, as_json: bool) -> None:
    """Print what ``args.form`` reads for ``target``: a TVM dict, an MLIR attribute, flags, a Triton target.

    Text: a string as it is, a dict as one line of JSON (what TVM 0.27 reads), a list
    or tuple as shell words. A form the target lacks is a TargetError naming those it has.
    """
    from tcfg._services.forms import form

    value = form(target, args.form, args.tool_version, args.opt_level)
    if as_json:
        _print_json(value)
    elif isinstance(value, str):
        print(value)
    elif isinstance(value, Mapping):
        print(json.dumps(value, ensure_ascii=False))
    else:
        print(shlex.join(str(item) for item in value))


def _schema(registry: Registry, args: argparse.Namespace) -> int:
    kind = registry.get_kind(args.kind)
    if args.json:
        _print_json(kind.json_schema())
        return 0
    print(f"kind {kind.name} (device type {kind.device_type}, plugin {registry.owner('kind', kind.name)})")
    if kind.doc:
        print(f"  {kind.doc}")
    rows: list[tuple[str, ...]] = [("ATTRIBUTE", "TYPE", "DEFAULT", "DESCRIPTION")]
    for name, attr in kind.table.items():
        default = "-" if attr.default is None else attr.type.to_text(attr.default)
        rows.append((name, attr.type.description, default, attr.doc))
    _table(rows, indent="  ")
    compilers = registry.compilers(kind.name)
    for name, compiler in compilers.items():
        print(f"  with -compiler={name}: {', '.join(compiler.table) or 'no extra attributes'}")
    return 0


def _detect(registry: Registry, args: argparse.Namespace) -> int:
    from tcfg._base.recordings import read_source_files
    from tcfg._services.why_not import why_not, why_not_text

    found = registry.detect(None if args.sources is None else read_source_files(args.sources))
    if args.why_not is not None:
        report = why_not(registry, args.why_not, found)
        _print_json(report) if args.json else print(why_not_text(report))
        return 0
    if args.json:
        _print_json([t.export() for t in found])
    else:
        for target in found:
            print(target)
    if not found:
        loaded = ", ".join(r.name for r in registry.plugins() if r.status == "loaded")
        _error_line(
            f"no installed plugin detected a device {'in the recordings' if args.sources else 'on this machine'} "
            f"(plugins loaded: {loaded}); "
            "install the plugin for this machine's CPU or accelerator"
        )
        return 1
    return 0


_COMMANDS: dict[str, Callable[[Registry, argparse.Namespace], int]] = {
    "show": _show,
    "explain": _explain,
    "kinds": _kinds,
    "tags": _tags,
    "plugins": _plugins,
    "codegen": _codegen,
    "schema": _schema,
    "detect": _detect,
}
