"""Values of a tool's plain-text output wait until a later turn relies on them
(scratchpad.held): held in the store, released as records of their tool turn."""

from __future__ import annotations

from scratchpad import Scratchpad

LISTING = "db/migrations/V85__orders.sql\ndb/migrations/V86__idx.sql\nscripts/seed_demo.py"


def call(name: str, arguments: str = "{}") -> dict:
    return {"role": "assistant", "content": "",
            "tool_calls": [{"id": f"c-{name}", "type": "function",
                            "function": {"name": name, "arguments": arguments}}]}


def result(name: str, content: str) -> dict:
    return {"role": "tool", "tool_call_id": f"c-{name}", "content": content}


def paths(pad: Scratchpad, thread: str = "t") -> list[tuple[int, str, str]]:
    return [(r.turn, r.role, r.text) for r in pad.records(thread, kind="identifier")]


def test_a_listed_path_nobody_uses_is_no_record():
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", [{"role": "user", "content": "What migrations are there?"},
                         call("ls"), result("ls", LISTING),
                         {"role": "assistant", "content": "There are two migrations."}])
        assert paths(pad) == []


def test_a_listed_path_restated_later_becomes_a_record_of_the_tool_turn():
    messages = [{"role": "user", "content": "What migrations are there?"},
                call("ls"), result("ls", LISTING)]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)  # the restatement arrives in a later ingest
        assert paths(pad) == []
        pad.ingest("t", [*messages, {"role": "assistant",
                                     "content": "The latest is db/migrations/V86__idx.sql."}])
        assert paths(pad) == [(3, "tool", "db/migrations/V86__idx.sql"),
                              (4, "assistant", "db/migrations/V86__idx.sql")]
        (held,) = [r for r in pad.records("t") if r.turn == 3]
        content = messages[2]["content"]
        assert content[held.start:held.end] == held.text  # verbatim, in its own turn
        # released once: a second restatement adds only its own mention
        pad.ingest("t", [*messages, {"role": "assistant",
                                     "content": "The latest is db/migrations/V86__idx.sql."},
                         {"role": "user", "content": "Open db/migrations/V86__idx.sql then."}])
        assert [t for t, _, _ in paths(pad)] == [3, 4, 5]


def test_a_file_name_restated_alone_releases_its_full_path():
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", [call("ls"), result("ls", LISTING),
                         {"role": "user", "content": "Delete seed_demo.py please."}])
        assert (2, "tool", "scripts/seed_demo.py") in paths(pad)


def test_json_results_and_edited_files_are_pinned_at_once():
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", [call("get_order"), result("get_order", '{"order_id": "A-77215"}'),
                         call("edit_file", '{"path": "src/app.py"}'),
                         result("edit_file", "ok: src/app.py (+3 -1)")])
        assert paths(pad) == [(2, "tool", "A-77215"), (4, "tool", "src/app.py")]


def test_deleting_a_thread_forgets_what_it_held():
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", [call("ls"), result("ls", LISTING)])
        pad.store.delete_thread("t")
        pad.ingest("t", [{"role": "user", "content": "Open scripts/seed_demo.py"}])
        assert paths(pad) == [(1, "user", "scripts/seed_demo.py")]
