"""Answer linking: questions answered, deferred or withdrawn, by direct or later replies."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from extractors.base import Change, TurnView
from extractors.dialogue.answers import AnswerLinker
from extractors.dialogue.questions import RuleQuestions
from scratchpad.extraction import apply_change
from scratchpad.records import Kind, Record, Status
from tests.conftest import QUESTION_TEXT

EXTRACTOR = RuleQuestions()
LINKER = AnswerLinker()


def _turn(text: str, role: str, number: int, spoke: dict[str, int] | None = None) -> TurnView:
    return TurnView(thread="t", number=number, role=role, text=text,
                    previous_by_role=dict(spoke or {}))


def _dialogue(turns: list[tuple[str, str]]) -> tuple[dict[str, Record], list[tuple[int, Change]]]:
    """Run extractor and linker over (role, text) turns as the pipeline does."""
    records: dict[str, Record] = {}
    changes: list[tuple[int, Change]] = []
    spoke: dict[str, int] = {}
    for number, (role, text) in enumerate(turns, 1):
        view = _turn(text, role, number, spoke)
        if text.strip():
            spoke[role] = number
        new = [
            Record(id=f"question:{number}:{c.start}-{c.end}", thread="t", kind=Kind.QUESTION,
                   subtype=c.subtype, text=c.text, turn=number, role=role, start=c.start,
                   end=c.end, label=c.label, status=Status.OPEN, extractor=c.extractor,
                   confidence=c.score, attrs=c.attrs)
            for c in EXTRACTOR.extract(view)
        ]
        records.update((r.id, r) for r in new)
        live = [r for r in records.values() if r.status in ("open", "deferred")]
        for change in LINKER.resolve(view, None, new, live):
            changes.append((number, change))
            after, _ = apply_change(records[change.record_id], change, view, LINKER.name)
            if after is not None:
                records[after.id] = after
    return records, changes


def _status(records: dict[str, Record], fragment: str) -> tuple[str, int | None]:
    (record,) = [r for r in records.values() if fragment in r.text]
    return record.status, record.status_turn


def test_deferred_then_answered() -> None:
    records, changes = _dialogue([
        ("assistant", "The courier can do Tuesday 10:00-14:00, Wednesday 14:00-18:00 or "
                      "Thursday 14:00-18:00. Which works best for you?"),
        ("user", "Tuesday's no good, I'm at work. Is there anything on Saturday?"),
        ("assistant", "Unfortunately the courier doesn't collect at weekends."),
        ("user", "Wednesday might work, but I need to check with my partner."),
        ("assistant", "Would you like me to hold the Wednesday slot?"),
        ("user", "Yes please."),
        ("assistant", "Done, it is held until tomorrow."),
        ("user", "The courier slot on Thursday is fine."),
    ])
    deferral = next(c for n, c in changes if n == 4)
    assert deferral.new == "deferred"
    assert deferral.attrs == {"deferral": "Wednesday might work, but I need to check with my "
                                          "partner.", "deferral_turn": 4}
    assert _status(records, "Which works best") == ("answered", 8)
    assert _status(records, "Saturday") == ("answered", 3)
    assert _status(records, "hold the Wednesday") == ("answered", 6)


def test_never_answered_stays_deferred() -> None:
    records, _ = _dialogue([
        ("assistant", "Should the original €18 delivery charge be refunded too, or would you "
                      "rather I leave that on the order?"),
        ("user", "Let me check what I actually paid for delivery, one sec."),
        ("assistant", "No problem. Does Thursday afternoon suit you for the collection?"),
        ("user", "Yes please."),
        ("assistant", "Booked."),
        ("user", "Does the machine need to go back in the original box?"),
        ("assistant", "No, the courier brings packaging."),
        ("user", "Great, thanks."),
    ])
    assert _status(records, "delivery charge") == ("deferred", 2)
    assert _status(records, "Thursday afternoon") == ("answered", 4)


def test_answered_indirectly_after_tool_calls() -> None:
    records, _ = _dialogue([
        ("user", "Can the courier collect from my work address instead?"),
        ("assistant", ""),
        ("tool", '{"ok": true}'),
        ("assistant", "I've changed the collection address to 27 Mercer Street."),
    ])
    assert _status(records, "work address") == ("answered", 4)


def test_multi_question_turn() -> None:
    records, _ = _dialogue([
        ("assistant", "Departure city? Is this departing March 3rd?"),
        ("user", "Leaving today from Portland."),
        ("assistant", "How many tickets? And would you like a refundable fare?"),
        ("user", "Yes please."),
    ])
    assert _status(records, "Departure city") == ("answered", 2)
    assert _status(records, "March 3rd") == ("answered", 2)
    assert _status(records, "refundable") == ("answered", 4)
    assert _status(records, "How many") == ("open", None)  # a bare yes answers the latest only


def test_topic_drift_is_not_an_answer() -> None:
    records, _ = _dialogue([
        ("user", "What is the delivery charge on this order?"),
        ("assistant", "Let me look into it."),
        ("user", "Also, do you sell descaling tablets?"),
        ("assistant", "Yes, we stock them in the accessories section."),
    ])
    assert _status(records, "delivery charge") == ("deferred", 2)
    assert _status(records, "descaling") == ("answered", 4)


def test_failure_reply_does_not_answer() -> None:
    records, _ = _dialogue([
        ("user", "Yes that's right. What's their phone number?"),
        ("assistant", "Sorry, something went wrong and I couldn't book it."),
        ("user", "No thanks."),
        ("assistant", "Have a good day."),
    ])
    assert _status(records, "phone number") == ("open", None)


def test_a_clarifying_question_pauses_the_request_it_answers_later() -> None:
    records, changes = _dialogue([
        ("user", "Which dentists near me open on Saturdays?"),
        ("assistant", "Which town should I look in?"),
        ("user", "Harrogate."),
        ("assistant", "Dr Okafor's practice on Station Parade opens on Saturdays."),
    ])
    assert _status(records, "dentists") == ("answered", 4)
    asked_back = [c for n, c in changes if n == 2 and c.note == "asked back"]
    assert [c.attrs for c in asked_back] == [{"asked_back": 2}]


def test_a_question_about_a_proposal_pauses_it() -> None:
    records, _ = _dialogue([
        ("assistant", "Shall I book the 9:40 ferry for you?"),
        ("user", "How long does it take?"),
        ("assistant", "About an hour and ten minutes."),
        ("user", "Yes, go ahead."),
    ])
    assert _status(records, "ferry") == ("answered", 4)


def test_a_question_on_another_matter_leaves_the_proposal_open() -> None:
    records, _ = _dialogue([
        ("assistant", "Want me to reset your router remotely tonight?"),
        ("user", "When will the engineer call me back?"),
        ("assistant", "Tomorrow morning, before noon."),
        ("user", "ok"),
    ])
    assert _status(records, "router") == ("open", None)


@pytest.mark.parametrize("reply", ["What else do you have?", "What else is there?"])
def test_asking_for_other_options_settles_a_proposal(reply: str) -> None:
    records, changes = _dialogue([
        ("assistant", "The blue one is 40 pounds, is that alright?"),
        ("user", reply),
    ])
    assert _status(records, "alright") == ("answered", 2)
    assert [c.note for _, c in changes] == ["other options asked for"]


def test_a_statement_before_a_courtesy_question_answers() -> None:
    records, _ = _dialogue([
        ("user", "Great. What's their address?"),
        ("assistant", "Your table is booked, the restaurant is at 12 Hill Road, anything "
                      "else I can do?"),
    ])
    assert _status(records, "address") == ("answered", 2)


def test_a_failure_report_still_answers_yes_or_no() -> None:
    records, _ = _dialogue([
        ("user", "Can I get my money back on this fare?"),
        ("assistant", "Unfortunately no. This fare can't be refunded."),
    ])
    assert _status(records, "money back") == ("answered", 2)


def test_an_answer_given_inside_a_new_question() -> None:
    records, _ = _dialogue([
        ("assistant", "Which city are you in?"),
        ("user", "What's on in Leeds this weekend?"),
    ])
    assert _status(records, "Which city") == ("answered", 2)


def test_waving_off_the_other_party_question_settles_it() -> None:
    records, _ = _dialogue([
        ("assistant", "Two adult tickets for Friday, is this correct?"),
        ("user", "Never mind, I'll only need one ticket now."),
    ])
    assert _status(records, "correct") == ("answered", 2)


def test_withdrawn_by_asker() -> None:
    records, changes = _dialogue([
        ("user", "Is the box required?"),
        ("user", "Never mind, I found it."),
    ])
    assert _status(records, "box") == ("withdrawn", 2)
    assert changes[0][1].evidence_start == 0


def test_empty_assistant_turn_answers_nothing() -> None:
    records, changes = _dialogue([("user", "What's my balance?"), ("assistant", "")])
    assert changes == [] and _status(records, "balance") == ("open", None)


# -- direct replies (TurnView.previous_by_role) ------------------------------------------

def test_reply_after_the_asker_spoke_again_needs_strong_evidence() -> None:
    records, _ = _dialogue([
        ("user", "Is the box required?"),
        ("assistant", "Let me look into it."),
        ("user", "OK, thanks."),
        ("assistant", "Yes, we stock them in the accessories section."),
    ])
    # the asker moved on ("OK, thanks."): an unrelated yes does not close the question
    assert _status(records, "box") == ("deferred", 2)


def test_direct_reply_after_tool_calls_is_lenient() -> None:
    records, _ = _dialogue([
        ("assistant", "Should we ship it to your home?"),
        ("user", ""),
        ("tool", '{"ok": true}'),
        ("user", "Sure."),
    ])
    assert _status(records, "ship it") == ("answered", 4)


def test_old_question_answered_with_strong_evidence() -> None:
    records, _ = _dialogue([
        ("user", "What is the delivery charge?"),
        ("assistant", "Which order is it about?"),
        ("user", "Order A-77215."),
        ("assistant", "The delivery charge on that order was €18."),
    ])
    assert _status(records, "delivery charge") == ("answered", 4)
    assert _status(records, "Which order") == ("answered", 3)


# -- suggestions ----------------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "Where is it located?",
    "Is there anything else?",
    "Not right now.",
    "Sounds wonderful.",
    "I would like to rent the other one.",
])
def test_any_direct_reply_settles_a_suggestion(reply: str) -> None:
    records, changes = _dialogue([
        ("assistant", "How about the Argonaut Hotel, rated 4.4?"),
        ("user", reply),
    ])
    assert _status(records, "Argonaut") == ("answered", 2)
    (number, change), = changes
    assert change.evidence_start == 0 and change.evidence_end is not None


def test_offer_settled_by_a_counter_question() -> None:
    records, _ = _dialogue([
        ("assistant", "Would you like to watch Hackers? It is rated 6.2."),
        ("user", "Who's in this movie?"),
    ])
    assert _status(records, "watch Hackers") == ("answered", 2)


def test_suggestion_deferred_by_a_deferral() -> None:
    records, _ = _dialogue([
        ("assistant", "What about Wednesday afternoon?"),
        ("user", "Let me check with my partner first."),
    ])
    assert _status(records, "Wednesday") == ("deferred", 2)


def test_suggestion_without_a_direct_reply_stays_open() -> None:
    records, _ = _dialogue([
        ("assistant", "How about the 10:40 am bus?"),
        ("assistant", "It has 0 transfers."),
    ])
    assert _status(records, "10:40") == ("open", None)


def test_information_question_is_not_settled_by_a_counter_question() -> None:
    records, _ = _dialogue([
        ("user", "What about the price?"),
        ("assistant", "Which night are you staying?"),
        ("user", "Friday."),
        ("assistant", "Friday works, I can book it."),
    ])
    assert _status(records, "price") == ("open", None)


# -- property ---------------------------------------------------------------------------



@settings(max_examples=200, deadline=None)
@given(text=QUESTION_TEXT, role=st.sampled_from(["user", "assistant", "tool"]),
       subtype=st.sampled_from(["wh", "yesno", "choice", "suggestion"]),
       direct=st.booleans())
@example(text="?", role="assistant", subtype="wh", direct=True)  # an ask-back
def test_evidence_in_bounds(text: str, role: str, subtype: str, direct: bool) -> None:
    asker = "assistant" if role == "user" else "user"
    view = _turn(text, role, 3, {asker: 1 if direct else 2})
    prior = Record(id="question:1:0-5", thread="t", kind=Kind.QUESTION, subtype=subtype,
                   text="What?", turn=1, role=asker, start=0, end=5, status=Status.OPEN,
                   extractor="x", confidence=0.5,
                   attrs={"asker": asker, "expects": "text", "choices": ["a", "b"]})
    for change in LINKER.resolve(view, None, [], [prior]):
        if change.note == "asked back":  # the question stays as it was, marked, no evidence
            assert change.new == prior.status and change.evidence_start is None
            assert change.attrs == {"asked_back": 3}
            continue
        assert change.new in ("answered", "deferred", "withdrawn")
        if change.evidence_start is not None:
            assert 0 <= change.evidence_start <= change.evidence_end <= len(text)


def test_a_withdrawal_that_names_its_question_withdraws_that_one() -> None:
    records, _ = _dialogue([
        ("user", "Can I claim for the taxi as well?"),
        ("assistant", "Let me check the taxi rules."),
        ("user", "And does the refund include the seat reservation?"),
        ("user", "Actually, ignore the taxi question, it was only a tenner."),
    ])
    assert _status(records, "taxi")[0] == "withdrawn"
    assert _status(records, "seat reservation") == ("open", None)


@pytest.mark.parametrize("reply", [
    "I'll have to ask my husband.",
    "Not sure offhand, I'll dig out the receipt.",
    "Let me look into it and come back to you.",
    "Will do, I don't have it on me right now.",
    "Not decided yet.",
])
def test_more_ways_to_defer(reply: str) -> None:
    records, _ = _dialogue([("assistant", "How much did you pay for the ticket?"),
                            ("user", reply)])
    assert _status(records, "pay for the ticket")[0] == "deferred"


@pytest.mark.parametrize("reply", [
    "Forget the mktime thing, we're dropping that module.",
    "Scratch my earlier question about the wait.",
    "Don't worry about checking it, I found it.",
    "Actually don't bother.",
])
def test_more_ways_to_withdraw(reply: str) -> None:
    records, _ = _dialogue([("user", "How long is the wait for mktime fixes?"),
                            ("user", reply)])
    assert _status(records, "wait")[0] == "withdrawn"


def test_a_confirmation_tag_answered_answers_the_question_it_tags() -> None:
    records, changes = _dialogue([
        ("assistant", "The return fare comes to $148? Is that okay with you?"),
        ("user", "Yes."),
    ])
    assert _status(records, "$148") == ("answered", 2)
    assert _status(records, "okay") == ("answered", 2)
    assert "answered with its tag" in [c.note for _, c in changes]
