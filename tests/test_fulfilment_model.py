"""The learned fulfilment scorer: deterministic fitting, the shipped model's features and
what it may and may not fulfil."""

from __future__ import annotations

import json

from extractors.base import TurnView
from extractors.dialogue.fulfilment import THRESHOLD, TurnEvidence, pair_features, shipped
from extractors.dialogue.train_fulfilment import pairs
from extractors.trained.linear import fit
from scratchpad import Scratchpad
from tests.conftest import DATA


def evidence(role: str, text: str, **kw: object) -> TurnEvidence:
    return TurnEvidence.of(TurnView(thread="t", number=5, role=role, text=text, **kw))


def test_fitting_is_deterministic_and_learns_the_direction() -> None:
    xs = [{"a": 1.0}, {"a": 0.0}, {"a": 1.0}, {"a": 0.0}]
    ys = [1, 0, 1, 0]
    one, two = fit("m", xs, ys, steps=200), fit("m", xs, ys, steps=200)
    assert one == two
    assert one.score({"a": 1.0}) > 0.5 > one.score({"a": 0.0})


def test_the_shipped_model_knows_every_feature_it_is_given() -> None:
    model = shipped()
    assert model is not None
    features = pair_features("I'll send the form", "assistant", "promised",
                             evidence("assistant", "Done, the form is sent."), 2)
    assert set(features) == set(model.weights)
    assert model.trained_on["split"] == "train"


def test_training_pairs_come_from_the_train_split_only() -> None:
    corpus = DATA / "commitments_blind.jsonl"
    ids = {json.loads(line)["split"] for line in corpus.open(encoding="utf-8")}
    assert "test" in ids
    train = list(pairs(corpus, "train"))
    assert train and {y for _, y in train} == {0, 1}
    assert list(pairs(corpus, "no-such-split")) == []


def test_a_successful_tool_scores_above_a_failed_one_for_the_agents_promise() -> None:
    model = shipped()
    assert model is not None
    promise = "I'll rotate the API key for the staging project"
    ok = evidence("tool", '{"status": "rotated", "project": "staging"}',
                  tool_name="rotate_api_key", tool_arguments='{"project": "staging"}')
    failed = evidence("tool", '{"error": "permission denied"}',
                      tool_name="rotate_api_key", tool_arguments='{"project": "staging"}')
    assert model.score(pair_features(promise, "assistant", "promised", ok, 2)) >= THRESHOLD
    assert model.score(pair_features(promise, "assistant", "promised", failed, 2)) < THRESHOLD


def test_the_user_receiving_something_does_not_keep_the_users_own_promise() -> None:
    got = evidence("user", "I have also received the rail pass refund from JR.")
    model = shipped()
    assert model is not None
    own = pair_features("I will apply for the refund this week", "user", "promised", got, 3)
    assert own["received"] == 0.0
    assert model.score(own) < THRESHOLD


def test_a_question_about_it_fulfils_nothing() -> None:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", [
            {"role": "user", "content": "Can you resend my invoice?"},
            {"role": "assistant", "content": "Sure. You'll get a confirmation email with "
                                             "the invoice within the hour."},
            {"role": "user", "content": "Has the invoice email been sent yet?"}])
        got = {r.text: r.status for r in pad.records("t", kind="commitment")}
    assert got["You'll get a confirmation email with the invoice within the hour"] == "active"


def _score(text: str, actor: str, turn: TurnEvidence, distance: int = 3) -> float:
    model = shipped()
    assert model is not None
    return model.score(pair_features(text, actor, "promised", turn, distance))


def test_the_users_own_verb_in_their_later_turn_keeps_their_promise() -> None:
    promise = "I'll add the account tonight"
    done = evidence("user", "ok added the account, says verified now")
    unrelated = evidence("user", "ok thanks, what happens with the fee?")
    assert done.words >= {"add"} and not unrelated.words & {"add"}
    assert _score(promise, "user", done) > _score(promise, "user", unrelated)
    assert pair_features(promise, "user", "promised", done, 3)["user_own_verb"] == 1.0


