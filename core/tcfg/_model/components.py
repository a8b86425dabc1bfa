"""Executors and runtimes: registered names with attribute schemas, used by composite targets.

A component value is written as its name (``-executor=vm``, ``"executor": "vm"``) or,
with attributes, in the target grammar (``-executor='aot -interface-api=c -unpacked-api'``)
or as a dict (``{"name": "aot", "interface-api": "c", "unpacked-api": true}``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from tcfg._base.errors import TargetError, bounded_repr, describe_choices, shorten
from tcfg._base.grammar import NAME, RawValue, quote, quote_nested, split_options, tokenize
from tcfg._model.attrs import Attr, AttrType, BuildContext, InvalidValue, attr_table
from tcfg._model.kind import Rule

if TYPE_CHECKING:
    from typing import TypeAlias

    #: A kind of component a composite target names.
    Role: TypeAlias = Literal["executor", "runtime"]

__all__ = ["ROLES", "Component", "ComponentType", "ComponentValue"]

#: Every role, in the order the registry reports them.
ROLES: tuple[Role, ...] = ("executor", "runtime")


@dataclass(frozen=True)
class Component:
    """A registered executor or runtime: its name, attributes and what it is.

    ``rule`` (None: valid in every composite) sees the composite target that names the
    component (its attributes, ``devices`` included) and returns None, or why the
    component cannot be used there (the ``cuda-graph`` runtime needs a CUDA device);
    the composite is then refused with that reason.
    """

    name: str
    attrs: Sequence[Attr] = ()
    doc: str = ""
    rule: Rule | None = None
    table: Mapping[str, Attr] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not NAME.match(self.name):
            raise ValueError(f"component name {self.name!r} must match {NAME.pattern}")
        if any(attr.aliases for attr in self.attrs):
            raise ValueError(f"component {self.name!r}: only a kind's attributes may have aliases")
        object.__setattr__(self, "table", MappingProxyType(dict(attr_table(self.attrs))))


class ComponentValue(NamedTuple):
    """A chosen executor or runtime: its name and the attributes that differ from defaults."""

    name: str
    config: tuple[tuple[str, Any], ...] = ()

    def export(self) -> str | dict[str, Any]:
        """The name alone, or a dict with the name and configured attributes."""
        if not self.config:
            return self.name
        return {"name": self.name, **dict(self.config)}


class ComponentType(AttrType):
    """An attribute whose value is a registered executor or runtime."""

    def __init__(self, role: Role) -> None:
        self.role = role
        self.description = f"a registered {role} (a name, or a dict with 'name' and its attributes)"

    def _spec(self, name: Any, build: BuildContext) -> Component:
        found = build.registry.components(self.role)
        spec = found.get(name) if isinstance(name, str) else None
        if spec is None:
            choices = describe_choices(shorten(name), found)
            raise InvalidValue(f"names no registered {self.role}: {bounded_repr(name)}; {choices}")
        component: Component = spec
        return component

    def _value(self, spec: Component, given: Mapping[str, Any]) -> ComponentValue:
        config = []
        for key, attr in spec.table.items():
            if key in given and given[key] != attr.default:
                config.append((key, given[key]))
        return ComponentValue(spec.name, tuple(config))

    def from_text(self, raw: RawValue, build: BuildContext) -> ComponentValue:
        tokens = tokenize(raw.text)
        if not tokens:
            raise InvalidValue(f"expects {self.description}, got an empty value")
        spec = self._spec(tokens[0].text, build)

        def is_flag(key: str) -> bool:
            attr = spec.table.get(key)
            return attr is not None and attr.type.is_flag

        given: dict[str, Any] = {}
        try:
            for opt in split_options(raw.text, tokens[1:], is_flag):
                attr = self._attr(spec, opt.key)
                given[opt.key] = True if opt.value is None else attr.type.from_text(opt.value, build)
        except TargetError as exc:
            raise InvalidValue(str(exc).split("\n")[0]) from None
        return self._value(spec, given)

    def check(self, value: Any, build: BuildContext) -> ComponentValue:
        if isinstance(value, ComponentValue):
            return value
        if isinstance(value, str):
            return self._value(self._spec(value, build), {})
        if not isinstance(value, Mapping) or "name" not in value:
            raise InvalidValue(f"expects {self.description}, got {bounded_repr(value)}")
        spec = self._spec(value["name"], build)
        given = {}
        for key, item in value.items():
            if key != "name":
                try:
                    given[key] = self._attr(spec, key).type.check(item, build)
                except InvalidValue as exc:
                    raise InvalidValue(f"{self.role} {spec.name!r}: {key!r} {exc}") from None
        return self._value(spec, given)

    def _attr(self, spec: Component, key: str) -> Attr:
        attr = spec.table.get(key)
        if attr is None:
            raise InvalidValue(
                f"{self.role} {spec.name!r} has no attribute {key!r}; {describe_choices(key, spec.table)}"
            )
        return attr

    def to_text(self, value: Any) -> str:
        if not value.config:
            return quote(value.name)
        spec_text = " ".join(
            [value.name, *(f"-{k}" if v is True else f"-{k}={_scalar_text(v)}" for k, v in value.config)]
        )
        return quote_nested(spec_text)

    def to_json(self, value: Any) -> str | dict[str, Any]:
        return value.export()  # type: ignore[no-any-return]

    def json_schema(self) -> dict[str, Any]:
        return {
            "oneOf": [
                {"type": "string"},
                {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
            ]
        }


def _scalar_text(value: Any) -> str:
    if value is False:
        return "false"
    return quote(str(value))
