"""Domain schemas attached to threads: which schemas a thread has, their state rows kept
current in the store, and the required fields still missing.

The names of attached schemas are stored in the database, but a schema is code: a stored
name becomes a class only if it is shipped, installed (entry-point group
``scratchpad.schemas``) or given by the operator in this process
(:func:`schemas.registry.resolve_stored`). The schema machinery is imported when a
schema is first named or read back, so listing missing fields (read from the state rows)
loads none of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from scratchpad.records import MissingField
from scratchpad.store import Store

if TYPE_CHECKING:
    from schemas.base import DomainState


class AttachedSchemas:
    """The schemas of one pad's threads, and the ones its operator gave."""

    def __init__(self, store: Store, given: Iterable[type[DomainState] | str] = ()) -> None:
        self.store = store
        #: Schemas the operator named in this process, by stored name.
        self.given: dict[str, type[DomainState]] = {}
        for schema in given:
            self.trust(schema)

    def trust(self, schema: type[DomainState] | str) -> type[DomainState]:
        """Resolve a schema the operator names (a class, a shipped or installed name, or
        ``module:Class``) and accept it when it is read back from the database."""
        from schemas.registry import reference, resolve

        cls = resolve(schema)
        self.given[reference(cls)] = cls
        return cls

    def attach(self, thread: str, schema: type[DomainState] | str) -> type[DomainState]:
        """Record that ``thread`` is kept as ``schema``; return the class."""
        from schemas.registry import reference

        cls = self.trust(schema)
        self.store.attach_schema(thread, reference(cls), cls.table_name())
        if self.store.has_thread(thread):
            self.refresh(thread, self.store.turn_count(thread), [cls])
        return cls

    def of(self, thread: str) -> list[type[DomainState]]:
        """The schemas attached to ``thread``, in the order they were attached."""
        attached = self.store.attached_schemas(thread)
        if not attached:
            return []
        from schemas.registry import resolve_stored

        return [resolve_stored(name, self.given) for _, name, _ in attached]

    def refresh(self, thread: str, last_turn: int, schemas: Sequence[type[DomainState]]) -> None:
        """Rewrite the state rows of ``schemas`` for ``thread``, from the thread's records
        of the kinds the schemas read."""
        if not schemas:
            return
        kinds = {k for cls in schemas for b in cls.bindings().values() for k in b.kinds}
        records = self.store.records(thread, kinds=kinds)
        for cls in schemas:
            self.store.save_state(cls.table_name(),
                                  cls.fill(records).state_row(thread, last_turn))

    def heal(self, thread: str, schemas: Sequence[type[DomainState]]) -> None:
        """Refresh the state rows of ``schemas`` that are behind ``thread``'s stored turns
        (a process that died between storing its last turn and writing the row)."""
        count = self.store.turn_count(thread)
        if not count:
            return
        behind = []
        for cls in schemas:
            stored = self.store.state_missing(cls.table_name(), thread)
            if stored is None or stored[1] < count:
                behind.append(cls)
        self.refresh(thread, count, behind)

    def missing(self, thread: str | None = None) -> list[MissingField]:
        """The required fields attached schemas still miss, of one thread or all, read
        from their state rows (no schema is loaded)."""
        out = []
        for name, _, table in self.store.attached_schemas(thread):
            stored = self.store.state_missing(table, name)
            if stored is None:
                continue
            missing, last_turn = stored
            for line in missing:
                out.append(MissingField(thread=name, schema_name=table.removeprefix("state_"),
                                        field=line.partition(":")[0], text=line,
                                        age_turns=last_turn))
        return out