def test_a_handing_over_in_other_words_counts_for_the_side_that_promised_it() -> None:
    sent = evidence("user", "Sent it at 2am, lol. Let me know if it's the wrong file!")
    assert sent.delivered
    assert not evidence("user", "I will have sent it by then?").delivered
    mine = pair_features("I'll email the birth record over tonight", "user", "promised", sent, 2)
    theirs = pair_features("I'll email you the label", "assistant", "promised", sent, 2)
    assert mine["delivered_own"] == 1.0 and theirs["delivered_own"] == 0.0


def test_what_should_reach_the_user_is_kept_when_they_say_it_is_here() -> None:
    here = evidence("user", "its here. no peanuts, checked")
    assert here.arrived
    assert not evidence("user", "it hasn't arrived yet").arrived
    f = pair_features("you should have it by about 21:55", "assistant", "promised", here, 4)
    assert f["arrived_to_user"] == 1.0
    assert pair_features("I'll look into it", "assistant", "promised", here, 4)[
        "arrived_to_user"] == 0.0


def test_a_colleague_named_in_the_later_turn_is_seen() -> None:
    turn = evidence("user", "Email from Keller received. Visit Thursday 16:30 confirmed.")
    f = pair_features("Frau Keller from our claims team will contact you",
                      "Frau Keller from our claims team", "promised", turn, 7)
    assert f["actor_named"] == 1.0
    other = evidence("user", "Nobody called yet.")
    assert pair_features("the claims team will call you", "the claims team", "promised",
                         other, 7)["actor_named"] == 0.0


def test_a_failed_tool_result_is_never_scored() -> None:
    from extractors.dialogue.fulfilment import learned_fulfilment
    from extractors.records import Record

    failed = TurnView(thread="t", number=6, role="tool", tool_name="issue_store_credit",
                      text='{"error": "POLICY_BLOCK", "message": "Maximum credit 79.95 EUR."}',
                      tool_arguments='{"amount_eur": "89.95"}')
    assert TurnEvidence.of(failed).failed
    record = Record.model_validate({
        "id": "r1", "thread": "t", "turn": 4, "kind": "commitment", "subtype": "agreed",
        "text": "I can offer you store credit of €89.95 instead", "start": 0, "end": 46,
        "status": "active", "extractor": "x", "role": "assistant", "confidence": 0.9,
        "attrs": {"actor": "assistant"}})
    assert learned_fulfilment(failed, [record], shipped()) == []


def test_the_calls_schema_names_the_kind_of_act() -> None:
    from extractors.dialogue.tool_evidence import schema_words

    words = schema_words("set_spend_cap", '{"msisdn": "0770"}',
                         '{"ok": true, "spend_cap": "0.00 GBP", "alerts": [{"sms": true}]}')
    # the name, and the keys of the arguments and of the result, nested ones included
    assert words == {"set", "spend", "cap", "msisdn", "ok", "alert", "sms"}
    assert schema_words("noop", "not json", None) == schema_words("noop")
    turn = evidence("tool", '{"recall": "RC-40912", "notify": "m@example.edu"}',
                    tool_name="place_hold")
    f = pair_features("I can place a recall on it", "assistant", "offered", turn, 3)
    assert f["tool_ok_schema"] == 1.0
    other = evidence("tool", '{"balance": "12.00"}', tool_name="update_contact")
    assert pair_features("I can place a recall on it", "assistant", "offered", other,
                         3)["tool_ok_schema"] == 0.0


def _offer(rid: str, text: str, turn: int = 4, **attrs: object):
    from extractors.records import Record

    return Record.model_validate({
        "id": rid, "thread": "t", "turn": turn, "kind": "commitment", "subtype": "offered",
        "text": text, "start": 0, "end": len(text), "status": "active", "extractor": "x",
        "role": "assistant", "confidence": 0.9, "attrs": {"actor": "assistant", **attrs}})


