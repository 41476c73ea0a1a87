"""The dashboard's canned queries, by name: what a support lead opens first.

Each reads one of the database's views (:mod:`scratchpad.store.views`), so the page and
any other SQL tool give the same answers. An empty ``thread`` parameter means every
thread.
"""

from __future__ import annotations

from typing import Any

_ANY_THREAD = "(:thread = '' or thread = :thread)"

QUERIES: dict[str, dict[str, Any]] = {
    "open_items": {
        "title": "Open items",
        "description": "Questions still open or deferred and commitments still to be kept, "
                       "across threads, oldest first. Age is counted to the thread's last "
                       "turn: in turns, and in time when the messages carry timestamps.",
        "sql": "select thread, kind, subtype, status, turn, role, age_turns, age_seconds, "
               "stated_at, text, id from open_items "
               "order by age_seconds desc nulls last, age_turns desc, thread, turn",
    },
    "commitments": {
        "title": "Commitments",
        "description": "Every commitment by status, then thread and turn; leave thread "
                       "empty for all threads.",
        "sql": "select status, subtype, thread, turn, actor, condition, text, status_turn, "
               f"value, id from commitments where {_ANY_THREAD} "
               "order by status, thread, turn",
    },
    "constraints": {
        "title": "Constraints in force",
        "description": "The user's constraints that still bind: active, or satisfied by a "
                       "later turn. Leave thread empty for all threads.",
        "sql": "select thread, turn, subtype, status, status_turn, text, attrs, id "
               f"from constraints where {_ANY_THREAD} order by thread, turn",
    },
    "missing_fields": {
        "title": "Missing fields",
        "description": "The required fields each attached schema still misses, per thread.",
        "sql": "select thread, schema, missing, last_turn from missing_fields "
               "order by thread, schema, missing",
    },
    "timeline": {
        "title": "Thread timeline",
        "description": "One thread in turn order: each pin where it was stated, and each "
                       "change of status with the turn and the words that caused it.",
        "sql": "select turn, entry, kind, detail, role, text, value, record_id from timeline "
               "where thread = :thread order by turn, seq, pos",
    },
}
