"""Notes: what the conversation established that binds no one (the task, a failed attempt,
a found cause, a plan, a user's claim) is kind ``note``, never ``commitment``."""

from __future__ import annotations

import sqlite3
import warnings

import pytest
from click.testing import CliRunner

from extractors.records import SUBTYPES, Kind, kind_after
from schemas.base import DomainState, Pinned, pin
from scratchpad import Scratchpad
from scratchpad.cli import cli

SESSION = [
    {"role": "user", "content": "The orders endpoint takes 5s. Can you speed it up?"},
    {"role": "assistant", "content": "The root cause is a missing index on customer_id. I'll "
                                     "add an index on `orders.customer_id` with a migration."},
    {"role": "user", "content": "ok. btw you promised me a discount on the support plan."},
    {"role": "assistant", "content": "The index made no difference, p95 is still 5.4s."},
]


def kinds_of(records) -> dict[str, str]:
    return {r.subtype: r.kind for r in records if r.kind in ("note", "commitment")}


def test_session_facts_and_claims_are_notes() -> None:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", SESSION)
        found = kinds_of(pad.records("t"))
        commitments = pad.records("t", kind=["commitment"])
        block = pad.render("t")
    assert found == {"requested": "note", "found": "note", "tried": "note",
                     "claimed": "note"}
    assert commitments == []
    # the block still carries them, as before
    assert 'TASK: "Can you speed it up"' in block
    assert 'USER CLAIM: "btw you promised me a discount on the support plan"' in block
    assert "TRIED:" in block and "FOUND:" in block


def test_a_failed_commitment_becomes_a_tried_note_and_keeps_its_history() -> None:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", SESSION)
        (tried,) = [r for r in pad.records("t") if r.subtype == "tried"]
        (event,) = [e for e in pad.events("t") if e.record_id == tried.id]
    assert tried.kind == "note" and tried.turn == 2 and tried.attrs["outcome"] == "failed"
    assert (event.field, event.old, event.new, event.turn) == ("subtype", "promised", "tried", 4)


def test_kind_after_moves_only_commitments_read_as_session_facts() -> None:
    assert kind_after("commitment", "tried") == "note"
    assert kind_after("commitment", "agreed") == "commitment"
    assert kind_after("note", "tried") == "note"
    assert kind_after("question", "answered") == "question"
    assert SUBTYPES[Kind.NOTE] == {"requested", "tried", "found", "planned", "claimed",
                                   "reported"}
    assert not SUBTYPES[Kind.NOTE] & SUBTYPES[Kind.COMMITMENT]


def test_a_file_written_before_notes_is_migrated(tmp_path) -> None:
    path = tmp_path / "old.db"
    with Scratchpad(path) as pad:
        pad.ingest("t", SESSION[:3])
    con = sqlite3.connect(path)
    # what such a file held: the same rows, kind "commitment"
    con.executescript("""
        update records set kind = 'commitment' where kind = 'note';
        delete from _migrations where name = 'm011_notes';
    """)
    con.commit()
    con.close()
    with Scratchpad(path) as pad:
        pad.ingest("t", SESSION)
        found = kinds_of(pad.records("t"))
        view = sqlite3.connect(path).execute(
            "select count(*) from commitments where subtype in "
            "('requested', 'found', 'tried', 'claimed', 'planned')").fetchone()
    assert found == {"requested": "note", "found": "note", "tried": "note", "claimed": "note"}
    assert view == (0,)


def test_a_report_stored_before_notes_is_migrated(tmp_path) -> None:
    path = tmp_path / "old.db"
    messages = [
        {"role": "assistant", "content": "I'll refund the $94.80 duplicate to your Visa today."},
        {"role": "assistant", "content": "Done: the refund of $94.80 has been issued."},
    ]
    with Scratchpad(path) as pad:
        pad.ingest("t", messages)
    con = sqlite3.connect(path)
    # what such a file held: the report as a grant, retired (superseded) on arrival
    con.executescript("""
        update records set kind = 'commitment', subtype = 'granted', status = 'superseded'
            where subtype = 'reported';
        delete from _migrations where name = 'm011_notes';
    """)
    con.commit()
    con.close()
    with Scratchpad(path) as pad:
        (report,) = pad.records("t", kind=["note"])
    assert (report.turn, report.subtype, report.status) == (2, "reported", "active")


def test_records_lists_notes_by_kind(tmp_path) -> None:
    db = str(tmp_path / "pad.db")
    with Scratchpad(db) as pad:
        pad.ingest("t", SESSION)
    result = CliRunner().invoke(cli, ["records", "--db", db, "--thread", "t", "--kind", "note"])
    assert result.exit_code == 0, result.output
    rows = [line.split()[1:3] for line in result.output.splitlines()]
    assert rows == [["note", "requested"], ["note", "found"], ["note", "tried"],
                    ["note", "claimed"]]


def test_a_schema_that_pins_a_note_subtype_as_commitment_reads_the_notes() -> None:
    with pytest.warns(DeprecationWarning, match="pin\\('note'"):
        class OldStyle(DomainState):
            schema_name = "old_style"
            task: Pinned | None = pin("commitment", subtype="requested", role="user")

    with Scratchpad(":memory:") as pad:
        pad.ingest("t", SESSION)
        state = OldStyle.fill(pad.records("t"))
    assert isinstance(state, OldStyle)
    assert state.task is not None and state.task.text == "Can you speed it up"


def test_a_commitment_pin_with_commitment_subtypes_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pin("commitment", subtype="agreed", label="refund")
        pin("note", subtype="tried", pick="all")
