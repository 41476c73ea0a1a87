"""Named schema migrations, applied in order and recorded in ``_migrations``.

Add a migration by appending a function; never edit or reorder applied ones. A file
whose migrations are all applied is checked with one plain query: sqlite-utils, which
the migrations are written with, is imported only when one is pending.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from extractors.records import SUBTYPES
from scratchpad.records import Kind, Record
from scratchpad.salience import ValueGroup, is_value, mentioned, value_key
from scratchpad.store.locking import write_transaction
from scratchpad.store.state_tables import state_table_names
from scratchpad.store.views import create_views

if TYPE_CHECKING:
    from sqlite_utils import Database

MIGRATIONS: list[Callable[[Database], None]] = []
migration = MIGRATIONS.append


@migration
def m001_threads_turns(db: Database) -> None:
    db.table("threads").create({"id": str, "created_at": str}, pk="id")
    db.table("turns").create(
        {
            "thread": str,
            "turn": int,
            "role": str,
            "content": str,
            "content_hash": str,
            "tokens": int,
            "message": str,  # the message as given, JSON
            "timestamp": str,
        },
        pk=("thread", "turn"),
        not_null={"role", "content", "content_hash"},
    )


@migration
def m002_records_events(db: Database) -> None:
    db.table("records").create(
        {
            "thread": str,
            "id": str,
            "kind": str,
            "subtype": str,
            "text": str,
            "turn": int,
            "role": str,
            "start": int,
            "end": int,
            "label": str,
            "value": str,  # JSON
            "status": str,
            "status_turn": int,
            "extractor": str,
            "confidence": float,
            "attrs": str,  # JSON
        },
        pk=("thread", "id"),
        not_null={"kind", "subtype", "text", "turn", "status"},
    )
    db.table("records").create_index(["status", "kind"], index_name="idx_records_status_kind")
    db.table("records").create_index(["thread", "turn"], index_name="idx_records_thread_turn")
    db.table("events").create(
        {
            "id": int,
            "thread": str,
            "record_id": str,
            "turn": int,
            "field": str,
            "old": str,
            "new": str,
            "evidence_start": int,
            "evidence_end": int,
            "evidence_text": str,
            "by_role": str,
            "note": str,
        },
        pk="id",
    )
    db.table("events").create_index(["thread", "record_id"], index_name="idx_events_record")


@migration
def m003_summaries(db: Database) -> None:
    """The running summary of each compacted thread (its JSON, and the last turn it
    covers), carried forward from one compaction to the next."""
    db.table("summaries").create({"thread": str, "summary": str, "last_turn": int}, pk="thread")


@migration
def m004_thread_schemas(db: Database) -> None:
    """Domain schemas attached to a thread (by the name ``scratchpad state --schema``
    takes). Each schema's filled state lives in a ``state_<name>`` table, one row per
    thread, created by the store on first write."""
    db.table("thread_schemas").create({"thread": str, "schema": str, "table_name": str},
                                pk=("thread", "schema"))


@migration
def m005_records_by_kind(db: Database) -> None:
    """Resolvers read a thread's latest live records of one kind on every ingest."""
    db.table("records").create_index(["thread", "kind", "turn"],
                                     index_name="idx_records_thread_kind_turn")


@migration
def m006_value_groups(db: Database) -> None:
    """Salience: each value record names its value (``value_key``), and ``value_groups``
    holds what the thread has shown of each value (who stated it, in how many turns,
    whether it was acted on). Records written before are grouped here; that a value was
    acted on, or named by the agent while calling a tool, is known only for turns
    ingested from now on."""
    db.table("records").add_column("value_key", str)
    db.table("records").create_index(["thread", "value_key"],
                                     index_name="idx_records_thread_value_key")
    db.table("value_groups").create(
        {"thread": str, "key": str, "prose_turns": int, "last_prose_turn": int,
         "by_user": int, "by_assistant": int, "acted": str, "echoed": int, "weak": int,
         "salience": float},
        pk=("thread", "key"))
    groups: dict[tuple[str, str], ValueGroup] = {}
    for row in db.query("select * from records where kind in ('amount', 'identifier', "
                        "'datetime') order by thread, turn, start"):
        data = {**row, "value": json.loads(row["value"]) if row["value"] else None,
                "attrs": json.loads(row["attrs"]) if row["attrs"] else {}}
        data.pop("value_key", None)
        record = Record(**data)
        if not is_value(record):
            continue
        key = value_key(record)
        db.execute("update records set value_key = ? where thread = ? and id = ?",
                   [key, record.thread, record.id])
        group = groups.get((record.thread, key), ValueGroup(thread=record.thread, key=key))
        groups[(record.thread, key)] = mentioned(group, record)
    if groups:
        db.table("value_groups").insert_all(
            {"thread": g.thread, "key": g.key, "prose_turns": g.prose_turns,
             "last_prose_turn": g.last_prose_turn, "by_user": int(g.by_user),
             "by_assistant": int(g.by_assistant), "acted": g.acted,
             "echoed": int(g.echoed), "weak": int(g.weak),
             "salience": g.salience}
            for g in groups.values())


