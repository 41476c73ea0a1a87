"""Open items as a dashboard lists them: each open or deferred question with its age, in
turns and (when the messages carry timestamps) in time, and the missing schema fields,
by thread or oldest first."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from scratchpad.messages import as_utc
from scratchpad.records import MissingField, OpenItem, Record
from scratchpad.store import Store


def aged(store: Store, items: Sequence[Record]) -> list[OpenItem]:
    """``items`` with their age: turns since, and seconds since when both turns carry a
    timestamp."""
    last = store.last_turn_times({r.thread for r in items})
    out = []
    for r in items:
        last_turn, last_time = last.get(r.thread, (r.turn, None))
        asked = store.turn_timestamp(r.thread, r.turn)
        seconds = None
        if asked and last_time:
            # as_utc: files written before timestamps were stored in UTC mix naive and
            # zoned ones
            seconds = (as_utc(datetime.fromisoformat(last_time))
                       - as_utc(datetime.fromisoformat(asked))).total_seconds()
        out.append(OpenItem(**r.model_dump(), age_turns=last_turn - r.turn,
                            age_seconds=seconds))
    return out


def ordered(items: list[OpenItem], fields: list[MissingField],
            sort: Literal["thread", "age"]) -> list[OpenItem | MissingField]:
    """``sort="thread"``: by thread, questions in turn order, then the missing fields;
    ``sort="age"``: the missing fields (missing since the thread began: the oldest), then
    the questions oldest first, by time where known, else by turns."""
    if sort == "age":
        items = sorted(items, key=lambda o: (-(o.age_seconds if o.age_seconds is not None
                                               else -1), -o.age_turns, o.thread, o.turn,
                                             o.start))
        return [*fields, *items]
    by_thread: dict[str, list[OpenItem | MissingField]] = {}
    for item in [*items, *fields]:
        by_thread.setdefault(item.thread, []).append(item)
    return [item for name in sorted(by_thread) for item in by_thread[name]]
