"""Value precision and recall on our own labelled conversations (billing, travel, banking,
IT tickets, coding sessions, insurance), complementing the US-centred dev corpus.

Scoring: a gold value is found when a record of the same kind on the same turn overlaps
it (recall); a value record is correct when it overlaps a gold value of the same kind on
its turn (precision). Run ``python -m tests.test_values_labelled`` to print the figures
and every miss.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from scratchpad.bulk import run_corpus
from scratchpad.messages import read_corpus
from tests.conftest import DATA
from tests.scoring import Counts, Outputs, overlaps, unverbatim

#: Our labelled sets: ``labelled`` was written first and the patterns were tuned with it
#: in view; ``heldout`` was labelled blind, from the rules in tests/data/README.md only.
CORPORA = {"labelled": DATA / "values_labelled.jsonl", "heldout": DATA / "values_heldout.jsonl"}
VALUE_KINDS = ("amount", "identifier", "datetime")
FLOORS = {"precision": 0.90, "recall": 0.95}

@dataclass
class Figures(Counts):
    """Per-kind counts of gold values found and records matched, with the misses."""

    missed: list[tuple[str, str, int, str, str]] = field(default_factory=list)
    unmatched: list[tuple[str, str, int, str, str]] = field(default_factory=list)

    def recall(self, kind: str | None = None) -> float:
        """Return recall for one kind, or overall when ``kind`` is None."""
        found = self.found[kind] if kind else sum(self.found.values())
        gold = self.gold[kind] if kind else sum(self.gold.values())
        return found / gold if gold else 1.0

    def precision(self, kind: str | None = None) -> float:
        """Return precision for one kind, or overall when ``kind`` is None."""
        correct = self.correct[kind] if kind else sum(self.correct.values())
        records = self.records[kind] if kind else sum(self.records.values())
        return correct / records if records else 1.0

    def report(self) -> str:
        """Return the figures per kind and overall, then every miss, as text lines."""
        lines = []
        for kind in (*VALUE_KINDS, None):
            lines.append(
                f"{kind or 'overall':<10} recall {self.recall(kind):.4f} "
                f"({self.found[kind] if kind else sum(self.found.values())}/"
                f"{self.gold[kind] if kind else sum(self.gold.values())})  precision "
                f"{self.precision(kind):.4f} "
                f"({self.correct[kind] if kind else sum(self.correct.values())}/"
                f"{self.records[kind] if kind else sum(self.records.values())})")
        for title, rows in (("missed gold", self.missed), ("unmatched records", self.unmatched)):
            for kind in VALUE_KINDS:
                mine = [r for r in rows if r[0] == kind]
                lines.append(f"{title} [{kind}]: {len(mine)}")
                lines.extend(f"  {cid} turn {turn} {slot}: {text!r}"
                             for _, cid, turn, slot, text in mine)
        return "\n".join(lines)



def score(outputs: Outputs) -> Figures:
    """Count found gold values and correct value records per kind; list the misses."""
    fig = Figures()
    for row, records in outputs:
        cid = str(row["id"])
        gold = row["gold"]["values"]
        values = [r for r in records if r["kind"] in VALUE_KINDS]
        for g in gold:
            fig.gold[g["kind"]] += 1
            if any(r["kind"] == g["kind"] and r["turn"] == g["turn"] + 1 and overlaps(r, g)
                   for r in values):
                fig.found[g["kind"]] += 1
            else:
                fig.missed.append((g["kind"], cid, g["turn"] + 1, g["slot"], g["text"]))
        for r in values:
            fig.records[r["kind"]] += 1
            if any(g["kind"] == r["kind"] and g["turn"] + 1 == r["turn"] and overlaps(r, g)
                   for g in gold):
                fig.correct[r["kind"]] += 1
            else:
                fig.unmatched.append((r["kind"], cid, r["turn"], r["subtype"], r["text"]))
    return fig


def _run(name: str) -> tuple[list[dict[str, Any]], Outputs]:
    rows = read_corpus(CORPORA[name])
    return rows, list(run_corpus(rows, source=CORPORA[name].name))


@pytest.fixture(scope="module", params=sorted(CORPORA))
def extracted(request: pytest.FixtureRequest) -> tuple[list[dict[str, Any]], Outputs]:
    """Run the pipeline over each labelled corpus once for this module."""
    return _run(request.param)


@pytest.fixture(scope="module")
def figures(extracted: tuple[list[dict[str, Any]], Outputs]) -> Figures:
    return score(extracted[1])


def test_gold_is_verbatim_and_well_formed(extracted):
    rows, _ = extracted
    assert len(rows) >= {"scratchpad-labelled": 20, "scratchpad-heldout": 12}[rows[0]["source"]]
    kinds: Counter[str] = Counter()
    for row in rows:
        messages: Sequence[Mapping[str, Any]] = row["messages"]
        assert 4 <= len(messages) <= 10, row["id"]
        spans: dict[int, list[tuple[int, int]]] = {}
        for g in row["gold"]["values"]:
            content = messages[g["turn"]]["content"] or ""
            assert content[g["start"]:g["end"]] == g["text"], (row["id"], g)
            assert g["kind"] in VALUE_KINDS and g["slot"], (row["id"], g)
            for start, end in spans.get(g["turn"], []):
                assert end <= g["start"] or g["end"] <= start, (row["id"], g)
            spans.setdefault(g["turn"], []).append((g["start"], g["end"]))
            kinds[g["kind"]] += 1
    assert all(kinds[k] >= 50 for k in VALUE_KINDS), kinds


def test_every_record_is_verbatim(extracted):
    assert unverbatim(extracted[1]) == []


def test_report_per_kind(figures):
    """Print the per-kind figures (``pytest -s``); every kind has gold to score."""
    print("\n" + figures.report())
    assert all(figures.gold[k] for k in VALUE_KINDS)


# labelled: measured when the set was written, recall 0.8167 overall (amount 0.8205,
# identifier 0.6878, datetime 0.9540), precision 0.9948; now recall 1.0, precision 1.0
# (tuned with the set in view). heldout: first, blind run recall 0.9157 (amount 0.9444,
# identifier 0.8776, datetime 0.9179), precision 0.9897; after the general fixes its misses
# pointed to, recall 0.974, precision 0.996. The floors are the issue's, not these figures.
@pytest.mark.parametrize("name", ["precision", "recall"])
def test_floor(figures, name):
    measured = getattr(figures, name)()
    assert measured >= FLOORS[name], figures.report()


if __name__ == "__main__":
    for corpus in sorted(CORPORA):
        print(f"== {corpus}\n{score(_run(corpus)[1]).report()}")
