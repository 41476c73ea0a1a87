"""The conversations the benchmark compacts, each with its must-carry facts.

* ``examples/espresso.jsonl``, the canonical refund conversation;
* the frozen ``test`` split of ``tests/data/commitments_blind.jsonl`` (blind-written
  support, travel, banking and coding conversations);
* generated long sessions (``tests/long_session.py``): coding sessions and support
  threads whose planted facts are drawn from a seed, grown over several rounds.

The facts of the first two come from ``data/facts.jsonl``, written from the conversations
alone (never from what the extractors find): a short verbatim ``text`` in a stated turn,
and a question whose gold ``answer`` is an exact value. The long sessions' facts are their
planted values, with questions made from their names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.long_session import CodingSession, SupportThread

ROOT = Path(__file__).resolve().parents[2]
FACTS = Path(__file__).resolve().parent / "data" / "facts.jsonl"
ESPRESSO = ROOT / "examples" / "espresso.jsonl"
BLIND = ROOT / "tests" / "data" / "commitments_blind.jsonl"

Message = dict[str, Any]


@dataclass(frozen=True)
class Fact:
    """A must-carry fact: ``text`` stated verbatim in ``turn``, and its QA probe."""

    turn: int
    text: str
    kind: str
    question: str | None = None
    answer: str | None = None
    accept: tuple[str, ...] = ()


@dataclass
class Case:
    """A conversation to compact: its messages, its facts, and for a long session the
    steps each later round appends (repeated compaction)."""

    id: str
    source: str
    messages: list[Message]
    facts: list[Fact]
    rounds: list[list[Message]] = field(default_factory=list)


def _facts(rows: list[dict[str, Any]]) -> list[Fact]:
    return [Fact(turn=r["turn"], text=r["text"], kind=r["kind"], question=r.get("question"),
                 answer=r.get("answer"), accept=tuple(r.get("accept") or ()))
            for r in rows]


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def labelled_cases() -> list[Case]:
    """espresso and the blind test split, with the facts of ``data/facts.jsonl``."""
    facts = {row["id"]: _facts(row["facts"]) for row in _read_jsonl(FACTS)}
    cases = [Case("espresso", "espresso", _read_jsonl(ESPRESSO), facts["espresso"])]
    for row in _read_jsonl(BLIND):
        if row.get("split") == "test" and row["id"] in facts:
            cases.append(Case(row["id"], "blind-test", row["messages"], facts[row["id"]]))
    for case in cases:  # the facts must be what the conversation says, verbatim
        for fact in case.facts:
            content = case.messages[fact.turn].get("content") or ""
            if fact.text not in content:
                raise ValueError(f"{case.id}: fact {fact.text!r} is not in turn {fact.turn}")
    return cases


def _bare(amount: str) -> str:
    return amount.lstrip("€$£")


def _day_month(day: str) -> str:
    return day.split(" ", 1)[1]  # "Friday 5 December" -> "5 December"


_CODING_QUESTIONS = {
    "ticket": "What is the ticket id of this work?",
    "branch": "On which git branch must the work be done?",
    "amount": "What was the worst-case amount the user saw?",
    "deadline": "By which date must it be merged?",
    "commit": "What was the last good commit hash?",
}
_SUPPORT_QUESTIONS = {
    "order": "What is the order number of the return?",
    "refund": "What refund amount was agreed?",
    "waiver": "How much was the restocking fee that was waived?",
}


def _planted_facts(planted: dict[str, str], questions: dict[str, str],
                   answers: dict[str, str]) -> list[Fact]:
    return [Fact(turn=-1, text=value, kind=name, question=questions.get(name),
                 answer=answers.get(name, value) if name in questions else None)
            for name, value in planted.items()]


def long_cases(count: int, rounds: int, steps: int) -> list[Case]:
    """``count`` long sessions (alternately coding and support), each an opening plus
    ``steps`` routine steps, then ``rounds - 1`` more rounds of ``steps`` steps."""
    cases = []
    for n in range(count):
        seed = 2026 + n
        if n % 2 == 0:
            coding = CodingSession(seed)
            p = coding.planted
            facts = _planted_facts(p, _CODING_QUESTIONS,
                                   {"amount": _bare(p["amount"]),
                                    "deadline": _day_month(p["deadline"])})
            session: CodingSession | SupportThread = coding
            source = "long-coding"
        else:
            support = SupportThread(seed)
            facts = _planted_facts(support.planted, _SUPPORT_QUESTIONS,
                                   {"order": support.order, "refund": _bare(support.refund),
                                    "waiver": _bare(support.fee)})
            session = support
            source = "long-support"
        first = session.opening + session.steps(1, steps)
        later = [session.steps(1 + r * steps, steps) for r in range(1, rounds)]
        cases.append(Case(f"{source}-{seed}", source, first, facts, later))
    return cases
