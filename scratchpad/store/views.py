"""The SQL views a dashboard (or any SQL tool) reads: stable names over the tables.

``open_items``, ``commitments``, ``constraints`` and ``timeline`` are plain views over
``records``, ``events`` and ``turns``. ``missing_fields`` reads every schema's state table
(``state_<name>``, one per attached schema, created on first write), so the store
recreates it whenever a state table appears. Migrations create them; a change to a view
is a new migration that drops and recreates it (:func:`create_views`), never an edit of
an applied one.

Each view's columns are documented in ``docs/dashboard.md``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

#: Questions still open or deferred, and commitments still to be kept (promised or
#: agreed, not yet fulfilled, superseded or revoked), with their age: in turns since
#: the thread's last turn, and in seconds when both turns carry a timestamp. Oldest
#: first.
OPEN_ITEMS = """
create view open_items as
with last as (select thread, max(turn) as last_turn from turns group by thread)
select r.thread, r.id, r.kind, r.subtype, r.status, r.turn, r.role, r.text,
       last.last_turn - r.turn as age_turns,
       cast(round((julianday(lt.timestamp) - julianday(t.timestamp)) * 86400) as integer)
           as age_seconds,
       t.timestamp as stated_at, r.attrs
from records r
join last on last.thread = r.thread
left join turns t on t.thread = r.thread and t.turn = r.turn
left join turns lt on lt.thread = r.thread and lt.turn = last.last_turn
where (r.kind = 'question' and r.status in ('open', 'deferred'))
   or (r.kind = 'commitment' and r.status = 'active' and r.subtype in ('promised', 'agreed'))
order by age_seconds desc nulls last, age_turns desc, r.thread, r.turn, r.start
"""

#: Every commitment with its state (subtype), status and who made it.
COMMITMENTS = """
create view commitments as
select thread, id, subtype, status, turn, role,
       coalesce(json_extract(attrs, '$.actor'), role) as actor,
       json_extract(attrs, '$.condition') as condition,
       text, status_turn, value, attrs
from records where kind = 'commitment'
order by thread, turn, start
"""

#: Constraints still in force: active, or satisfied (met by a later turn, still binding).
CONSTRAINTS = """
create view constraints as
select thread, id, subtype, status, turn, role, text, status_turn, attrs
from records where kind = 'constraint' and status in ('active', 'satisfied')
order by thread, turn, start
"""

#: One thread's history in turn order: each pin where it was stated, then each change
#: of status or subtype with the turn and evidence that caused it (``seq`` and ``pos``
#: order the entries of one turn).
TIMELINE = """
create view timeline as
select thread, turn, seq, pos, entry, record_id, kind, detail, role, text, value from (
    select thread, turn, 0 as seq, start as pos, 'pinned' as entry, id as record_id, kind,
           subtype || ', now ' || status as detail, role, text, value
    from records
    union all
    select e.thread, e.turn, 1, e.id, e.field, e.record_id, r.kind,
           coalesce(e.old, '') || ' → ' || e.new, e.by_role,
           coalesce(e.evidence_text, e.note, ''), null
    from events e left join records r on r.thread = e.thread and r.id = e.record_id
)
order by thread, turn, seq, pos
"""

PLAIN_VIEWS = {"open_items": OPEN_ITEMS, "commitments": COMMITMENTS,
               "constraints": CONSTRAINTS, "timeline": TIMELINE}


def missing_fields_sql(state_tables: Iterable[str]) -> str:
    """The ``missing_fields`` view over the given state tables: one row per required
    field an attached schema still misses, with the turn the state was computed at."""
    parts = [f"select s.thread, ts.schema, f.value as missing, s.last_turn "
             f"from [{name}] s join thread_schemas ts on ts.thread = s.thread "
             f"and ts.table_name = '{name}', json_each(coalesce(s.missing, '[]')) f"
             for name in sorted(state_tables)]
    body = " union all ".join(parts) or (
        "select null as thread, null as schema, null as missing, null as last_turn where 0")
    return f"create view missing_fields as select * from ({body}) order by thread, schema"


def create_views(conn: sqlite3.Connection, state_tables: Iterable[str]) -> None:
    """(Re)create every view; run inside the caller's write transaction."""
    for name, sql in PLAIN_VIEWS.items():
        conn.execute(f"drop view if exists {name}")
        conn.execute(sql)
    refresh_missing_fields(conn, state_tables)


def refresh_missing_fields(conn: sqlite3.Connection, state_tables: Iterable[str]) -> None:
    """Recreate ``missing_fields`` over the state tables there are now."""
    conn.execute("drop view if exists missing_fields")
    conn.execute(missing_fields_sql(state_tables))
