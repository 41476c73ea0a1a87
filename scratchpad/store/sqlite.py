"""The SQLite store, the one implementation of :class:`scratchpad.store.Store`: with
:mod:`scratchpad.store.migrations`, the only code that writes SQL (through sqlite-utils
for creating and altering tables and the upserts of whole rows; plain SQL on the
connection for reading and for the writes of each turn).

Tables: ``threads``, ``turns`` (role, content, content hash, token count, the message
as given), ``records`` (latest state of each pin), ``events`` (every status change, with
its turn and evidence span), ``value_groups`` (what the thread showed of each value),
``held_values`` (values of a tool's plain text waiting to be restated:
:mod:`scratchpad.held`) and ``_migrations``. See the README's "Database" section.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scratchpad.held import hold_keys
from scratchpad.records import OPEN_STATUSES, Event, Kind, Record, Status
from scratchpad.salience import ValueGroup
from scratchpad.store.base import StaleThreadError, StoredTurn
from scratchpad.store.locking import (
    BUSY_TIMEOUT_MS,
    store_call,
    write_transaction,
)
from scratchpad.store.migrations import migrate
from scratchpad.store.rows import event_row, group_row, record_row, row_record
from scratchpad.store.state_tables import StateTables, state_table_names

if TYPE_CHECKING:
    from sqlite_utils import Database


class SQLiteStore(StateTables):
    r"""A Scratchpad database file (or ``":memory:"``). Many processes may read and write
    one file at once: every write takes the write lock up front and waits for it
    (:mod:`scratchpad.store.locking`); SQLite errors are one-line :class:`StoreError`\ s."""

    @store_call
    def __init__(self, path: str | Path = ":memory:"):
        self.path = str(path)
        #: Held by every store call: threads share the one connection (see locking).
        self.lock = threading.RLock()
        self.conn = sqlite3.connect(self.path, check_same_thread=False)
        self._db: Database | None = None
        self.conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # before anything locks
        if self.path != ":memory:":
            self.conn.execute("PRAGMA journal_mode=WAL")  # no transaction is open yet
        migrate(self.conn, self.path)

    @property
    def db(self) -> Database:
        """sqlite-utils over the same connection, built at first use: for the upserts of
        whole rows and the state tables that gain columns. Reading never needs it, so a
        read-only command does not import it (about 0.1 s)."""
        if self._db is None:
            from sqlite_utils import Database

            self._db = Database(self.conn)
        return self._db

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """The rows of one ``select``, as dicts keyed by column name."""
        cursor = self.conn.execute(sql, params)
        keys = [column[0] for column in cursor.description]
        return [dict(zip(keys, row, strict=True)) for row in cursor]

    def _table_names(self) -> list[str]:
        return [row["name"] for row in
                self._query("select name from sqlite_master where type = 'table'")]

    def _write(self) -> AbstractContextManager[None]:
        return write_transaction(self.conn, self.path)

    @store_call
    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    # -- threads and turns --------------------------------------------------------------

    @store_call
    def threads(self) -> list[str]:
        """Return every thread id, sorted."""
        return [row["id"] for row in self._query("select id from threads order by id")]

    @store_call
    def has_thread(self, thread: str) -> bool:
        """Return whether ``thread`` has been ingested."""
        return bool(list(self._query("select 1 from threads where id = ?", [thread])))

    @store_call
    def turn_hashes(self, thread: str) -> list[str]:
        """Return the content hashes of the stored turns of ``thread``, in turn order."""
        rows = self._query(
            "select content_hash from turns where thread = ? order by turn", [thread]
        )
        return [row["content_hash"] for row in rows]

    @store_call
    def last_turn_hashes(self, thread: str, count: int) -> list[str]:
        """Return the content hashes of the last ``count`` stored turns of ``thread``, in
        turn order."""
        rows = self._query("select content_hash from turns where thread = ? "
                           "order by turn desc limit ?", [thread, max(0, count)])
        return [row["content_hash"] for row in reversed(rows)]

    @store_call
    def turn_count(self, thread: str) -> int:
        """Return how many turns ``thread`` has stored."""
        rows = self._query("select count(*) as n from turns where thread = ?", [thread])
        return int(next(iter(rows))["n"])

    @store_call
    def turn_numbers(self, thread: str, hashes: Iterable[str]) -> dict[str, list[int]]:
        """Return, for each of ``hashes`` that stored turns of ``thread`` have, their turn
        numbers in order."""
        wanted = sorted(set(hashes))
        out: dict[str, list[int]] = {}
        for chunk in range(0, len(wanted), 500):
            part = wanted[chunk:chunk + 500]
            rows = self._query(
                f"select content_hash, turn from turns where thread = ? and content_hash in "
                f"({', '.join('?' * len(part))}) order by turn", [thread, *part])
            for row in rows:
                out.setdefault(row["content_hash"], []).append(row["turn"])
        return out

    @store_call
    def turn_tokens(self, thread: str, numbers: Iterable[int]) -> dict[int, int]:
        """Return the stored token count of each of the turns ``numbers`` of ``thread``
        (turns stored before the counting rules changed have none: count them afresh)."""
        wanted = sorted(set(numbers))
        out: dict[int, int] = {}
        for chunk in range(0, len(wanted), 500):
            part = wanted[chunk:chunk + 500]
            rows = self._query(
                f"select turn, tokens from turns where tokens is not null and thread = ? "
                f"and turn in ({', '.join('?' * len(part))})", [thread, *part])
            out.update((row["turn"], row["tokens"]) for row in rows)
        return out

    @store_call
    def last_text_turns(self, thread: str) -> dict[str, int]:
        """Return, per role, the latest turn of ``thread`` whose content is not empty."""
        rows = self._query(
            "select role, max(turn) as turn from turns where thread = ? and trim(content) != '' "
            "group by role", [thread],
        )
        return {row["role"]: row["turn"] for row in rows}

    @store_call
    def turns(self, thread: str, since: int = 1) -> list[StoredTurn]:
        """Return the stored turns of ``thread`` from turn ``since`` on."""
        rows = self._query(
            "select * from turns where thread = ? and turn >= ? order by turn", [thread, since]
        )
        return [
            StoredTurn(**{**row, "message": json.loads(row["message"])}) for row in rows
        ]

    @store_call
    def delete_thread(self, thread: str) -> None:
        """Delete a thread with its turns, records and events, in one transaction."""
        with self._write():
            for table in ("events", "records", "value_groups", "held_values", "turns",
                          "summaries", "thread_schemas",
                          *state_table_names(self._table_names())):
                self.conn.execute(f"delete from [{table}] where thread = ?", [thread])
            self.conn.execute("delete from threads where id = ?", [thread])

    # -- the running summary ------------------------------------------------------------

    @store_call
    def summary(self, thread: str) -> str | None:
        """Return the JSON of ``thread``'s running summary, if it was ever compacted."""
        rows = list(self._query("select summary from summaries where thread = ?", [thread]))
        return rows[0]["summary"] if rows else None

    @store_call
    def save_summary(self, thread: str, summary_json: str, last_turn: int) -> None:
        """Replace ``thread``'s running summary."""
        with self._write():
            self.db.table("summaries").upsert({"thread": thread, "summary": summary_json,
                                               "last_turn": last_turn}, pk="thread")

    # -- writing one turn ---------------------------------------------------------------

    @store_call
    def value_groups(self, thread: str, keys: Iterable[str]) -> dict[str, ValueGroup]:
        """What ``thread`` has shown so far of each of the values ``keys``."""
        out: dict[str, ValueGroup] = {}
        for row in self._keyed_rows("value_groups", thread, keys):
            out[row["key"]] = ValueGroup(
                thread=thread, key=row["key"], prose_turns=row["prose_turns"],
                last_prose_turn=row["last_prose_turn"], by_user=bool(row["by_user"]),
                by_assistant=bool(row["by_assistant"]), acted=row["acted"],
                echoed=bool(row["echoed"]), weak=bool(row["weak"]),
                confirmed=bool(row["confirmed"]))
        return out

    def _keyed_rows(self, table: str, thread: str, keys: Iterable[str]
                    ) -> Iterator[dict[str, Any]]:
        """The rows of ``table`` (``value_groups``, ``held_values``) of ``thread`` whose
        ``key`` is one of ``keys``, asked in chunks SQLite's parameter limit allows."""
        wanted = sorted(set(keys))
        for chunk in range(0, len(wanted), 500):
            part = wanted[chunk:chunk + 500]
            yield from self._query(
                f"select * from [{table}] where thread = ? and key in "
                f"({', '.join('?' * len(part))})", [thread, *part])

    @store_call
    def add_turn(
        self,
        turn: StoredTurn,
        records: Sequence[Record],
        updated: Sequence[Record],
        events: Sequence[Event],
        groups: Sequence[ValueGroup] = (),
        held: Sequence[Record] = (),
    ) -> None:
        """Store one turn, its new records, changed records, events and the values whose
        evidence it changed (``groups``) atomically; ``held``: values of the turn that wait
        to be restated (:mod:`scratchpad.held`). A record of ``records`` from an earlier
        turn is a held one released: it leaves ``held_values``.

        Raises :class:`StaleThreadError` (writing nothing) unless the thread's stored
        turns end right before ``turn``: another writer extended the thread since its
        turns were read."""
        with self._write():
            rows = self.conn.execute("select max(turn) from turns where thread = ?",
                                   [turn.thread]).fetchone()
            stored = int(rows[0] or 0)
            if stored != turn.turn - 1:
                raise StaleThreadError(turn.thread, stored, turn.turn)
            self.conn.execute("insert or ignore into threads (id, created_at) values (?, ?)",
                            [turn.thread, datetime.now(UTC).isoformat()])
            self._insert("turns", [{**turn.__dict__, "message": json.dumps(
                turn.message, ensure_ascii=False)}])
            if records:
                self._insert("records", [record_row(r) for r in records])
                for r in records:
                    if r.turn < turn.turn:
                        self.conn.execute("delete from held_values where thread = ? and id = ?",
                                        [r.thread, r.id])
            if held:
                self._insert("held_values", [
                    {"thread": r.thread, "id": r.id, "key": key, "turn": r.turn,
                     "record": r.model_dump_json()} for r in held for key in hold_keys(r)])
            for record in updated:
                row = record_row(record)
                columns = [c for c in row if c not in ("thread", "id")]
                self.conn.execute(
                    f"update records set {', '.join(f'[{c}] = ?' for c in columns)} "
                    "where thread = ? and id = ?",
                    [*(row[c] for c in columns), record.thread, record.id])
            if events:
                self._insert("events", [event_row(e) for e in events])
            if groups:
                self._insert("value_groups", [group_row(g) for g in groups],
                             upsert=("thread", "key"))

    def _insert(self, table: str, rows: list[dict[str, Any]],
                upsert: tuple[str, ...] = ()) -> None:
        """Insert ``rows`` (dicts with the same keys, of plain SQLite values) into
        ``table`` in one statement run per row; with ``upsert``, a row whose key columns
        exist already replaces that row's other columns. Plain SQL rather than
        sqlite-utils' ``insert_all`` on the per-turn path: it checks the table's columns
        on every call, which cost more than the writes themselves."""
        columns = list(rows[0])
        sql = (f"insert into [{table}] ({', '.join(f'[{c}]' for c in columns)}) "
               f"values ({', '.join('?' * len(columns))})")
        if upsert:
            rest = [c for c in columns if c not in upsert]
            sql += (f" on conflict ({', '.join(upsert)}) do update set "
                    + ", ".join(f"[{c}] = excluded.[{c}]" for c in rest))
        self.conn.executemany(sql, [[row[c] for c in columns] for row in rows])

    @store_call
    def held_values(self, thread: str, keys: Iterable[str]) -> list[Record]:
        """The held values of ``thread`` (:mod:`scratchpad.held`) restated under any of
        ``keys``, in turn order."""
        found: dict[str, Record] = {}
        for row in self._keyed_rows("held_values", thread, keys):
            if row["id"] not in found:
                found[row["id"]] = Record.model_validate_json(row["record"])
        return sorted(found.values(), key=lambda r: (r.turn, r.start, r.end, r.kind))

    # -- reading records ----------------------------------------------------------------

    @store_call
    def records(
        self,
        thread: str,
        kinds: Iterable[Kind | str] | None = None,
        statuses: Iterable[Status | str] | None = None,
        turn: int | None = None,
    ) -> list[Record]:
        """Return records of ``thread`` in (turn, start, kind) order, optionally filtered
        (``turn``: only that turn's)."""
        where: list[str] = ["records.thread = ?"]
        params: list[Any] = [thread]
        _add_in(where, params, "kind", kinds)
        _add_in(where, params, "status", statuses)
        if turn is not None:
            where.append("records.turn = ?")
            params.append(turn)
        sql = f"{_SELECT} where {' and '.join(where)} order by turn, start, end, kind"
        return [row_record(row) for row in self._query(sql, params)]

    @store_call
    def recent_records(self, thread: str, kinds: Iterable[Kind | str],
                       statuses: Iterable[Status | str], per_kind: int) -> list[Record]:
        """The latest ``per_kind`` records of each of ``kinds`` in ``statuses``, oldest first
        per kind: what resolvers may still change, read at a cost that does not grow with
        the thread."""
        out: list[Record] = []
        for kind in sorted({str(k) for k in kinds}):
            where, params = ["records.thread = ?", "kind = ?"], [thread, kind]
            _add_in(where, params, "status", statuses)
            rows = self._query(f"{_SELECT} where {' and '.join(where)} "
                                 f"order by turn desc, start desc, end desc limit ?",
                                 [*params, per_kind])
            out.extend(reversed([row_record(row) for row in rows]))
        return out

    @store_call
    def open_items(self, thread: str | None = None) -> list[Record]:
        """Return open or deferred questions, of one thread or all, oldest first."""
        where, params = [], []
        _add_in(where, params, "status", OPEN_STATUSES)
        if thread is not None:
            where.append("records.thread = ?")
            params.append(thread)
        sql = f"{_SELECT} where {' and '.join(where)} order by records.thread, turn, start"
        return [row_record(row) for row in self._query(sql, params)]

    @store_call
    def events(self, thread: str) -> list[Event]:
        """Return the events of ``thread`` in the order they happened."""
        rows = self._query("select * from events where thread = ? order by id", [thread])
        return [Event(**{k: v for k, v in row.items() if k != "id"}) for row in rows]

    @store_call
    def turn_timestamp(self, thread: str, turn: int) -> str | None:
        """Return the timestamp of one turn, if its message carried one."""
        rows = list(self._query(
            "select timestamp from turns where thread = ? and turn = ?", [thread, turn]
        ))
        return rows[0]["timestamp"] if rows else None

    @store_call
    def last_turn_times(self, threads: Iterable[str]) -> dict[str, tuple[int, str | None]]:
        """Return, per thread, its last turn number and that turn's timestamp."""
        out: dict[str, tuple[int, str | None]] = {}
        for thread in threads:
            rows = list(self._query(
                "select turn, timestamp from turns where thread = ? order by turn desc limit 1",
                [thread],
            ))
            if rows:
                out[thread] = (rows[0]["turn"], rows[0]["timestamp"])
        return out


def _add_in(
    where: list[str], params: list[Any], column: str, values: Iterable[Any] | None
) -> None:
    if values is None:
        return
    items = sorted({str(v) for v in values})
    where.append(f"{column} in ({', '.join('?' for _ in items)})")
    params.extend(items)


#: Records with their value's salience (from ``value_groups``; clauses score themselves).
_SELECT = ("select records.*, value_groups.salience as group_salience from records "
           "left join value_groups on value_groups.thread = records.thread "
           "and value_groups.key = records.value_key")
