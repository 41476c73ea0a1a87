"""End to end on the espresso example: statuses, provenance, verbatim spans."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scratchpad import Scratchpad
from scratchpad.errors import TurnConflictError


def test_every_record_is_verbatim(espresso_pad, espresso_messages):
    turns = [m for m in espresso_messages if m["role"] != "system"]
    for rec in espresso_pad.records("espresso"):
        assert (turns[rec.turn - 1]["content"] or "")[rec.start:rec.end] == rec.text
        assert rec.role == turns[rec.turn - 1]["role"]


def test_refund_offered_then_agreed(espresso_pad):
    (refund,) = [r for r in espresso_pad.records("espresso", kind="commitment")
                 if "€930" in r.text]
    assert (refund.turn, refund.subtype, refund.status_turn) == (12, "agreed", 13)
    events = [e for e in espresso_pad.events("espresso") if e.record_id == refund.id]
    assert [(e.field, e.old, e.new, e.turn) for e in events] == [
        ("subtype", "offered", "agreed", 13)]
    assert "€930 works" in events[0].evidence_text


def test_only_the_delivery_charge_question_is_open(espresso_pad):
    (item,) = espresso_pad.open_items("espresso")
    assert item.turn == 14 and "€18 delivery charge" in item.text
    assert item.status == "deferred" and item.status_turn == 15


def test_released_hold_is_not_active(espresso_pad):
    holds = [r for r in espresso_pad.records("espresso", kind="identifier")
             if r.text == "HLD-30417"]
    assert holds and all(r.status == "superseded" for r in holds)


def test_amount_values_are_decimal(espresso_pad):
    amounts = {r.text: r.money for r in espresso_pad.records("espresso", kind="amount")}
    assert str(amounts["€930"].amount) == "930" and amounts["€930"].currency == "EUR"
    assert str(amounts["€1,240"].amount) == "1240"


TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=400) | st.from_regex(
    r"[0-9,.€$ :/\-A-Za-z?]{0,300}", fullmatch=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["user", "assistant", "tool"]), TEXT),
                min_size=1, max_size=4))
def test_property_every_record_is_verbatim(turns):
    messages = [{"role": role, "content": text} for role, text in turns]
    with Scratchpad(":memory:") as pad:
        pad.ingest("p", messages)
        for rec in pad.records("p"):
            content = messages[rec.turn - 1]["content"]
            assert 0 <= rec.start <= rec.end <= len(content)
            assert content[rec.start:rec.end] == rec.text
        pad.render("p")


def test_reference_date_comes_from_caller_then_timestamp():
    from datetime import datetime

    seen = {}

    def spy(pad):
        original = pad.processor.process

        def wrapped(view, doc, live):
            seen[view.number] = view.reference
            return original(view, doc, live)

        pad.processor.process = wrapped

    messages = [{"role": "user", "content": "Can you collect it tomorrow?",
                 "timestamp": "2026-11-29T10:00:00+00:00"},
                {"role": "assistant", "content": "Yes, tomorrow works."}]
    with Scratchpad(":memory:") as pad:
        spy(pad)
        pad.ingest("t", messages)
    assert seen[1] == datetime.fromisoformat("2026-11-29T10:00:00+00:00") and seen[2] is None
    with Scratchpad(":memory:", reference_date=datetime(2026, 12, 1)) as pad:
        spy(pad)
        pad.ingest("t", messages)
    assert seen == {1: datetime(2026, 12, 1), 2: datetime(2026, 12, 1)}


def test_unknown_date_order_is_refused() -> None:
    with pytest.raises(ValueError, match="date_order"):
        Scratchpad(":memory:", date_order="ymd")  # type: ignore[arg-type]


def test_tool_output_is_not_parsed(monkeypatch) -> None:
    from extractors.text import nlp as nlp_module

    seen: list[str] = []
    real = nlp_module.annotate

    def spy(nlp, requests, batch_size=64):
        seen.extend(text for text, _ in requests)
        return real(nlp, requests, batch_size)

    monkeypatch.setattr(nlp_module, "annotate", spy)
    call = {"id": "c1", "type": "function",
            "function": {"name": "lookup_order", "arguments": '{"order_id": "A-77215"}'}}
    messages = [
        {"role": "user", "content": "Where is order A-77215?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"order_id": "A-77215", "total": 930}'},
        {"role": "assistant", "content": "It ships tomorrow."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        assert not any("total" in text for text in seen)  # the tool JSON was never parsed
        assert "Where is order A-77215?" in seen
        assert {r.text for r in pad.records("t")} >= {"A-77215", "930", "tomorrow"}


def test_extend_continues_a_thread_from_the_new_messages_alone() -> None:
    call = {"id": "c9", "type": "function",
            "function": {"name": "cancel_hold", "arguments": '{"hold": "HLD-30417"}'}}
    first = [{"role": "user", "content": "Please hold the Wednesday slot."},
             {"role": "assistant", "content": "I'll hold it as HLD-30417."}]
    later = [{"role": "assistant", "content": None, "tool_calls": [call]},
             {"role": "tool", "tool_call_id": "c9", "content": '{"released": "HLD-30417"}'}]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", first)
        result = pad.extend("t", later[1:], context=later[:1])  # the call is only context
        assert result.new_turns == [3]
        assert pad.store.turn_count("t") == 3
        with pytest.raises(TurnConflictError):  # turn 3 is the result, not the call
            pad.ingest("t", first + later)
        assert pad.extend("t", []).new_turns == []
    with Scratchpad(":memory:") as pad:
        assert pad.extend("new", first).new_turns == [1, 2]
        assert pad.store.turn_numbers("new", [pad.store.turn_hashes("new")[1], "x"]) == {
            pad.store.turn_hashes("new")[1]: [2]}
        assert pad.store.turn_tokens("new", [2, 7]).keys() == {2}


def test_every_subtype_of_a_closed_kind_is_named_in_its_enum(espresso_pad) -> None:
    from extractors.records import SUBTYPES

    records = espresso_pad.records("espresso")
    assert {r.kind for r in records} >= {"amount", "datetime", "commitment", "constraint",
                                         "question"}
    for r in records:
        assert r.kind not in SUBTYPES or r.subtype in SUBTYPES[r.kind], (r.kind, r.subtype)
