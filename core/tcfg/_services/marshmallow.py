"""A kind's attributes as a marshmallow schema (marshmallow is imported only here).

The schema validates exactly as the target builder does: the same strict types, the
same defaults, and nested targets built through the same registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import marshmallow

from tcfg._base.errors import TargetError
from tcfg._model.attrs import Attr, InvalidValue

if TYPE_CHECKING:
    from tcfg._model.kind import TargetKind
    from tcfg._model.registry_view import RegistryView

__all__ = ["marshmallow_schema"]


class _AttrField(marshmallow.fields.Field):  # type: ignore[type-arg]
    """A marshmallow field that checks and dumps one tcfg attribute."""

    def __init__(self, attr: Attr, registry: RegistryView) -> None:
        extra: dict[str, Any] = {"metadata": {"description": attr.doc}}
        if attr.default is not None:
            extra["load_default"] = attr.default
        super().__init__(**extra)
        self.attr = attr
        self.registry = registry

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        try:
            return self.attr.type.check(value, self.registry.nested_context(0))
        except (InvalidValue, TargetError) as exc:
            raise marshmallow.ValidationError(str(exc)) from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else self.attr.type.to_json(value)


def marshmallow_schema(kind: TargetKind, registry: RegistryView) -> type[marshmallow.Schema]:
    """A schema class whose ``load()`` checks a dict of ``kind``'s attributes (without ``kind``)."""
    fields: dict[str, marshmallow.fields.Field] = {  # type: ignore[type-arg]
        name: _AttrField(attr, registry) for name, attr in kind.table.items()
    }
    schema: type[marshmallow.Schema] = marshmallow.Schema.from_dict(fields, name=f"{kind.name}_attrs")
    return schema
