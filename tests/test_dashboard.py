"""The dashboard: the SQL views a migration creates, the Datasette plugin's canned queries
and cells, and ``scratchpad serve`` itself, read over HTTP and in headless Chromium."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from datasette.app import Datasette

from scratchpad import Scratchpad
from scratchpad.dashboard.cells import cell_html, duration, json_html
from scratchpad.dashboard.queries import QUERIES
from scratchpad.messages import read_messages
from tests.dashboard_site import (
    ROOT,
    SCRATCHPAD,
    build_db,
    chromium,
    chromium_path,
    get_json,
    serving,
)

QUESTION = ("Should the original €18 delivery charge be refunded too, or would you rather "
            "I leave that on the order?")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("dashboard") / "scratchpad.db")


def rows(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(row) for row in conn.execute(sql, params)]


def datasette_get(paths: list[Path], url: str) -> Any:
    async def fetch() -> Any:
        response = await Datasette([str(p) for p in paths]).client.get(url)
        return response.status_code, response.text
    return asyncio.run(fetch())


# -- the views, as any SQL tool reads them -------------------------------------------

def test_open_items_view_holds_the_deferred_question_with_its_age(db: Path) -> None:
    items = rows(db, "select * from open_items where thread = 'espresso'")
    question = [r for r in items if r["kind"] == "question"]
    assert [(q["text"], q["status"], q["turn"], q["age_turns"]) for q in question] == [
        (QUESTION, "deferred", 14, 27)]
    kept = {r["text"] for r in items if r["kind"] == "commitment"}
    assert "The refund would be €930" in kept
    # granted (done) and superseded commitments are not still to be kept
    assert not any("waived" in text for text in kept)


def test_open_items_age_in_time_where_messages_carry_timestamps(db: Path) -> None:
    timed = rows(db, "select age_turns, age_seconds from open_items where thread = 'ticket-02'")
    assert timed and all(r["age_seconds"] == r["age_turns"] * 7 * 60 for r in timed)
    assert all(r["age_seconds"] is None
               for r in rows(db, "select age_seconds from open_items where thread = 'espresso'"))
    order = rows(db, "select thread, age_turns, age_seconds from open_items")
    ages = [(r["age_seconds"] is None, -(r["age_seconds"] or 0), -r["age_turns"]) for r in order]
    assert ages == sorted(ages)  # oldest first: by time where known, else by turns


def test_commitments_constraints_and_timeline_views(db: Path) -> None:
    commitments = rows(db, "select subtype, status, actor, text from commitments "
                           "where thread = 'espresso'")
    assert {"subtype": "granted", "status": "active", "actor": "assistant",
            "text": "I've waived the €75 restocking fee for this return"} in commitments
    constraints = rows(db, "select status, text from constraints where thread = 'espresso'")
    assert constraints == [{"status": "satisfied",
                            "text": "I'm not paying a restocking fee on top of that"}]
    timeline = rows(db, "select turn, entry, record_id, detail, text from timeline "
                        "where thread = 'espresso' order by turn, seq, pos")
    turns = [r["turn"] for r in timeline]
    assert turns == sorted(turns)
    changes = [r for r in timeline if r["record_id"] == "question:14:106-209"]
    assert [(r["turn"], r["entry"], r["detail"]) for r in changes] == [
        (14, "pinned", "choice, now deferred"), (15, "status", "open → deferred")]


def test_missing_fields_view_follows_state_tables_made_after_the_migration(db: Path) -> None:
    # the views were created before any schema was attached: the store recreated
    # missing_fields when each state table appeared
    assert rows(db, "select thread, schema, missing from missing_fields") == [
        {"thread": "ticket-01", "schema": "ticket", "missing": "ticket id: not given"}]


# -- the plugin, in Datasette's own test client ---------------------------------------

def test_every_canned_query_answers(db: Path) -> None:
    for name in QUERIES:
        status, _ = datasette_get([db], f"/scratchpad/{name}.json?_shape=array&thread=espresso")
        assert status == 200, name
    status, text = datasette_get([db], "/scratchpad/commitments.json?_shape=array&thread=")
    assert status == 200 and "ticket-01" in text and "espresso" in text  # empty: all threads


def test_cells_show_values_and_attributes_readably(db: Path) -> None:
    _, page = datasette_get([db], "/scratchpad/timeline?thread=espresso")
    assert "1240.0 EUR" in page
    _, page = datasette_get([db], "/scratchpad/constraints?thread=espresso")
    assert "<strong>satisfied_text</strong>: “I&#x27;ve waived the €75" in page


def test_plugin_leaves_other_databases_alone(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("create table records (value text)")
        conn.execute("""insert into records values ('{"amount": "1", "currency": "EUR"}')""")
    status, _ = datasette_get([other], "/other/open_items.json")
    assert status == 404
    _, page = datasette_get([other], "/other/records")
    assert "1 EUR" not in page


def test_cell_html_escapes_stored_text() -> None:
    shown = json_html('{"quote": "<script>alert(1)</script>", "turns": [3, 4]}')
    assert shown == ("<strong>quote</strong>: “&lt;script&gt;alert(1)&lt;/script&gt;”<br>"
                     "<strong>turns</strong>: 3, 4")
    assert json_html("not json") is None and json_html("[1]") is None
    assert cell_html("text", "<b>") is None
    assert [duration(s) for s in (5, 60, 3600 + 20 * 60 + 9, 2 * 86400 + 3 * 3600 + 59)] == [
        "5 s", "1 min", "1 h 20 min", "2 d 3 h"]


# -- scratchpad serve, over HTTP and in a real browser --------------------------------

def test_serve_without_a_database_is_a_one_line_error(tmp_path: Path) -> None:
    done = subprocess.run([str(SCRATCHPAD), "serve", "--db", str(tmp_path / "none.db")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"Error: No database at '{tmp_path / 'none.db'}'. Run 'scratchpad ingest' first or "
        f"pass --db."]


@pytest.mark.skipif(chromium_path() is None and not os.environ.get("CI"),
                    reason="Chromium is not installed here (.ci/run installs it)")
def test_serve_in_headless_chromium(db: Path, tmp_path: Path) -> None:
    with serving(db) as base:
        items = get_json(f"{base}/scratchpad/open_items.json?_shape=array")
        question = [i for i in items if i["text"] == QUESTION]
        assert [(q["thread"], q["status"], q["age_turns"]) for q in question] == [
            ("espresso", "deferred", 27)]

        page = chromium(f"{base}/scratchpad/open_items", screenshot=tmp_path / "open_items.png")
        assert "Open items" in page and "€18 delivery charge" in page
        assert "42 min" in page  # ticket-02's oldest promise, its age shown as time
        timeline = chromium(f"{base}/scratchpad/timeline?thread=espresso",
                            screenshot=tmp_path / "timeline.png")
        assert "Thread timeline" in timeline and "COL-66104" in timeline
        assert "open → deferred" in timeline
    for shot in ("open_items.png", "timeline.png"):
        assert (tmp_path / shot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (tmp_path / shot).stat().st_size > 20_000


def test_a_file_made_before_the_views_gets_them_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    build = Scratchpad(path)
    build.attach("e", "ticket")
    build.ingest("e", read_messages(ROOT / "examples" / "espresso.jsonl")[:16])
    build.close()
    with sqlite3.connect(path) as conn:  # as a file written before the views existed
        for view in ("open_items", "commitments", "constraints", "timeline", "missing_fields"):
            conn.execute(f"drop view {view}")
        conn.execute("delete from _migrations where name = 'm009_dashboard_views'")
    with Scratchpad(path, extractors=[]):
        pass
    assert [r["text"] for r in rows(path, "select text from open_items where kind = 'question'")
            ] == [QUESTION]
    assert rows(path, "select count(*) as n from timeline")[0]["n"] > 0
    assert rows(path, "select schema, missing from missing_fields") == [
        {"schema": "ticket", "missing": "ticket id: not given"}]


def test_serve_on_a_port_in_use_is_a_one_line_error(db: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run([str(SCRATCHPAD), "serve", "--db", str(db), "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"Error: cannot listen on 127.0.0.1:{port}: Address already in use; pass another "
        f"--port or --host"]
