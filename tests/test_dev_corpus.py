"""Quality floors on the dev corpus (real task dialogues). Raise them as extraction
improves; never lower one to make a change pass."""

from __future__ import annotations

import pytest

from scratchpad.evaluate import Scores, score_conversation, score_corpus
from scratchpad.messages import read_corpus
from tests.conftest import DATA

pytestmark = pytest.mark.slow

# Measured at the last raise: amount 0.9963, identifier 1.0, datetime 1.0, any 0.9991,
# question status 0.9939, open F1 0.9944, unmatched values 0.0201 per turn. The issue's
# targets (0.97 / 0.95 / 0.90 / 0.92 / 0.90) are checked on held-out dialogues too.
FLOORS = {
    "recall_amount": 0.99,
    "recall_identifier": 0.99,
    "recall_datetime": 0.99,
    "recall_any_value": 0.99,
    "question_status_accuracy": 0.98,
    "question_detection_rate": 0.98,
    "open_f1": 0.98,
    # of the questions left open at the end of full conversations, those on a turn whose
    # gold is open: 0.208 (48 left, 10 right) before the answer linker's pause and settle
    # shapes, 0.833 (12, 10) after
    "open_precision_full": 0.80,
}
CEILINGS = {
    "unmatched_values_per_turn": 0.03,
    # 0.756 until the blind commitment work; then the task dialogues' announced grants
    # ("Your car is booked", "Your appointment has been made") are pinned too: 0.809;
    # after the act model's second round (more agent promises pinned): 0.819
    "records_per_turn": 0.84,
    "false_opens_full": 4,
}


@pytest.fixture(scope="module")
def scored():
    rows = read_corpus(DATA / "sgd_dev.jsonl")
    scores, outputs = score_corpus(rows, source="sgd_dev.jsonl")
    return scores.summary(), outputs


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_floor(scored, name):
    summary, _ = scored
    assert summary[name] >= FLOORS[name], summary


@pytest.mark.parametrize("name", sorted(CEILINGS))
def test_ceiling(scored, name):
    summary, _ = scored
    assert summary[name] <= CEILINGS[name], summary


def test_every_record_is_verbatim(scored):
    _, outputs = scored
    checked = 0
    for row, records in outputs:
        for rec in records:
            content = row["messages"][rec["turn"] - 1]["content"] or ""
            assert content[rec["start"]:rec["end"]] == rec["text"], (row["id"], rec)
            checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("part", ["full", "cut"])
def test_question_status_over_full_and_truncated(scored, part):
    """The issue's figure holds for whole conversations and for the ``#cut`` variants,
    which end right after a question that is therefore open (measured: full 0.9933,
    truncated 0.995)."""
    _, outputs = scored
    scores = Scores()
    for row, records in outputs:
        if ("#cut" in row["id"]) == (part == "cut"):
            score_conversation(scores, row, records)
    summary = scores.summary()
    assert summary["question_turns"] > 500
    assert summary["question_status_accuracy"] >= FLOORS["question_status_accuracy"], summary
