"""Helpers for testing tcfg plugins (and tcfg itself), with no pip and no installed plugin in the way.

- :func:`registry_with` — a :class:`tcfg.Registry` holding the core and the given plugins only;
- :func:`check_plugin` — build everything a plugin registers and fail, naming each failure;
- :func:`manifest` — the ``tcfg.provides`` entries a plugin's registrations need;
- :func:`fake_distribution` — an installed-looking distribution (a ``*.dist-info`` folder
  and module files) in a directory, to put on ``sys.path`` or a subprocess's ``PYTHONPATH``;
- :func:`assembler_accepts`, :func:`compiler_accepts` and :func:`runs_on_disagreements` — check a plugin's
  ``runs_on`` against what an assembler (or compiler) accepts for each target.

A plugin's own test suite can start with::

    from tcfg.testing import check_plugin
    from tcfg_mine import plugin

    def test_everything_builds():
        check_plugin(plugin)
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import warnings
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import tcfg

__all__ = [
    "assembler_accepts",
    "check_plugin",
    "compiler_accepts",
    "fake_distribution",
    "manifest",
    "registry_with",
    "require_tool",
    "runs_on_disagreements",
]


def registry_with(*plugins: object, **kwargs: Any) -> tcfg.Registry:
    """A new ``tcfg.Registry(plugins, autoload=False, **kwargs)``: the core and ``plugins``, in that order.

    No installed plugin is loaded, whatever the environment holds. ``kwargs`` are the
    registry's other keywords (``strict``, ``environ``).
    """
    return tcfg.Registry(plugins, autoload=False, **kwargs)


def check_plugin(plugin: object, *others: object) -> tcfg.Registry:
    """Build every target ``plugin`` registers, in :func:`registry_with` ``(*others, plugin)``.

    Checks that the plugin loads, that the default target of each kind it registers
    (``Target("KIND")``) builds, and that each of its tags, and each variant of those tags
    (``NAME:VARIANT``), builds. ``others`` are plugins it needs (loaded before it). Then
    the laws of its kind parsers, over those targets and one per value of each kind's
    enumerated attributes: building a target again from its own text or JSON gives an
    equal target with the same features and keys (idempotence), and equal inputs give
    equal targets, features and keys (in a second registry, where nothing is remembered).

    Raises ``AssertionError`` naming every failure (and every :class:`tcfg.PluginWarning`
    raised meanwhile); returns the registry otherwise, for further checks.
    """
    from tcfg._services.plugin_check import check_record

    name = _plugin_name(plugin, len(others))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        registry = registry_with(*others, plugin)
        registry.list_tags()  # loads every plugin and its tags
        record = next((r for r in registry.plugins() if r.name == name), None)
        failures = check_record(registry, record, name, registry.anew()).messages()
    said = "" if record is None or record.error is None else record.error
    for warning in caught:  # a load failure's warning repeats the record's error
        if issubclass(warning.category, tcfg.PluginWarning) and not (said and said in str(warning.message)):
            failures.append(f"warning: {warning.message}")
    if failures:
        lines = "\n".join(f"  - {failure}" for failure in failures)
        raise AssertionError(f"plugin {name!r}: {len(failures)} failure(s):\n{lines}")
    return registry


def manifest(name: str, registry: tcfg.Registry | None = None) -> list[str]:
    """The ``tcfg.provides`` entry names (``SPACE.NAME``, sorted) that plugin ``name`` must declare, tags aside.

    Loads every plugin of ``registry`` (the process-wide one by default) and lists what
    ``name`` registered: kinds, CPU architectures, compilers, libraries, executors,
    runtimes, features and feature aliases. Tags are declared by a vendor or a name prefix
    of the author's choosing (``tag.nvidia``, ``tag.aws/trn``). Raises ``LookupError``
    when no such plugin loaded.
    """
    from tcfg._registry.registry import default_registry
    from tcfg._services.manifest import provided

    registry = registry or default_registry()
    record = next((r for r in registry.plugins() if r.name == name), None)
    if record is None or record.status != "loaded":
        raise LookupError(f"plugin {name!r} did not load: {'no such plugin' if record is None else record.error}")
    return provided(registry, record)


def fake_distribution(
    tmp_path: Path | str,
    name: str,
    entry_points: Mapping[str, Any],
    *,
    version: str = "0.1",
    modules: Mapping[str, str | Path] | None = None,
) -> Path:
    """Write an installed distribution ``name`` ``version`` into the directory ``tmp_path``, as pip would.

    ``entry_points`` maps a group (``"tcfg"``, ``"tcfg.provides"``) to its entries
    ``{entry name: value}``; a mapping whose values are strings is the ``tcfg`` group
    alone. ``modules`` maps a path relative to ``tmp_path`` (``"tcfg_mine/plugin.py"``)
    to the file's source text, or to an existing file or package directory to copy there.

    Writes ``NAME-VERSION.dist-info/`` (``METADATA`` and ``entry_points.txt``) and the
    modules, and returns the dist-info folder. Put ``tmp_path`` on ``sys.path`` (or a
    subprocess's ``PYTHONPATH``) and ``importlib.metadata`` and tcfg find the plugin; several
    distributions may share one ``tmp_path``. In-process,
    ``tcfg.Registry(path=[str(tmp_path)], environ={})`` finds those plugins and no other.
    """
    root = Path(tmp_path)
    flat = all(isinstance(value, str) for value in entry_points.values())
    groups: Mapping[str, Mapping[str, str]] = {"tcfg": entry_points} if flat else entry_points
    meta = root / f"{_wheel_name(name)}-{version}.dist-info"
    meta.mkdir(parents=True, exist_ok=True)
    (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\n", encoding="utf-8")
    sections = []
    for group, entries in groups.items():
        body = "".join(f"{key} = {value}\n" for key, value in entries.items())
        sections.append(f"[{group}]\n{body}")
    (meta / "entry_points.txt").write_text("\n".join(sections), encoding="utf-8")
    for relative, source in (modules or {}).items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, Path):
            if source.is_dir():
                ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
                shutil.copytree(source, target, ignore=ignore, dirs_exist_ok=True)
            else:
                shutil.copyfile(source, target)
        else:
            target.write_text(source, encoding="utf-8")
    return meta


def _plugin_name(plugin: object, index: int) -> str:
    """The name the registry gives an in-process plugin (``tcfg_plugin_name``, else ``__name__``)."""
    name = getattr(plugin, "tcfg_plugin_name", None) or getattr(plugin, "__name__", None)
    return name if isinstance(name, str) else f"plugin{index}"


def _wheel_name(name: str) -> str:
    import re

    return re.sub(r"[-_.]+", "_", name)


def require_tool(name: str, install: str) -> str:
    """The path of the program ``name``, or skip the calling test saying how to ``install`` it."""
    import pytest

    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed ({install})")
    return path


def assembler_accepts(llvm_mc: str, target: tcfg.Target, probes: Mapping[str, str]) -> frozenset[str]:
    """The features whose probe (one line of assembly each) ``llvm_mc`` assembles for ``target``.

    ``target``'s codegen gives the triple, CPU and features (its llc flags); llvm-mc reports
    each line it refuses (``<stdin>:LINE:COL: error: ...``), so one run answers every probe.
    """
    flags = target.codegen().to_dict()["llc"]
    keep = [f.replace("-mtriple=", "-triple=", 1) for f in flags if f.startswith(("-mtriple=", "-mcpu=", "-mattr="))]
    return _accepted([llvm_mc, *keep, "-filetype=null", "-"], probes)


def compiler_accepts(clang: str, target: tcfg.Target, probes: Mapping[str, str], preamble: str = "") -> frozenset[str]:
    """The features whose probe (C source, after ``preamble``) ``clang`` compiles for ``target``.

    ``target``'s codegen gives the flags (its clang flags). clang stops generating code at
    the first function that needs a feature the target lacks, so each probe is compiled
    on its own: ask about a few probes at a time.
    """
    flags = target.codegen().to_dict()["clang"]
    argv = [clang, *flags, "-S", "-emit-llvm", "-o", os.devnull, "-x", "c", "-"]
    return frozenset(name for name in probes if _accepted(argv, {name: probes[name]}, preamble))


def _accepted(argv: list[str], probes: Mapping[str, str], preamble: str = "") -> frozenset[str]:
    names = list(probes)
    head = preamble.count("\n")
    text = preamble + "\n".join(probes[name] for name in names) + "\n"
    run = subprocess.run(argv, input=text, capture_output=True, text=True, check=False)
    refused = {int(line.split(":")[1]) - head for line in run.stderr.splitlines() if line.startswith("<stdin>:")}
    if run.returncode and not refused:
        raise AssertionError(f"{' '.join(argv)} failed: {run.stderr.strip()}")
    return frozenset(name for line, name in enumerate(names, 1) if line not in refused)


def runs_on_disagreements(
    accepted: Mapping[tcfg.Target, Collection[str]], probed: Collection[str], exempt: Collection[str] = ()
) -> list[str]:
    """Where ``runs_on`` and a tool disagree, for every pair of the targets in ``accepted``.

    ``accepted`` maps each target to the features (of ``probed``) whose probe the tool
    accepts for it (:func:`assembler_accepts`). Two checks: the tool accepts a feature's
    probe exactly when the target has the feature (so ``runs_on`` decides on the tool's
    facts); and whenever code built for one target runs on another, every probe the first
    accepts, ``exempt`` features aside, the second accepts too.
    """
    found = []
    for target, features in accepted.items():
        for name in probed:
            if (name in features) != bool(target.features[name]):
                found.append(f"{target}: the tool says {name} is {name in features}, features.{name} disagrees")
    targets: Sequence[tcfg.Target] = list(accepted)
    for code, machine in itertools.product(targets, targets):
        missing = set(accepted[code]) - set(accepted[machine]) - set(exempt)
        if missing and code.runs_on(machine):
            found.append(f"{code} runs on {machine}, whose tool refuses {sorted(missing)}")
    return found
