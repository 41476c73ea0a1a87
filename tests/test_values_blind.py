"""Values in technical and banking conversations nobody here wrote the patterns against
(``tests/data/values_blind.jsonl``: 24 conversations -- coding-agent sessions, IT and
infrastructure helpdesk, banking, payments and admin -- written and then labelled in a
separate pass by people given only ``LABELS.md`` and the brief in
``tests/data/values_blind_guide.md``; split once by conversation, 4 dev and 4 test per
group, seed 2026).

* ``dev``: read while changing patterns;
* ``test``: **frozen** -- scored only to report (here, and in the README), never read
  while changing patterns.

Scoring is that of ``tests/test_values_labelled.py`` (same kind, same turn, overlapping
span). The floors are the figures the pipeline measured when the set arrived, before any
pattern was changed for it, raised as extraction improves. Run
``python -m tests.test_values_blind [dev|test]`` to print the figures and every miss.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pytest

from tests.conftest import DATA
from tests.scoring import Outputs, extract, unverbatim
from tests.test_values_labelled import VALUE_KINDS, Figures, score

CORPUS = DATA / "values_blind.jsonl"
SPLITS = ("dev", "test")
#: On arrival (the pipeline of commit 1d54124, nothing tuned for this set):
#: dev  amount R 0.520 P 0.944, identifier R 0.453 P 0.720, datetime R 0.818 P 0.815;
#: test amount R 0.594 P 0.919, identifier R 0.547 P 0.699, datetime R 0.881 P 0.808.
#: After the first shapes read off dev (numbered hosts, switch ports, sort codes and the
#: account beside them, names in backticks): dev identifier R 0.600 P 0.755; test (scored
#: once, after) identifier R 0.642 P 0.720.
#: Then (second round, from dev): values of a tool's plain text held until relied on;
#: names as code writes them, hyphenated names, numbered hosts, inline code, drive
#: letters, MACs, numbered places, BICs (python-stdnum), tax and section references,
#: street-first addresses; bare money and quantities of work and size; timing phrases and
#: compact durations. dev: amount R 0.837 P 0.916, identifier R 0.849 P 0.826, datetime
#: R 0.871 P 0.857; test (scored once, after): amount R 0.754 P 0.877, identifier R 0.772
#: P 0.797, datetime R 0.893 P 0.869.
#: The goal on test: identifier R 0.95 and P 0.90, amount and datetime R 0.95.
FLOORS: dict[str, dict[tuple[str, str], float]] = {
    "dev": {("amount", "recall"): 0.83, ("amount", "precision"): 0.91,
            ("identifier", "recall"): 0.84, ("identifier", "precision"): 0.82,
            ("datetime", "recall"): 0.86, ("datetime", "precision"): 0.85},
    "test": {("amount", "recall"): 0.75, ("amount", "precision"): 0.87,
             ("identifier", "recall"): 0.77, ("identifier", "precision"): 0.79,
             ("datetime", "recall"): 0.89, ("datetime", "precision"): 0.86},
}

pytestmark = pytest.mark.slow


def split_of(outputs: Outputs, split: str) -> Outputs:
    return [(row, records) for row, records in outputs if row["split"] == split]


@pytest.fixture(scope="module")
def extracted() -> tuple[list[dict[str, Any]], Outputs]:
    return extract(CORPUS)


def test_the_set_is_split_once_and_its_gold_is_verbatim(extracted):
    rows, _ = extracted
    groups = Counter((row["id"].rsplit("-", 1)[0], row["split"]) for row in rows)
    assert len(rows) >= 20 and set(groups.values()) == {4}, groups
    kinds: Counter[str] = Counter()
    for row in rows:
        for g in row["gold"]["values"]:
            content = row["messages"][g["turn"]]["content"] or ""
            assert content[g["start"]:g["end"]] == g["text"], (row["id"], g)
            kinds[g["kind"]] += 1
    assert all(kinds[k] >= 100 for k in VALUE_KINDS), kinds


def test_every_record_is_verbatim(extracted):
    assert unverbatim(extracted[1]) == []


@pytest.mark.parametrize("split", SPLITS)
def test_floors(extracted, split):
    figures = score(split_of(extracted[1], split))
    for (kind, name), floor in FLOORS[split].items():
        rate = figures.recall(kind) if name == "recall" else figures.precision(kind)
        assert rate >= floor, (split, kind, name, figures.report().splitlines()[:4])


def main(split: str) -> Figures:
    return score(split_of(extract(CORPUS)[1], split))


if __name__ == "__main__":
    print(main(sys.argv[1] if len(sys.argv) > 1 else "dev").report())
