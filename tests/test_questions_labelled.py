"""Question detection, answer linking and open items on our own labelled conversations
(``tests/data/questions_labelled.jsonl``, labelled blind).

Scoring: a gold question is found when a question record on the same turn overlaps it
(recall); a record is correct when it overlaps a gold question on its turn (precision).
For every found question, the record's status at the end of the conversation is compared
with the gold ``final_status`` and, when answered, its answering turn with the gold
``answered_turn``. Open items: a gold question is open at the end when its final status
is ``open`` or ``deferred``; a record is open when its status is. Run
``python -m tests.test_questions_labelled`` to print the figures and every miss.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import DATA
from tests.scoring import extract, overlaps

CORPUS = DATA / "questions_labelled.jsonl"
OPEN = {"open", "deferred"}
#: The first, blind run measured recall 0.977, precision 0.913, end status 0.866,
#: answering turn 0.873 and open-item F1 0.582. General fixes it pointed to (quoted
#: questions, greetings, requests for actions of support and coding work, curly
#: apostrophes, more ways to defer and to withdraw, a withdrawal naming its question):
#: precision 0.946, end status 0.885, answering turn 0.879, open-item F1 0.618; no longer
#: blind. The floors sit just under; raise them as the rules improve.
FLOORS = {"recall": 0.97, "precision": 0.93, "status": 0.87, "answer_turn": 0.87,
          "open_f1": 0.60}


@dataclass
class Figures:
    """Counts, rates and the rows behind them."""

    gold: int = 0
    found: int = 0
    records: int = 0
    correct: int = 0
    status_right: int = 0
    answered_both: int = 0
    answer_turn_right: int = 0
    open_gold: int = 0
    open_mine: int = 0
    open_both: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    right_by_status: Counter[str] = field(default_factory=Counter)
    missed: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def rate(self, name: str) -> float:
        if name == "open_f1":
            p = self.open_both / self.open_mine if self.open_mine else 1.0
            r = self.open_both / self.open_gold if self.open_gold else 1.0
            return 2 * p * r / (p + r) if p + r else 0.0
        num, den = {"recall": (self.found, self.gold),
                    "precision": (self.correct, self.records),
                    "status": (self.status_right, self.found),
                    "answer_turn": (self.answer_turn_right, self.answered_both)}[name]
        return num / den if den else 1.0

    def report(self) -> str:
        lines = [f"recall {self.rate('recall'):.3f} ({self.found}/{self.gold})  precision "
                 f"{self.rate('precision'):.3f} ({self.correct}/{self.records})",
                 f"end status {self.rate('status'):.3f} ({self.status_right}/{self.found})  "
                 + "  ".join(f"{s} {self.right_by_status[s]}/{n}"
                             for s, n in sorted(self.by_status.items())),
                 f"answering turn {self.rate('answer_turn'):.3f} "
                 f"({self.answer_turn_right}/{self.answered_both})",
                 f"open items F1 {self.rate('open_f1'):.3f} (gold {self.open_gold}, "
                 f"mine {self.open_mine}, both {self.open_both})"]
        for title, rows in (("missed", self.missed), ("unmatched", self.unmatched),
                            ("wrong end status", self.wrong)):
            lines.append(f"{title}: {len(rows)}")
            lines.extend(f"  {row}" for row in rows)
        return "\n".join(lines)


def _answered_turn(record: dict[str, Any]) -> int | None:
    return record["status_turn"] if record["status"] == "answered" else None


def score(outputs: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> Figures:
    fig = Figures()
    for row, records in outputs:
        cid = row["id"]
        gold = row["gold"]["questions"]
        mine = [r for r in records if r["kind"] == "question"]
        fig.open_mine += sum(r["status"] in OPEN for r in mine)
        matched: set[str] = set()
        for g in gold:
            fig.gold += 1
            fig.by_status[g["final_status"]] += 1
            gold_open = g["final_status"] in OPEN
            fig.open_gold += gold_open
            hits = [r for r in mine if r["turn"] == g["turn"] + 1 and overlaps(r, g)
                    and r["id"] not in matched]
            if not hits:
                fig.missed.append(f"{cid} turn {g['turn'] + 1} {g['final_status']}: "
                                  f"{g['text']!r}")
                continue
            hit = hits[0]
            matched.add(hit["id"])
            fig.found += 1
            fig.open_both += gold_open and hit["status"] in OPEN
            if hit["status"] == g["final_status"]:
                fig.status_right += 1
                fig.right_by_status[g["final_status"]] += 1
            else:
                fig.wrong.append(f"{cid} turn {g['turn'] + 1} {g['text']!r}: gold "
                                 f"{g['final_status']} (turn {_gold_turn(g)}), got "
                                 f"{hit['status']} (turn {hit['status_turn']})")
            if g["final_status"] == "answered" and hit["status"] == "answered":
                fig.answered_both += 1
                fig.answer_turn_right += _answered_turn(hit) == g["answered_turn"] + 1
        for r in mine:
            fig.records += 1
            if any(g["turn"] + 1 == r["turn"] and overlaps(r, g) for g in gold):
                fig.correct += 1
            else:
                fig.unmatched.append(f"{cid} turn {r['turn']} {r['status']}: {r['text']!r}")
    return fig


def _gold_turn(g: dict[str, Any]) -> int | None:
    for key in ("answered_turn", "withdrawn_turn", "deferred_turn"):
        if g.get(key) is not None:
            return g[key] + 1
    return None


@pytest.fixture(scope="module")
def extracted():
    return extract(CORPUS)


@pytest.fixture(scope="module")
def figures(extracted) -> Figures:
    return score(extracted[1])


def test_gold_is_verbatim_and_covers_every_case(extracted):
    rows, _ = extracted
    assert len(rows) >= 20
    statuses: Counter[str] = Counter()
    deferred_then_answered = multi = 0
    for row in rows:
        per_turn: Counter[int] = Counter()
        for g in row["gold"]["questions"]:
            content = row["messages"][g["turn"]]["content"] or ""
            assert content[g["start"]:g["end"]] == g["text"], (row["id"], g)
            statuses[g["final_status"]] += 1
            per_turn[g["turn"]] += 1
            deferred_then_answered += g["final_status"] == "answered" and \
                g.get("deferred_turn") is not None
        multi += sum(n > 1 for n in per_turn.values())
    assert all(statuses[s] >= 5 for s in ("answered", "open", "deferred", "withdrawn")), statuses
    assert deferred_then_answered >= 5 and multi >= 5


def test_report(figures):
    """Print the figures (``pytest -s``)."""
    print("\n" + figures.report())
    assert figures.gold > 100


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_floor(figures, name):
    assert figures.rate(name) >= FLOORS[name], figures.report()


if __name__ == "__main__":
    print(score(extract(CORPUS)[1]).report())