def test_a_tool_carrying_out_an_offer_agrees_and_fulfils_only_the_best_option() -> None:
    from extractors.dialogue.fulfilment import offers_carried_out

    call = TurnView(thread="t", number=7, role="tool", tool_name="defer_charge",
                    text='{"status": "deferred", "charge": "USD 72.00", "due": "2025-11-28"}',
                    tool_arguments='{"charge": "USD 72.00", "new_due": "2025-11-28"}')
    defer = _offer("a", "I can defer the charge to 28 Nov", option=1)
    waive = _offer("b", "I can send you a payment plan by email", option=2)
    changes = offers_carried_out(call, [defer, waive], shipped(), THRESHOLD)
    assert [(c.record_id, c.field, c.new) for c in changes] == [
        ("a", "subtype", "agreed"), ("a", "status", "fulfilled"), ("b", "status", "superseded")]
    # a failed call, or a turn that is no tool result, carries out nothing
    failed = call.model_copy(update={"text": '{"error": "charge not found"}'})
    assert offers_carried_out(failed, [defer, waive], shipped(), THRESHOLD) == []
    said = call.model_copy(update={"role": "assistant", "text": "I deferred the charge."})
    assert offers_carried_out(said, [defer], shipped(), THRESHOLD) == []


def test_an_offer_the_agents_tool_then_carries_out_ends_agreed_and_fulfilled() -> None:
    call = {"id": "c1", "type": "function", "function": {
        "name": "defer_charge", "arguments": '{"charge": "USD 72.00", "new_due": "2025-11-28"}'}}
    messages = [
        {"role": "user", "content": "My library account is blocked by a $72 charge."},
        {"role": "assistant", "content": "I can defer the charge to 28 Nov, so it won't count "
                                         "toward the block until then."},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1",
         "content": '{"status": "deferred", "charge": "USD 72.00", "due": "2025-11-28"}'},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        (offer,) = pad.records("t", kind="commitment")
    assert (offer.subtype, offer.status, offer.status_turn) == ("agreed", "fulfilled", 4)


def test_a_plan_the_call_sets_up_keeps_running() -> None:
    """Label guide: a picked payment plan or suspension stays active from the pick; a plan
    switch priced per month is done once switched."""
    from extractors.dialogue.fulfilment import RUNNING, offers_carried_out

    call = TurnView(thread="t", number=7, role="tool", tool_name="create_payment_plan",
                    text='{"plan": "PP-90314", "payments": 6, "amount": "39.36"}',
                    tool_arguments='{"payments": 6, "amount": "39.36"}')
    plan = _offer("p", "6 monthly payments of £39.36", option=1)
    changes = offers_carried_out(call, [plan], shipped(), 0.0)
    assert [(c.field, c.new) for c in changes] == [("subtype", "agreed")]
    assert RUNNING.search("I can pause your membership for three months")
    assert not RUNNING.search("Essential 20GB at £18.00 a month from your next bill")


def test_the_users_handover_keeps_what_the_user_promised_in_other_words() -> None:
    messages = [
        {"role": "user", "content": "The pipe burst on Sunday and the plumber left me an "
                                    "invoice."},
        {"role": "assistant", "content": "Sorry to hear that. To assess the claim we need the "
                                         "plumber's invoice and two photos of the damage."},
        {"role": "user", "content": "It's in a drawer somewhere, I'll dig out the invoice "
                                    "tonight."},
        {"role": "assistant", "content": "No rush, whenever you have it."},
        {"role": "user", "content": "All uploaded now: the photos and the invoice."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        (own,) = [r for r in pad.records("t", kind="commitment") if r.role == "user"]
    # "dig out" is no verb of handing over, "uploaded" is: the user's handover keeps it
    assert (own.text, own.status, own.status_turn) == (
        "I'll dig out the invoice tonight", "fulfilled", 5)
