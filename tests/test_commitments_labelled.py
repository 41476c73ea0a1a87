"""Commitment and constraint precision, recall and end-of-conversation status on our own
labelled conversations (``tests/data/commitments_labelled.jsonl``, labelled blind).

Scoring: a gold item is found when a record of the same kind on the same turn overlaps it
(recall); a record is correct when it overlaps a gold item of its kind on its turn
(precision). For every found gold item, the record's subtype and status at the end of the
conversation are compared with the gold ``final_subtype`` (commitments) and
``final_status``. Run ``python -m tests.test_commitments_labelled`` to print the figures
and every miss.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import DATA
from tests.scoring import Counts, Outputs, extract, overlaps

CORPUS = DATA / "commitments_labelled.jsonl"
KINDS = {"commitment": "commitments", "constraint": "constraints"}
#: The issue asks for precision and recall >= 0.85 (commitments) and >= 0.80
#: (constraints). The set's first, blind run measured commitments P 0.829 / R 0.879 (end
#: subtype+status 0.621) and constraints P 0.898 / R 0.758 (end status 0.340). Constraint
#: rules then learned imperatives after discourse words, first-person musts, refusals and
#: caps: P 0.906 / R 0.984, but end status 0.262 (most newly found constraints end
#: "satisfied" in the gold and stay active here: satisfaction is the weak part); a later
#: commitment whose clause shares an uncommon word with the constraint meets it: 0.295.
#: Commitments learned "I agree to ...", the user's own delivery promises, and that a
#: pasted imitation of the block is no record: P 0.855 / R 0.949, end status 0.617; a reply
#: that picks one of several offers by name ("The refund, please") agrees to that one:
#: end status 0.628; "€1,190, not €1,290" supersedes the €1,290 commitment: 0.638. No
#: longer blind after that. The floors sit just under what the rules
#: measure now; raise them as the rules improve.
#: Then the label guide's shapes (third-party promises, expectations with a time, the
#: user's own "I'll ...", announced states, listed options; offers asked as questions are
#: questions): recall 1.000, precision 0.800 -- this set predates the guide and leaves
#: those out, so most new "unmatched" records are commitments the guide counts
#: ("DPD will collect the laptop tomorrow", "PR #342 is up").
#: The fulfilment model (verbs, deliveries, arrivals; see the README): commitments
#: R 0.990 / P 0.786, end status 0.755; constraints R 1.000 / P 0.938, end status 0.452.
#: Claims became notes (scored apart: 7/7) and the act model was retrained with the tenth
#: blind batch: commitments R 0.989 / P 0.780 / end 0.758.
#: A take-back ("I have to take back the loan laptop") became a ``revoked`` record of its
#: own, as the label guide has it; this set predates that and labels only the earlier
#: grant's end: P 0.767 (two such records unmatched), end status 0.780.
#: A bare status announced without "I" is no grant, nor a bare want a constraint:
#: commitments P 0.780, constraints P 0.953.
FLOORS = {
    ("commitment", "precision"): 0.77, ("commitment", "recall"): 0.98,
    ("commitment", "status"): 0.77,
    ("constraint", "precision"): 0.94, ("constraint", "recall"): 0.99,
    ("constraint", "status"): 0.44,
}

@dataclass
class Figures(Counts):
    """Per-kind counts, end-status agreement, and the misses."""

    status_right: Counter[str] = field(default_factory=Counter)
    #: Every record of the kind, the retired reports included: what a scorer that counts
    #: each ``commitment`` record sees.
    every_record: Counter[str] = field(default_factory=Counter)
    every_correct: Counter[str] = field(default_factory=Counter)
    missed: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    wrong_status: list[str] = field(default_factory=list)

    def rate(self, kind: str, name: str) -> float:
        num, den = {"recall": (self.found, self.gold), "precision": (self.correct, self.records),
                    "status": (self.status_right, self.found),
                    "every": (self.every_correct, self.every_record)}[name]
        return num[kind] / den[kind] if den[kind] else 1.0

    def report(self) -> str:
        lines = [f"{kind:<10} recall {self.rate(kind, 'recall'):.3f} "
                 f"({self.found[kind]}/{self.gold[kind]})  precision "
                 f"{self.rate(kind, 'precision'):.3f} ({self.correct[kind]}/{self.records[kind]})"
                 f"  end status {self.rate(kind, 'status'):.3f}"
                 f"  (every record: precision {self.rate(kind, 'every'):.3f})"
                 for kind in KINDS]
        if self.gold[CLAIMED]:
            lines.append(f"user claims (notes) recall {self.found[CLAIMED]}/{self.gold[CLAIMED]}")
        for title, rows in (("missed", self.missed), ("unmatched", self.unmatched),
                            ("wrong end status", self.wrong_status)):
            lines.append(f"{title}: {len(rows)}")
            lines.extend(f"  {row}" for row in rows)
        return "\n".join(lines)



#: Attrs of a record the lifecycle retired on arrival as an event of another record: an
#: undo ("I've cancelled the hold", ``undoes``) or, in files written before reports became
#: notes, a report that an earlier commitment was kept ("Done: the refund has been
#: issued", ``reports``). The label guide counts neither as a commitment of its own; the
#: events are on the records they name.
EVENT_ATTRS = ("undoes", "reports")
#: A user's claim about what the agent said: a note, not a commitment.
CLAIMED = "claimed"


def score(outputs: Outputs) -> Figures:
    fig = Figures()
    for row, records in outputs:
        cid = row["id"]
        # This set predates the label guide's "a user's claim is never a commitment" and
        # labels 7 claims as commitments: they are notes here, scored on their own.
        claims = [g for g in row["gold"].get("commitments", []) if g.get("subtype") == CLAIMED]
        notes = [r for r in records if r["kind"] == "note" and r["subtype"] == CLAIMED]
        fig.gold[CLAIMED] += len(claims)
        fig.found[CLAIMED] += sum(any(r["turn"] == g["turn"] + 1 and overlaps(r, g)
                                      for r in notes) for g in claims)
        for kind, key in KINDS.items():
            gold = [g for g in row["gold"].get(key, []) if g.get("subtype") != CLAIMED]
            every = [r for r in records if r["kind"] == kind]
            mine = [r for r in every if not any(a in r["attrs"] for a in EVENT_ATTRS)]
            fig.every_record[kind] += len(every)
            fig.every_correct[kind] += sum(
                any(g["turn"] + 1 == r["turn"] and overlaps(r, g) for g in gold) for r in every)
            for g in gold:
                fig.gold[kind] += 1
                hits = [r for r in mine if r["turn"] == g["turn"] + 1 and overlaps(r, g)]
                if not hits:
                    fig.missed.append(f"{cid} turn {g['turn'] + 1} {kind} {g['subtype']}: "
                                      f"{g['text']!r}")
                    continue
                fig.found[kind] += 1
                want = (g.get("final_subtype", g["subtype"]) if kind == "commitment" else None,
                        g["final_status"])
                got = (hits[0]["subtype"] if kind == "commitment" else None, hits[0]["status"])
                if got == want:
                    fig.status_right[kind] += 1
                else:
                    fig.wrong_status.append(f"{cid} turn {g['turn'] + 1} {g['text']!r}: "
                                            f"gold {want}, got {got}")
            for r in mine:
                fig.records[kind] += 1
                if any(g["turn"] + 1 == r["turn"] and overlaps(r, g) for g in gold):
                    fig.correct[kind] += 1
                else:
                    fig.unmatched.append(f"{cid} turn {r['turn']} {kind} {r['subtype']}: "
                                         f"{r['text']!r}")
    return fig


@pytest.fixture(scope="module")
def extracted() -> tuple[list[dict[str, Any]], Outputs]:
    return extract(CORPUS)


@pytest.fixture(scope="module")
def figures(extracted) -> Figures:
    return score(extracted[1])


def test_gold_is_verbatim_and_covers_every_case(extracted):
    rows, _ = extracted
    assert len(rows) >= 20
    subtypes: Counter[str] = Counter()
    for row in rows:
        for key in KINDS.values():
            for g in row["gold"].get(key, []):
                content = row["messages"][g["turn"]]["content"] or ""
                assert content[g["start"]:g["end"]] == g["text"], (row["id"], g)
                subtypes[g["subtype"]] += 1
    for subtype in ("offered", "granted", "promised", "declined", "claimed", "requirement",
                    "prohibition"):
        assert subtypes[subtype] >= 3, subtypes


def test_user_claims_are_kept_as_notes(figures):
    """Every claim this set labels is found, as a note (never as a commitment)."""
    assert figures.gold[CLAIMED] >= 3
    assert figures.found[CLAIMED] == figures.gold[CLAIMED], figures.report()


def test_report(figures):
    """Print the figures (``pytest -s``); both kinds have gold to score."""
    print("\n" + figures.report())
    assert all(figures.gold[k] for k in KINDS)


@pytest.mark.parametrize(("kind", "name"), sorted(FLOORS))
def test_floor(figures, kind, name):
    assert figures.rate(kind, name) >= FLOORS[(kind, name)], figures.report()


if __name__ == "__main__":
    print(score(extract(CORPUS)[1]).report())
