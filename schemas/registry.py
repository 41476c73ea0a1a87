"""Find a domain schema by what an operator names, and only from trusted places.

A schema is code, so it is loaded only from places the person running Scratchpad chose:

* the shipped schemas (``refund``, ``ticket``, ``coding``);
* installed distributions that declare one in the ``scratchpad.schemas`` entry-point group
  (``name = "package.module:Class"``);
* a :class:`schemas.base.DomainState` subclass, or a ``"module:Class"`` string, given by
  the operator in Python or on the command line.

A schema name read back from a database is data: :func:`resolve_stored` turns it into a
class only if it is one of the above, and raises :class:`UntrustedSchemaError` naming it
otherwise -- a database file never decides what gets imported.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import lru_cache
from importlib.metadata import entry_points

from extractors.errors import ScratchpadError
from schemas.base import DomainState

#: Entry-point group through which installed distributions add schemas.
ENTRY_POINT_GROUP = "scratchpad.schemas"


class UnknownSchemaError(ScratchpadError):
    """A schema name that is neither shipped, installed, nor an importable
    ``module:Class`` naming a :class:`DomainState` subclass."""


class UntrustedSchemaError(ScratchpadError):
    """A schema name read from the database that no trusted place provides."""


def shipped() -> dict[str, type[DomainState]]:
    """The shipped schemas, by name."""
    from schemas import SHIPPED

    return dict(SHIPPED)


@lru_cache(maxsize=1)
def installed() -> dict[str, type[DomainState]]:
    """Schemas of installed distributions (entry-point group ``scratchpad.schemas``), by
    entry-point name; loaded once per process. One that is not a :class:`DomainState`
    subclass is an error naming the entry point."""
    found: dict[str, type[DomainState]] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        cls = ep.load()
        found[ep.name] = _checked(cls, f"entry point {ep.name!r} ({ep.value})")
    return found


def resolve(schema: type[DomainState] | str) -> type[DomainState]:
    """Return the schema class the operator names: a :class:`DomainState` subclass, a
    shipped or installed schema's name, or ``"module:Class"`` (imported here)."""
    if isinstance(schema, type):
        return _checked(schema, repr(schema))
    name = str(schema)
    known = {**shipped(), **installed()}
    if name in known:
        return known[name]
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            found = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise UnknownSchemaError(f"Cannot load schema {name!r}: {exc}") from None
        return _checked(found, repr(name))
    raise UnknownSchemaError(f"Unknown schema {name!r}. Available: {', '.join(sorted(known))}; "
                             f"or give module:Class.")


def resolve_stored(name: str, given: Mapping[str, type[DomainState]]) -> type[DomainState]:
    """Return the class of a schema name read from the database: a shipped or installed
    schema, or one the operator gave in this process (``given``, by :func:`reference`).
    Anything else raises :class:`UntrustedSchemaError`; nothing is imported."""
    known = {**shipped(), **installed(), **given}
    if name in known:
        return known[name]
    raise UntrustedSchemaError(
        f"A thread has schema {name!r} attached, which is neither shipped, nor installed "
        f"(entry-point group {ENTRY_POINT_GROUP!r}), nor given in this process; it is not "
        f"imported. Give it: '--schema {name}' on the command line, or "
        f"Scratchpad(..., schemas=[...]) in Python.")


def reference(schema: type[DomainState]) -> str:
    """The name stored for ``schema``: its shipped or installed name, else
    ``module:Class``."""
    for name, cls in {**shipped(), **installed()}.items():
        if cls is schema:
            return name
    return f"{schema.__module__}:{schema.__qualname__}"


def _checked(found: object, what: str) -> type[DomainState]:
    if isinstance(found, type) and issubclass(found, DomainState) and found is not DomainState:
        return found
    raise UnknownSchemaError(f"{what} is not a DomainState subclass")
