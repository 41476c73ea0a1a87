"""Identifiers released or cancelled by a later turn stop being carried forward."""

from __future__ import annotations

import pytest

RELEASED = [
    ('{"hold_id": "HLD-30417"}', '{"released": "HLD-30417"}'),
    ("Your booking reference is BK-55120.", "I have cancelled booking BK-55120 as asked."),
    ("Ticket INC-40021 is open.", "INC-40021 was replaced by INC-40022."),
    ("Reservation R-88123 holds your table.", "Reservation R-88123 has been cancelled."),
    ("Your hold is HLD-30417.", "Released: HLD-30417"),
]
KEPT = [
    ("Your booking reference is BK-55120.", "Booking BK-55120 is confirmed for Monday."),
    ("Hold HLD-30417 is in place.", "Please keep HLD-30417. I released the other one earlier. "
     "Then again the new slot works."),
    ("Call-back on BK-55120 noted.", "I'm releasing the old hold and adding a note for BK-55120."),
    ("Ticket INC-40021 is open.", "I cancelled the duplicate, so INC-40021 stays open."),
]


def ingest(pad, first: str, second: str) -> None:
    """Two turns: a tool's JSON, or the agent's words (a tool's plain text would be held
    until someone restates its values: scratchpad.held)."""
    pad.ingest("t", [{"role": "tool" if text.startswith("{") else "assistant", "content": text}
                     for text in (first, second)])


@pytest.mark.parametrize("first, second", RELEASED)
def test_release_supersedes_every_mention(pad, first, second):
    ingest(pad, first, second)
    ids = pad.records("t", kind="identifier")
    ref = ids[0].text
    same = [r for r in ids if r.text == ref]
    assert len(same) >= 2 and all(r.status == "superseded" for r in same)
    (event, *_) = [e for e in pad.events("t") if e.record_id == same[0].id]
    assert event.turn == 2 and ref in event.evidence_text


@pytest.mark.parametrize("first, second", KEPT)
def test_mention_without_cue_keeps_it_active(pad, first, second):
    ingest(pad, first, second)
    ids = pad.records("t", kind="identifier")
    assert ids and all(r.status == "active" for r in ids)
