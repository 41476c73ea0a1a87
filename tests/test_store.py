"""The store: migrations, WAL, idempotent ingest, conflicts, atomic turns."""

from __future__ import annotations

import sqlite3

import pytest

from scratchpad import Scratchpad, TurnConflictError
from scratchpad.store.migrations import MIGRATIONS
from scratchpad.store.sqlite import SQLiteStore as Store

CONVERSATION = [
    {"role": "system", "content": "You are a support agent."},
    {"role": "user", "content": "My order is A-77215 and I want €930 back."},
    {"role": "assistant", "content": "I can see order A-77215. Is the machine complete?"},
]


def table_counts(path) -> dict[str, int]:
    con = sqlite3.connect(path)
    try:
        return {t: con.execute(f"select count(*) from {t}").fetchone()[0]
                for t in ("threads", "turns", "records", "events")}
    finally:
        con.close()


def test_migrations_are_recorded_and_not_reapplied(tmp_path):
    path = tmp_path / "s.db"
    Store(path).close()
    store = Store(path)
    names = [row["name"] for row in store.db["_migrations"].rows]
    assert names == [fn.__name__ for fn in MIGRATIONS]
    assert store.db.execute("pragma journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("pragma busy_timeout").fetchone()[0] > 0
    assert {"idx_records_status_kind", "idx_events_record"} <= {
        i.name for t in ("records", "events") for i in store.db[t].indexes}


def test_system_messages_are_not_turns(pad):
    result = pad.ingest("t", CONVERSATION)
    assert result.new_turns == [1, 2]
    turns = pad.store.turns("t")
    assert [(t.turn, t.role) for t in turns] == [(1, "user"), (2, "assistant")]
    assert all(t.tokens > 0 and len(t.content_hash) == 64 for t in turns)


def test_reingest_adds_nothing_and_continues_numbering(tmp_path):
    path = tmp_path / "s.db"
    with Scratchpad(path) as pad:
        pad.ingest("t", CONVERSATION)
    before = table_counts(path)
    with Scratchpad(path) as pad:
        assert pad.ingest("t", CONVERSATION).skipped
    assert table_counts(path) == before
    longer = CONVERSATION + [{"role": "user", "content": "Yes, it is complete."}]
    with Scratchpad(path) as pad:
        assert pad.ingest("t", longer).new_turns == [3]
        assert [r.turn for r in pad.records("t", kind="question")] == [2]


def test_edited_turn_is_refused_and_can_be_rebuilt(tmp_path):
    path = tmp_path / "s.db"
    with Scratchpad(path) as pad:
        pad.ingest("t", CONVERSATION)
    before = table_counts(path)
    edited = [dict(m) for m in CONVERSATION]
    edited[2]["content"] = "I can see order A-77216."
    with Scratchpad(path) as pad:
        with pytest.raises(TurnConflictError, match=r"Turn 2 of thread 't'.*--rebuild"):
            pad.ingest("t", edited)
    assert table_counts(path) == before
    with Scratchpad(path) as pad:
        assert pad.ingest("t", edited, rebuild=True).new_turns == [1, 2]
        assert "A-77216" in pad.store.turns("t")[1].content


def test_failed_turn_leaves_no_partial_write(tmp_path, monkeypatch):
    path = tmp_path / "s.db"
    with Scratchpad(path) as pad:
        original = pad.store._insert

        def boom(table, rows, *args, **kwargs):
            if table == "records":  # after the thread and the turn were written
                raise RuntimeError("disk full")
            return original(table, rows, *args, **kwargs)

        monkeypatch.setattr(pad.store, "_insert", boom)
        with pytest.raises(RuntimeError):
            pad.ingest("t", CONVERSATION)
        monkeypatch.undo()
    assert table_counts(path) == {"threads": 0, "turns": 0, "records": 0, "events": 0}


def test_turns_know_who_spoke_last(pad, monkeypatch):
    seen = {}
    original = pad.processor.process

    def spy(view, doc, live):
        seen[view.number] = view.previous_by_role
        return original(view, doc, live)

    monkeypatch.setattr(pad.processor, "process", spy)
    pad.ingest("t", CONVERSATION)
    more = CONVERSATION + [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "user", "content": "Yes."},
    ]
    pad.ingest("t", more)
    assert seen[1] == {} and seen[2] == {"user": 1}
    assert seen[4] == {"user": 1, "assistant": 2}  # the tool-call-only turn 3 has no text