@migration
def m007_recount_turn_tokens(db: Database) -> None:
    """Token counts now include whole tool calls, ids and content blocks: earlier counts
    are forgotten (NULL), and compaction counts those turns afresh from the messages."""
    db.execute("update turns set tokens = null")


@migration
def m008_held_values(db: Database) -> None:
    """Values of a tool's plain-text output wait in ``held_values`` until a later turn
    pins the same value (:mod:`scratchpad.held`): one row per record and each key it can
    be restated under."""
    db.table("held_values").create(
        {"thread": str, "id": str, "key": str, "turn": int, "record": str},
        pk=("thread", "id", "key"))
    db.table("held_values").create_index(["thread", "key"], index_name="idx_held_thread_key")


@migration
def m009_dashboard_views(db: Database) -> None:
    """Stable views for dashboards and any SQL tool: ``open_items``, ``commitments``,
    ``constraints``, ``timeline`` and ``missing_fields`` (:mod:`scratchpad.store.views`)."""
    create_views(db.conn, state_table_names(db.table_names()))


@migration
def m010_confirmed_values(db: Database) -> None:
    """A value the assistant read back and the user confirmed counts as the user's
    (:mod:`scratchpad.readback`): ``value_groups.confirmed``."""
    db.table("value_groups").add_column("confirmed", int, not_null_default=0)


@migration
def m011_notes(db: Database) -> None:
    """Session facts, user claims and reports of a commitment kept bind no one, so they
    are kind ``note`` now, not ``commitment`` (the ``commitments`` view and ``--kind
    commitment`` leave them out); a report, stored as a superseded grant with
    ``attrs.reports``, becomes an active note of subtype ``reported``. Ids keep the
    ``commitment:`` prefix they were written with: ids are opaque."""
    notes = sorted(SUBTYPES[Kind.NOTE])
    db.execute(f"update records set kind = 'note' where kind = 'commitment' and subtype in "
               f"({', '.join('?' for _ in notes)})", notes)
    db.execute("update records set kind = 'note', subtype = 'reported', status = 'active' "
               "where kind = 'commitment' and json_extract(attrs, '$.reports') is not null")


def migrate(conn: sqlite3.Connection, where: str = ":memory:") -> list[str]:
    """Apply every migration not yet recorded in the database of ``conn``; return the
    names applied now.

    Each runs in its own write transaction that re-reads what is applied once it holds
    the lock, so processes that open a new file at the same moment apply each migration
    exactly once."""
    pending = [m for m in MIGRATIONS if m.__name__ not in _applied(conn)]
    if not pending:
        return []
    from sqlite_utils import Database

    db = Database(conn)
    applied = []
    for fn in pending:
        with write_transaction(conn, where):
            if fn.__name__ in _applied(conn):
                continue  # another process applied it while this one waited
            if "_migrations" not in db.table_names():
                db.table("_migrations").create({"name": str, "applied_at": str}, pk="name")
            fn(db)
            db.table("_migrations").insert(
                {"name": fn.__name__, "applied_at": datetime.now(UTC).isoformat()})
        applied.append(fn.__name__)
    return applied


def _applied(conn: sqlite3.Connection) -> set[str]:
    if conn.execute("select 1 from sqlite_master where type = 'table' and "
                    "name = '_migrations'").fetchone() is None:
        return set()
    return {name for (name,) in conn.execute("select name from _migrations")}
