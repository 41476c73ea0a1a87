"""Later turns as evidence: tool calls that do what was promised or asked, the user
saying a promised thing arrived, the agent reporting it left alone what was forbidden."""

from __future__ import annotations

import json

from extractors.dialogue.reports import alternatives
from extractors.dialogue.tool_evidence import argument_values, quotes_code_of, reads_only
from extractors.text.lexicon import terms, ties
from scratchpad import Scratchpad


def call(n: int, name: str, **arguments: object) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"c{n}", "type": "function",
         "function": {"name": name, "arguments": json.dumps(arguments)}}]}


def result(n: int, payload: dict) -> dict:
    return {"role": "tool", "tool_call_id": f"c{n}", "content": json.dumps(payload)}


def statuses(messages: list[dict], kind: str) -> dict[str, str]:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        return {r.text: r.status for r in pad.records("t", kind=kind)}


OFFER = [
    {"role": "user", "content": "I need to change my train on 3 October, booking 8XK4PD."},
    {"role": "assistant", "content": "I can move you to the 10:35 Frecciarossa, FR 9519, "
                                     "for €18.00 extra."},
    {"role": "user", "content": "The 10:35 works, go ahead."},
]


def test_an_action_tool_with_the_agreed_values_fulfils_the_agreement() -> None:
    messages = OFFER + [call(1, "change_booking", booking="8XK4PD", train="FR 9519"),
                        result(1, {"status": "confirmed", "seat": "14A"})]
    got = statuses(messages, "commitment")
    assert got["I can move you to the 10:35 Frecciarossa, FR 9519, for €18.00 extra"] \
        == "fulfilled"


def test_a_lookup_or_a_failed_action_fulfils_nothing() -> None:
    lookup = OFFER + [call(1, "search_trains", train="FR 9519"),
                      result(1, {"options": [{"train": "FR 9519"}]})]
    failed = OFFER + [call(1, "change_booking", train="FR 9519"),
                      result(1, {"error": "seat map unavailable"})]
    for messages in (lookup, failed):
        assert set(statuses(messages, "commitment").values()) == {"active"}


def test_the_user_saying_it_arrived_fulfils_the_promise() -> None:
    messages = [
        {"role": "user", "content": "Please move me to Friday."},
        {"role": "assistant", "content": "Done. I'll send the new e-ticket to your email "
                                         "within the hour."},
        {"role": "user", "content": "Thanks, the e-ticket just arrived."},
    ]
    got = statuses(messages, "commitment")
    assert got["I'll send the new e-ticket to your email within the hour"] == "fulfilled"


def test_an_unrelated_arrival_fulfils_nothing() -> None:
    messages = [
        {"role": "assistant", "content": "I'll send the new e-ticket to your email."},
        {"role": "user", "content": "My parcel just arrived, by the way."},
    ]
    assert set(statuses(messages, "commitment").values()) == {"active"}


def test_a_receipt_in_other_words_for_the_channel_fulfils_the_first_such_promise() -> None:
    messages = [
        {"role": "user", "content": "Can you add the data roaming pack for both of us?"},
        {"role": "assistant", "content": "Done. I'll send you both an SMS now with the "
                                         "details. You'll get one more SMS the day before "
                                         "the pack ends."},
        {"role": "user", "content": "perfect, got the text already. cheers!"},
    ]
    got = statuses(messages, "commitment")
    assert got["I'll send you both an SMS now with the details"] == "fulfilled"
    assert got["You'll get one more SMS the day before the pack ends"] == "active"


def test_the_user_saying_the_named_colleague_did_it_fulfils_their_promise() -> None:
    promise = [
        {"role": "user", "content": "Please don't phone the office, I'm never there."},
        {"role": "assistant", "content": "Noted: the assessor will text you on 087 612 4490 "
                                         "instead of calling."},
    ]
    done = promise + [{"role": "user", "content": "hi, the assessor texted yesterday, "
                                                  "he's seeing the car on thursday."}]
    not_yet = promise + [{"role": "user", "content": "the assessor hasn't texted yet."}]
    key = "the assessor will text you on 087 612 4490 instead of calling"
    assert statuses(done, "commitment")[key] == "fulfilled"
    assert statuses(not_yet, "commitment")[key] == "active"