def test_a_file_from_before_salience_is_migrated(tmp_path, espresso_messages):
    """A file written before value groups and the conservative token count: opening it
    groups its values (salience for every record) and forgets the old turn counts, which
    compaction then counts afresh from the messages."""
    from scratchpad.compaction import compact
    from scratchpad.salience import SHOW_FROM

    path = tmp_path / "old.db"
    with Scratchpad(path) as pad:
        pad.ingest("e", espresso_messages)
        fresh_before = compact(espresso_messages, pad=pad, thread="e",
                               window=100_000).log["tokens_before"]
    con = sqlite3.connect(path)
    con.executescript("""
        drop table value_groups;
        drop index idx_records_thread_value_key;
        alter table records drop column value_key;
        update turns set tokens = 1;
        delete from _migrations where name in ('m006_value_groups', 'm007_recount_turn_tokens');
    """)
    con.commit()
    con.close()
    with Scratchpad(path) as pad:
        records = pad.records("e")
        order = next(r for r in records if r.text == "A-77215" and r.turn == 1)
        assert order.salience >= SHOW_FROM
        assert all(r.salience is not None for r in records)
        assert pad.store.turn_tokens("e", range(1, 42)) == {}
        assert compact(espresso_messages, pad=pad, thread="e",
                       window=100_000).log["tokens_before"] == fresh_before
        assert 'ID: order "A-77215" (user, turn 1)' in pad.render("e")


def test_a_turn_write_inserts_updates_and_upserts_what_it_is_given(tmp_path):
    """add_turn's plain-SQL writes: a new record, the same record changed by a later turn,
    its event, and a value group written twice under one key (the second replaces it)."""
    from scratchpad.records import Event, Kind, Record, Status
    from scratchpad.salience import ValueGroup
    from scratchpad.store.base import StoredTurn

    store = Store(str(tmp_path / "t.db"))
    text = "Is order A-77215 refunded?"

    def turn(n: int, role: str) -> StoredTurn:
        return StoredTurn(thread="t", turn=n, role=role, content=text, content_hash=f"h{n}",
                          tokens=7, message={"role": role, "content": text, "n": "é"})

    question = Record(id="question:1:0-26", thread="t", kind=Kind.QUESTION, subtype="yesno",
                      text=text, turn=1, role="user", start=0, end=26, status=Status.OPEN,
                      extractor="test", confidence=0.9, attrs={"b": 1, "a": [2]})
    store.add_turn(turn(1, "user"), [question], [], [],
                   [ValueGroup(thread="t", key="identifier|a-77215", prose_turns=1,
                               last_prose_turn=1, by_user=True)])
    answered = question.model_copy(update={"status": Status.ANSWERED, "status_turn": 2})
    event = Event(thread="t", record_id=question.id, turn=2, field="status", old="open",
                  new="answered", evidence_start=0, evidence_end=3, evidence_text="Yes",
                  by_role="assistant", note="test")
    store.add_turn(turn(2, "assistant"), [], [answered], [event],
                   [ValueGroup(thread="t", key="identifier|a-77215", prose_turns=2,
                               last_prose_turn=2, by_user=True, by_assistant=True)])

    [back] = store.records("t")
    assert (back.status, back.status_turn, back.attrs) == (Status.ANSWERED, 2,
                                                         {"a": [2], "b": 1})
    assert [(e.old, e.new, e.evidence_text) for e in store.events("t")] == [
        ("open", "answered", "Yes")]
    [group] = store.value_groups("t", ["identifier|a-77215"]).values()
    assert (group.prose_turns, group.last_prose_turn, group.by_assistant) == (2, 2, True)
    assert [t.message["n"] for t in store.turns("t")] == ["é", "é"]
    assert store.threads() == ["t"]
    store.close()
