"""Corpus scoring follows the eval README's definitions."""

from __future__ import annotations

from scratchpad.evaluate import Scores, score_conversation

ROW = {
    "id": "c1",
    "messages": [{"role": "user", "content": "Pay $20 on March 3rd?"},
                 {"role": "assistant", "content": "Call 415-286-4371."}],
    "gold": {
        "values": [
            {"turn": 0, "start": 4, "end": 7, "text": "$20", "kind": "amount"},
            {"turn": 0, "start": 11, "end": 20, "text": "March 3rd", "kind": "datetime"},
            {"turn": 1, "start": 5, "end": 17, "text": "415-286-4371", "kind": "identifier"},
        ],
        "questions": [{"turn": 0, "asker": "user", "slot": "x", "answered_turn": None}],
    },
}


def rec(turn, start, end, kind, status="active"):
    return {"turn": turn, "start": start, "end": end, "kind": kind, "status": status}


def test_recall_noise_and_question_status():
    scores = Scores()
    score_conversation(scores, ROW, [
        rec(1, 5, 7, "amount"),             # overlaps $20
        rec(1, 11, 16, "amount"),           # wrong kind for the date: any-value only
        rec(2, 0, 4, "datetime"),           # noise
        rec(1, 0, 21, "question", "open"),  # gold open, predicted open
    ])
    s = scores.summary()
    assert s["recall_amount"] == 1.0 and s["recall_datetime"] == 0.0
    assert s["recall_identifier"] == 0.0
    assert s["recall_any_value"] == round(2 / 3, 4)
    assert s["unmatched_values_per_turn"] == 0.5
    assert s["question_status_accuracy"] == 1.0 and s["open_f1"] == 1.0


def test_cut_lines_count_only_for_questions():
    scores = Scores()
    score_conversation(scores, {**ROW, "id": "c1#cut1"}, [])
    s = scores.summary()
    assert s["gold_amount"] == 0 and s["question_turns"] == 1
    assert s["question_detection_rate"] == 0.0 and s["open_recall"] == 0.0


def test_questions_left_open_in_full_conversations_count_on_any_turn():
    """An open record on a turn without gold still counts against precision (a dashboard
    shows it); on a #cut line it does not (the cut leaves questions open by design)."""
    scores = Scores()
    left = [rec(1, 0, 21, "question", "open"), rec(2, 0, 4, "question", "deferred"),
            rec(2, 5, 9, "question", "answered")]
    score_conversation(scores, ROW, left)
    score_conversation(scores, {**ROW, "id": "c1#cut2"}, left)
    s = scores.summary()
    assert (s["open_left_full"], s["false_opens_full"], s["open_precision_full"]) == (2, 1, 0.5)