CODING = [
    {"role": "user", "content": "Fix the failing VAT test. Don't touch the migrations "
                                "directory. Keep it Python 3.9 compatible."},
]


def test_a_run_with_what_a_requirement_names_meets_it() -> None:
    messages = CODING + [call(1, "run_command", cmd="python3.9 -m pytest tests/ -q"),
                         result(1, {"exit_code": 0, "stdout": "214 passed"})]
    got = statuses(messages, "constraint")
    assert got["Keep it Python 3.9 compatible"] == "satisfied"
    assert got["Don't touch the migrations directory"] == "active"  # a run keeps no ban


def test_a_report_of_leaving_it_alone_keeps_a_prohibition() -> None:
    report = {"role": "assistant", "content": "All tests pass; nothing under migrations/ "
                                              "changed."}
    promise = {"role": "assistant", "content": "I will check whether migrations need work."}
    assert statuses(CODING + [report], "constraint")[
        "Don't touch the migrations directory"] == "satisfied"
    assert statuses(CODING + [promise], "constraint")[
        "Don't touch the migrations directory"] == "active"


def test_terms_keep_numbers_codes_and_uncommon_words() -> None:
    assert {"3.9", "python", "compatibl"} <= terms("Keep it Python 3.9 compatible")  # stems
    assert "billing/totals.py" in terms("I'll fix billing/totals.py")
    assert "8xk4pd" in terms("booking 8XK4PD")
    assert not terms("I will do it for you, please")


def test_ties_need_a_code_or_two_words() -> None:
    assert ties({"9519", "train"}, {"9519"})
    assert not ties({"train", "seat"}, {"train", "window"})
    assert ties({"train", "seat"}, {"train", "seat"})
    assert ties({"test", "regression"}, {"test"}, extra=1)


def test_tool_arguments_give_their_values_not_their_keys() -> None:
    values = argument_values(json.dumps({"seat_preference": "quiet", "n": 2,
                                         "files": ["a.py", {"path": "b.py"}], "ok": True}))
    assert values.split("\n") == ["quiet", "2", "a.py", "b.py"]
    assert argument_values("not json") == "not json"
    assert argument_values(None) == ""
    assert reads_only("get_order") and reads_only("lookup-customer")
    assert reads_only("search_trains") and not reads_only("change_booking")


def test_a_pending_action_fulfils_nothing() -> None:
    """A tool that files a request for someone else's approval has not done the act."""
    messages = OFFER + [call(1, "change_booking", booking="8XK4PD", train="FR 9519"),
                        result(1, {"status": "pending_approval", "approver": "desk"})]
    assert set(statuses(messages, "commitment").values()) == {"active"}


def test_a_done_lead_reports_every_clause_of_its_sentence() -> None:
    """"Done — it's escalated ...": the bare lead makes the sentence a report."""
    messages = [
        {"role": "user", "content": "The delay was not caused by weather, I was on board."},
        {"role": "assistant", "content": "I'll escalate it to Customer Relations today."},
        {"role": "user", "content": "Thanks."},
        {"role": "assistant", "content": "Done — it's escalated under reference CR-5521-B."},
    ]
    got = statuses(messages, "commitment")
    assert got["I'll escalate it to Customer Relations today"] == "fulfilled"


def test_the_agent_doing_its_own_act_keeps_no_colleague_promise() -> None:
    """"I've paused marketing emails" does not keep "Payments Risk will email you"."""
    messages = [
        {"role": "user", "content": "My payout is on hold and nobody tells me why."},
        {"role": "assistant", "content": "Payments Risk will email you within 24 hours "
                                         "to verify your identity."},
        {"role": "user", "content": "And stop the marketing emails please."},
        {"role": "assistant", "content": "I've paused marketing emails to your address."},
    ]
    got = statuses(messages, "commitment")
    assert got["Payments Risk will email you within 24 hours to verify your identity"] \
        == "active"


