"""Quality floors on the dev corpus (real task dialogues). Raise them as extraction
improves; never lower one to make a change pass."""

from __future__ import annotations

import pytest

from scratchpad.evaluate import score_corpus
from scratchpad.messages import read_corpus
from tests.conftest import DATA

pytestmark = pytest.mark.slow

FLOORS = {
    "recall_amount": 0.97,
    "recall_identifier": 0.95,
    "recall_datetime": 0.90,
    "recall_any_value": 0.97,
    "question_status_accuracy": 0.92,
    "open_f1": 0.90,
}
CEILINGS = {
    "unmatched_values_per_turn": 0.05,
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
