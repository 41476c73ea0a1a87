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