def test_a_bare_name_picks_one_offer_and_supersedes_the_other() -> None:
    messages = [
        {"role": "user", "content": "My roaming bill was huge last month, fix it."},
        {"role": "assistant", "content": "I can put a full roaming bar on, or I could set a "
                                         "£20 monthly cap on roaming charges instead."},
        {"role": "user", "content": "cap."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        got = {r.text: (r.subtype, r.status) for r in pad.records("t", kind="commitment")}
    picked = next(v for k, v in got.items() if "cap" in k)
    other = next(v for k, v in got.items() if "bar" in k)
    assert picked == ("agreed", "active")
    assert other[1] == "superseded"


def test_a_yes_naming_one_offer_supersedes_the_others() -> None:
    messages = [
        {"role": "user", "content": "How can I get the claim money?"},
        {"role": "assistant", "content": "I can pay it by PayPal, which is usually instant. "
                                         "I can also pay it by bank transfer to your account."},
        {"role": "user", "content": "Yes, PayPal. Same email as on my policy."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        got = {r.text: (r.subtype, r.status) for r in pad.records("t", kind="commitment")}
    assert next(v for k, v in got.items() if "PayPal" in k) == ("agreed", "active")
    assert next(v for k, v in got.items() if "transfer" in k)[1] == "superseded"


def test_a_report_of_a_kept_promise_is_that_promise_not_a_new_grant() -> None:
    """"Done: the refund of $94.80 has been issued" after "I'll refund the $94.80": the
    promise is fulfilled there; the report is its evidence, a note (``reported``)."""
    messages = [
        {"role": "user", "content": "I was charged twice for the March invoice."},
        {"role": "assistant", "content": "I'll refund the $94.80 duplicate to your Visa today."},
        {"role": "user", "content": "Thanks, let me know."},
        {"role": "assistant", "content": "Done: the refund of $94.80 has been issued to your "
                                         "Visa."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        recs = pad.records("t", kind="commitment")
        notes = pad.records("t", kind="note")
        block = pad.render("t")
    promise = next(r for r in recs if r.turn == 2)
    assert promise.status == "fulfilled" and promise.status_turn == 4
    assert not [r for r in recs if r.turn == 4]
    assert [(r.subtype, r.status, r.attrs["reports"]) for r in notes if r.turn == 4] == [
        ("reported", "active", [promise.id])]
    assert "fulfilled turn 4" in block and "(assistant, turn 4)" not in block  # no line


def test_granting_one_of_several_alternatives_settles_the_offer() -> None:
    """The list of slots nobody accepted gives way to the slot the agent then held."""
    messages = [
        {"role": "user", "content": "When can the courier pick the machine up?"},
        {"role": "assistant", "content": "Our courier can collect on Tuesday 10:00-14:00, "
                                         "Wednesday 14:00-18:00 or Thursday 14:00-18:00."},
        {"role": "user", "content": "Tuesday's no good, I'm at work."},
        {"role": "assistant", "content": "Would you like me to hold the Wednesday slot?"},
        {"role": "user", "content": "Yes please."},
        {"role": "assistant", "content": "Done: the Wednesday slot is held under reference "
                                         "HLD-30417 until tomorrow afternoon."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        recs = {r.turn: r for r in pad.records("t", kind="commitment")}
    assert recs[2].subtype == "offered" and recs[2].status == "superseded"
    assert recs[6].subtype == "granted" and recs[6].status == "active"
    assert [alt for alt in sorted(alternatives(recs[2].text))][:2] == ["10:00", "14:00"]


def test_a_submitted_request_is_the_act_done() -> None:
    """Filing an appeal is done when the system says it was submitted."""
    messages = [
        {"role": "user", "content": "The course had no instructor for three weeks."},
        {"role": "assistant", "content": "I'll file a tuition appeal on your behalf today."},
        call(1, "file_tuition_appeal", reason="missing instructor"),
        result(1, {"appeal_id": "TA-2025-0918", "status": "submitted"}),
    ]
    assert statuses(messages, "commitment") == {
        "I'll file a tuition appeal on your behalf today": "fulfilled"}


def test_what_a_tool_result_shows_done_fulfils_the_promise() -> None:
    """The booked time is in the result, not in the arguments."""
    messages = [
        {"role": "user", "content": "Can the children be seen on Tuesday?"},
        {"role": "assistant", "content": "I'll book the three of you for Tuesday at 16:00."},
        call(1, "schedule_visit", patients=["Leo", "Sofia", "Ana"]),
        result(1, {"status": "booked", "time": "16:00", "ref": "TC-4471"}),
    ]
    assert statuses(messages, "commitment") == {
        "I'll book the three of you for Tuesday at 16:00": "fulfilled"}


def test_the_user_reporting_an_email_or_their_own_act_fulfils_it() -> None:
    messages = [
        {"role": "user", "content": "I'm moving out on the 28th."},
        {"role": "assistant", "content": "Marek in our Home Move team will email you to "
                                         "confirm the final reading date."},
        {"role": "user", "content": "ok, I'll upload the meter photos tonight."},
        {"role": "assistant", "content": "Thanks."},
        {"role": "user", "content": "got marek's email this morning. I uploaded the photos "
                                    "last night too."},
    ]
    got = statuses(messages, "commitment")
    assert got["Marek in our Home Move team will email you to confirm the final reading "
               "date"] == "fulfilled"
    assert got["I'll upload the meter photos tonight"] == "fulfilled"


def test_a_report_of_the_work_done_meets_a_requirement() -> None:
    messages = [
        {"role": "user", "content": "Please send the corrected invoice to "
                                    "accounts@halvorsen-ark.no rather than to me."},
        {"role": "assistant", "content": "Done: the corrected invoice went to "
                                         "accounts@halvorsen-ark.no."},
    ]
    assert set(statuses(messages, "constraint").values()) == {"satisfied"}


def test_a_report_naming_what_was_promised_fulfils_it() -> None:
    messages = [
        {"role": "user", "content": "I'll email the notice tonight."},
        {"role": "assistant", "content": "Thanks. Once we have it, I'll send you the "
                                         "re-letting addendum to sign."},
        {"role": "user", "content": "Sent the notice last night, did you get it?"},
        {"role": "assistant", "content": "Got it, thanks. The re-letting addendum went to "
                                         "your email this morning for e-signature."},
    ]
    got = statuses(messages, "commitment")
    assert got["I'll send you the re-letting addendum to sign"] == "fulfilled"


def test_a_report_about_something_else_leaves_the_promise_active() -> None:
    messages = [
        {"role": "user", "content": "Where is my deposit?"},
        {"role": "assistant", "content": "I'll send you the re-letting addendum to sign."},
        {"role": "user", "content": "ok"},
        {"role": "assistant", "content": "Your deposit has gone to your new address."},
    ]
    got = statuses(messages, "commitment")
    assert got["I'll send you the re-letting addendum to sign"] == "active"


def test_a_patch_with_the_code_the_promise_quoted_fulfils_it() -> None:
    messages = [
        {"role": "user", "content": "v1 now says 19.9 instead of 19.90, fix it"},
        {"role": "assistant", "content": "I'll switch it to `toFixed(2)`, same as the "
                                         "original handler."},
        call(1, "apply_patch", patch="-  amount: String(o.total),\n"
                                     "+  amount: o.total.toFixed(2),\n"),
        result(1, {"status": "applied"}),
    ]
    got = statuses(messages, "commitment")
    assert got["I'll switch it to `toFixed(2)`, same as the original handler"] == "fulfilled"
    assert not quotes_code_of("I'll switch it to `toFixed(2)`", '{"patch": "String(x)"}')


def test_the_verb_after_a_modal_is_what_the_act_model_records() -> None:
    from extractors.dialogue.fulfilment import modal_verb

    assert modal_verb("I'll run the full suite before calling this done") == "run"
    assert modal_verb("We will also email you the receipt") == "email"
    assert modal_verb("It'll be with you on Friday") == ""


def test_a_grant_of_another_act_is_not_a_mere_report_of_the_offer() -> None:
    messages = [
        {"role": "user", "content": "My card was stolen in Lisbon."},
        {"role": "assistant", "content": "We can courier an emergency card to your hotel in "
                                         "Lisbon within 2 working days, for a €25 fee."},
        {"role": "user", "content": "Lisbon please. But €25 for a stolen card?"},
        {"role": "assistant", "content": "That's fair. I've waived the €25 emergency card "
                                         "fee given the circumstances."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        got = {r.text: (r.subtype, r.status) for r in pad.records("t", kind="commitment")}
    assert got["I've waived the €25 emergency card fee given the circumstances"] == \
        ("granted", "active")
