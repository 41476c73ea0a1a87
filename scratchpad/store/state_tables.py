"""The store's part for domain schemas: which schemas each thread has attached
(``thread_schemas``) and their state rows (``state_<schema>``, one row per thread, a
column per field, added as a schema gains fields).

:class:`StateTables` is mixed into :class:`~scratchpad.store.sqlite.SQLiteStore`; its
methods use the store's connection, lock and write transactions.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from extractors.text.guard import rx
from scratchpad.store.locking import store_call
from scratchpad.store.views import refresh_missing_fields

if TYPE_CHECKING:
    from sqlite_utils import Database

_STATE_TABLE = rx(r"state_[a-z][a-z0-9_]*")


def state_table_names(tables: Iterable[str]) -> list[str]:
    """The state tables among ``tables``."""
    return [name for name in tables if _STATE_TABLE.fullmatch(name)]


def _check_state_table(name: str) -> None:
    if not _STATE_TABLE.fullmatch(name):
        raise ValueError(f"not a state table name: {name!r}")


class StateTables:
    """Attached schemas and their state rows (see the module docstring)."""

    path: str

    @property
    @abstractmethod
    def db(self) -> Database: ...

    @abstractmethod
    def _write(self) -> AbstractContextManager[None]: ...

    @abstractmethod
    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]: ...

    @abstractmethod
    def _table_names(self) -> list[str]: ...

    @store_call
    def attach_schema(self, thread: str, schema: str, table_name: str) -> None:
        """Record that ``thread``'s state as ``schema`` is kept in ``table_name``."""
        _check_state_table(table_name)
        with self._write():
            self.db.table("thread_schemas").upsert({"thread": thread, "schema": schema,
                                                    "table_name": table_name},
                                                   pk=("thread", "schema"))

    @store_call
    def attached_schemas(self, thread: str | None = None) -> list[tuple[str, str, str]]:
        """Return (thread, schema, table name) of every attachment, of one thread or all,
        in attachment order per thread."""
        where, params = ("where thread = ?", [thread]) if thread is not None else ("", [])
        rows = self._query(f"select thread, schema, table_name from thread_schemas {where} "
                             f"order by thread, rowid", params)
        return [(row["thread"], row["schema"], row["table_name"]) for row in rows]

    @store_call
    def save_state(self, table_name: str, row: dict[str, Any]) -> None:
        """Replace one thread's row of a schema's state table (new columns are added as a
        schema gains fields)."""
        _check_state_table(table_name)
        with self._write():
            new = table_name not in self._table_names()
            self.db.table(table_name).upsert(row, pk="thread", alter=True)
            if new:
                refresh_missing_fields(self.db.conn, state_table_names(self._table_names()))

    @store_call
    def state_missing(self, table_name: str, thread: str) -> tuple[list[str], int] | None:
        """Return the stored ``missing`` list of ``thread``'s state row and the last turn
        it was computed at, or None when it has no row yet."""
        _check_state_table(table_name)
        if table_name not in self._table_names():
            return None
        rows = list(self._query(f"select missing, last_turn from [{table_name}] "
                                  f"where thread = ?", [thread]))
        if not rows:
            return None
        return json.loads(rows[0]["missing"] or "[]"), int(rows[0]["last_turn"] or 0)


