"""Build everything a plugin registers: the walk shared by ``tcfg.testing.check_plugin`` and ``tcfg plugins --check``.

A plugin's targets are the default target of each kind it registered (``Target("KIND")``),
each of its tags, and each variant of those tags (``NAME:VARIANT``). The walk asks the
registry only through ``plugins()`` (a record's ``registered`` kinds and tags) and
``tag_info(name).variants`` (what a tag declares, before it is built); it builds with
``tcfg.Target(spec, registry=...)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from tcfg._registry.registry import PluginRecord, Registry

__all__ = ["BuildFailure", "PluginCheck", "check_laws", "check_record", "plugin_targets"]


class BuildFailure(NamedTuple):
    """One of a plugin's targets that does not build: ``what`` is ``kind``, ``tag`` or ``variant``."""

    what: str
    name: str
    error: str

    def __str__(self) -> str:
        return f"{self.what} {self.name!r} does not build: {self.error}"

    def to_dict(self) -> dict[str, str]:
        return {"what": self.what, "name": self.name, "error": self.error}


class PluginCheck(NamedTuple):
    """What checking one plugin found: how many targets of each sort were built, and every failure.

    ``problem`` is set when the plugin could not be checked at all (it is not loaded, or
    it failed while its targets were built); its targets were then not all tried.
    ``laws`` says where its kind parsers break their laws (see :func:`check_laws`).
    """

    name: str
    status: str
    problem: str | None
    built: dict[str, int]
    failures: tuple[BuildFailure, ...]
    laws: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.problem is None and not self.failures and not self.laws

    def messages(self) -> list[str]:
        """Each failure as one sentence (the problem first, the broken laws last)."""
        return ([self.problem] if self.problem else []) + [str(f) for f in self.failures] + list(self.laws)

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "status": self.status,
            "ok": self.ok,
            "problem": self.problem,
            "built": dict(self.built),
            "failures": [f.to_dict() for f in self.failures],
            "laws": list(self.laws),
        }


def plugin_targets(registry: Registry, record: PluginRecord) -> Iterator[tuple[str, str]]:
    """``(what, spec)`` for each target the plugin of ``record`` registered: kinds, then each tag and its variants."""
    for kind in record.registered.get("kinds", []):
        yield "kind", kind
    for tag in record.registered.get("tags", []):
        yield "tag", tag
        info = registry.tag_info(tag)  # declared, not built: building it is the check
        for variant in () if info is None else info.variants:
            yield "variant", f"{tag}:{variant}"


def check_record(
    registry: Registry, record: PluginRecord | None, name: str, fresh: Registry | None = None
) -> PluginCheck:
    """Build every target of the plugin ``name`` (whose record is ``record``, None if there is none) in ``registry``.

    Every failure is collected, whatever its type. A plugin that is not loaded, or that
    is no longer loaded once its targets are built (one of its hooks failed meanwhile),
    has a ``problem`` saying so. Given ``fresh`` (a second registry of the same plugins,
    which has built nothing), a plugin whose targets all build has its kind parsers'
    laws checked too (:func:`check_laws`).
    """
    from tcfg._base.errors import PluginError, TargetError
    from tcfg._model.target import Target

    if record is None:
        return PluginCheck(name, "missing", "the plugin did not load (missing)", {}, ())
    if record.status != "loaded":
        return PluginCheck(name, record.status, _not_loaded(record), {}, ())
    built = {"kinds": 0, "tags": 0, "variants": 0}
    failures: list[BuildFailure] = []
    for what, spec in plugin_targets(registry, record):
        built[what + "s"] += 1
        try:
            Target(spec, registry=registry)
        except Exception as exc:  # every failure is reported, whatever its type
            # A tag's own error, not the PluginError that names its plugin (the check names it).
            cause = exc.__cause__ if isinstance(exc, PluginError) and isinstance(exc.__cause__, TargetError) else exc
            failures.append(BuildFailure(what, spec, f"{type(cause).__name__}: {cause}"))
    after = next((r for r in registry.plugins() if r.name == name), record)
    problem = None if after.status == "loaded" else _not_loaded(after, "failed while its targets were built")
    laws: list[str] = []
    if fresh is not None and problem is None and not failures:
        laws = check_laws(registry, fresh, law_specs(registry, after))
    return PluginCheck(name, after.status, problem, built, tuple(failures), tuple(laws))


def _not_loaded(record: PluginRecord, what: str = "did not load") -> str:
    status = f"{record.status}: {record.error}" if record.error else record.status
    return f"the plugin {what} ({status})"


#: The most targets :func:`check_laws` makes per kind from its attributes' enumerated values.
LAW_TARGETS_PER_KIND = 24


def law_specs(registry: Registry, record: PluginRecord) -> list[Any]:
    """The inputs :func:`check_laws` tries: the plugin's targets, and per kind one target for each
    value of its enumerated attributes (each choice, true and false; at most :data:`LAW_TARGETS_PER_KIND`)."""
    from tcfg._model.attrs import Boolean, Choice

    specs: list[Any] = [spec for _what, spec in plugin_targets(registry, record)]
    for name in record.registered.get("kinds", []):
        kind = registry.get_kind(name)
        made: list[Any] = []
        for attr_name, attr in kind.table.items():
            values: tuple[Any, ...] = ()
            if isinstance(attr.type, Choice):
                values = attr.type.choices
            elif isinstance(attr.type, Boolean):
                values = (True, False)
            made += [{"kind": name, attr_name: value} for value in values]
        specs += made[:LAW_TARGETS_PER_KIND]
    return specs


def check_laws(registry: Registry, fresh: Registry, specs: list[Any]) -> list[str]:
    """Where the kind parsers break their laws on ``specs`` (see :func:`law_specs`); one sentence each.

    The laws, for each input that builds in ``registry``: the parser is idempotent (the
    target's own text and JSON build an equal target with the same features and keys),
    and equal inputs give equal targets (``fresh``, a new registry of the same plugins,
    where nothing is remembered, builds the same text, features and keys). An input the
    kind refuses has no law to check.
    """
    from tcfg._base.errors import TargetError
    from tcfg._model.target import Target

    def seen(target: Target) -> tuple[str, list[Any], tuple[str, ...]]:
        return str(target), target.features.items(), target.keys

    broken: list[str] = []
    for spec in specs:
        try:
            target = Target(spec, registry=registry)
        except TargetError:
            continue
        try:
            for form, text in (("text", str(target)), ("JSON", target.to_json())):
                again = Target(text, registry=registry)
                if again != target or seen(again) != seen(target):
                    broken.append(
                        f"target {spec!r} is not idempotent: built again from its {form} {text!r} it is "
                        f"{str(again)!r} with features {again.features.items()!r} and keys {again.keys!r}"
                    )
            other = Target(spec, registry=fresh)
            if seen(other) != seen(target):
                broken.append(
                    f"target {spec!r} is built differently from equal input: {seen(target)!r}, then {seen(other)!r}"
                )
        except Exception as exc:  # every failure is reported, whatever its type
            broken.append(f"target {spec!r}: checking its laws failed: {type(exc).__name__}: {exc}")
    return broken
