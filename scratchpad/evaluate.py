"""Score extraction output against a labelled corpus (the ``eval/*.jsonl`` format).

Scoring follows the corpus README: gold ``turn`` is 0-based, record turns 1-based.

* value recall on full conversations (ids without ``#cut``): a gold value is found
  when a record of the same kind on the same turn overlaps its span; also per kind
  and kind-agnostic (any value record);
* noise: records per turn, and value records overlapping no gold value, per turn;
* open questions, per turn holding gold questions (full and ``#cut`` lines): gold is
  open if any question of that turn is unanswered at the end; predicted open if any
  question record on that turn is open or deferred, answered if there are question
  records but none open, missing otherwise;
* questions left open at the end of full conversations, on any turn: how many question
  records are open or deferred, how many of them sit on a turn whose gold holds an
  unanswered question, and that share (``open_precision_full``: an open item that is
  not open pollutes every dashboard and block, whether or not its turn has gold).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scratchpad.bulk import run_corpus

VALUE_KINDS = ("amount", "identifier", "datetime")
OPEN = ("open", "deferred")


@dataclass
class Scores:
    """Counts accumulated over a corpus; ratios are computed on demand."""

    gold_values: Counter[str] = field(default_factory=Counter)
    found_values: Counter[str] = field(default_factory=Counter)
    found_any: int = 0
    turns_full: int = 0
    records_full: int = 0
    value_records_full: int = 0
    noise_records_full: int = 0
    question_turns: int = 0
    question_correct: int = 0
    question_detected: int = 0
    open_tp: int = 0
    open_fp: int = 0
    open_fn: int = 0
    open_left_full: int = 0
    open_left_right_full: int = 0
    conversations: int = 0

    def summary(self) -> dict[str, Any]:
        """Return the figures as a flat, JSON-ready dict (ratios rounded to 4 places)."""

        def ratio(a: float, b: float) -> float | None:
            return round(a / b, 4) if b else None

        total_gold = sum(self.gold_values.values())
        precision = ratio(self.open_tp, self.open_tp + self.open_fp)
        recall = ratio(self.open_tp, self.open_tp + self.open_fn)
        f1 = (
            round(2 * precision * recall / (precision + recall), 4)
            if precision and recall else 0.0 if precision is not None else None
        )
        out: dict[str, Any] = {"conversations": self.conversations}
        for kind in VALUE_KINDS:
            out[f"recall_{kind}"] = ratio(self.found_values[kind], self.gold_values[kind])
            out[f"gold_{kind}"] = self.gold_values[kind]
        out.update({
            "recall_any_value": ratio(self.found_any, total_gold),
            "records_per_turn": ratio(self.records_full, self.turns_full),
            "value_records_per_turn": ratio(self.value_records_full, self.turns_full),
            "unmatched_values_per_turn": ratio(self.noise_records_full, self.turns_full),
            "question_turns": self.question_turns,
            "question_status_accuracy": ratio(self.question_correct, self.question_turns),
            "question_detection_rate": ratio(self.question_detected, self.question_turns),
            "open_precision": precision,
            "open_recall": recall,
            "open_f1": f1,
            "open_left_full": self.open_left_full,
            "false_opens_full": self.open_left_full - self.open_left_right_full,
            "open_precision_full": ratio(self.open_left_right_full, self.open_left_full),
        })
        return out


def _overlaps(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return a["start"] < b["end"] and b["start"] < a["end"]


def score_conversation(
    scores: Scores, row: Mapping[str, Any], records: Iterable[Mapping[str, Any]]
) -> None:
    """Add one conversation's figures to ``scores``."""
    records = list(records)
    gold = row.get("gold") or {}
    full = "#cut" not in str(row["id"])
    scores.conversations += 1
    by_turn: dict[int, list[Mapping[str, Any]]] = {}
    for rec in records:
        by_turn.setdefault(rec["turn"], []).append(rec)
    if full:
        gold_values = gold.get("values") or []
        scores.turns_full += len(row["messages"])
        scores.records_full += len(records)
        for g in gold_values:
            turn_records = by_turn.get(g["turn"] + 1, [])
            scores.gold_values[g["kind"]] += 1
            if any(r["kind"] == g["kind"] and _overlaps(r, g) for r in turn_records):
                scores.found_values[g["kind"]] += 1
            if any(r["kind"] in VALUE_KINDS and _overlaps(r, g) for r in turn_records):
                scores.found_any += 1
        for rec in records:
            if rec["kind"] not in VALUE_KINDS:
                continue
            scores.value_records_full += 1
            if not any(g["turn"] + 1 == rec["turn"] and _overlaps(rec, g) for g in gold_values):
                scores.noise_records_full += 1
    question_turns: dict[int, bool] = {}
    for q in gold.get("questions") or []:
        turn = q["turn"] + 1
        question_turns[turn] = question_turns.get(turn, False) or q.get("answered_turn") is None
    if full:
        for rec in records:
            if rec["kind"] == "question" and rec["status"] in OPEN:
                scores.open_left_full += 1
                scores.open_left_right_full += question_turns.get(rec["turn"], False)
    for turn, gold_open in sorted(question_turns.items()):
        mine = [r for r in by_turn.get(turn, []) if r["kind"] == "question"]
        scores.question_turns += 1
        if not mine:
            predicted = None
        else:
            scores.question_detected += 1
            predicted = any(r["status"] in OPEN for r in mine)
        if predicted is not None and predicted == gold_open:
            scores.question_correct += 1
        if predicted and gold_open:
            scores.open_tp += 1
        elif predicted and not gold_open:
            scores.open_fp += 1
        elif gold_open:
            scores.open_fn += 1


def format_summary(summary: Mapping[str, Any]) -> str:
    """Return the figures as aligned ``name  value`` lines."""
    width = max(len(k) for k in summary)
    lines = []
    for key, value in summary.items():
        shown = "n/a" if value is None else (f"{value:.4f}" if isinstance(value, float) else value)
        lines.append(f"{key.ljust(width)}  {shown}")
    return "\n".join(lines)


def score_corpus(
    rows: Iterable[Mapping[str, Any]], **options: Any
) -> tuple[Scores, list[tuple[Mapping[str, Any], list[dict[str, Any]]]]]:
    """Extract and score a whole corpus; return the scores and what was extracted."""
    scores = Scores()
    outputs = []
    for row, records in run_corpus(rows, **options):
        score_conversation(scores, row, records)
        outputs.append((row, records))
    return scores, outputs
