"""Find a domain schema by what a user names: a class, a shipped name, "module:Class"."""

from __future__ import annotations

import importlib

from extractors.errors import ScratchpadError
from schemas.base import DomainState


class UnknownSchemaError(ScratchpadError):
    """A schema name that is neither shipped nor an importable ``module:Class``."""


def resolve(schema: type[DomainState] | str) -> type[DomainState]:
    """Return the schema class ``schema`` names."""
    from schemas import SHIPPED

    if isinstance(schema, type) and issubclass(schema, DomainState):
        return schema
    name = str(schema)
    if name in SHIPPED:
        return SHIPPED[name]
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            found = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise UnknownSchemaError(f"Cannot load schema {name!r}: {exc}") from None
        if isinstance(found, type) and issubclass(found, DomainState):
            return found
        raise UnknownSchemaError(f"{name!r} is not a DomainState subclass")
    raise UnknownSchemaError(f"Unknown schema {name!r}. Shipped: {', '.join(sorted(SHIPPED))}; "
                             f"or give module:Class.")


def reference(schema: type[DomainState]) -> str:
    """The name that :func:`resolve` turns back into ``schema``: its shipped name, else
    ``module:Class``."""
    from schemas import SHIPPED

    if SHIPPED.get(schema.schema_key()) is schema:
        return schema.schema_key()
    return f"{schema.__module__}:{schema.__qualname__}"
