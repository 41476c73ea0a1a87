"""Commitments and constraints on conversations nobody here wrote the rules against
(``tests/data/commitments_blind.jsonl``: written and labelled blind from
``tests/data/commitments_guide.md`` only, in eighteen batches, each split once by
conversation; the later batches went to train and dev only, and half of dev -- the
conversations whose id hashes even, ``zlib.crc32`` -- moved to train once dev had grown
past train).

* ``train``: may teach the act model (``make train``) and be read while changing rules;
* ``dev``: read while changing rules and choosing the act model's thresholds;
* ``test`` (25 conversations of the first batch): **frozen** -- scored only to report
  (here, and in the README), never read while changing rules or features;
* ``unseen`` (20 conversations of the ninth batch, by writers and labellers new to the
  set): **frozen** like ``test`` and never trained on -- the honest figure for a
  conversation nobody here has read. Its misses are never printed (``report`` prints its
  totals only).

Scoring is that of ``tests/test_commitments_labelled.py`` (same-turn overlap; end subtype
and status of each found item). A user's claim about what the agent said is not a
commitment in the label guide: it is a ``note`` (subtype ``claimed``), like the session
facts, and so is not scored here; a claim mistaken for a commitment costs precision. The
report also gives precision over every ``commitment`` record, the reports that retire
on arrival included.

Run ``python -m tests.test_commitments_blind [train|dev|test]`` to print the figures and
every miss of a split.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pytest

from scratchpad.bulk import run_corpus
from scratchpad.messages import read_corpus
from tests.conftest import DATA
from tests.scoring import Outputs
from tests.test_commitments_labelled import KINDS, Figures, score

CORPUS = DATA / "commitments_blind.jsonl"
SPLITS = ("train", "dev", "test", "unseen")
#: Splits whose misses are never printed: scored to report, not to read.
FROZEN = ("test", "unseen")
#: Floors per split, just under what the pipeline measures (raise them as it improves).
#: Rules alone, before this set was read (test): commitments R 0.446 P 0.656 end 0.718,
#: constraints R 0.594 P 0.774. After the general shapes the dev and train splits pointed
#: to, plus the act model: see the README ("Commitments and constraints, blind set").
FLOORS: dict[str, dict[tuple[str, str], float]] = {
    # dev (146 conversations: 106 since half of it moved to train by a fixed hash of the
    # id, and the seventeenth and eighteenth batches whole): commitments R 0.773 / P 0.813
    # / end 0.696, constraints R 0.837 / P 0.852 / end 0.476, with the models retrained on
    # the 267 train conversations (the 106 alone: 0.803 / 0.824 / 0.703 and 0.859 / 0.857
    # / 0.468; with the models of 156: 0.797 / 0.829 / 0.721 and 0.838 / 0.840 / 0.478)
    "dev": {("commitment", "recall"): 0.77, ("commitment", "precision"): 0.81,
            ("commitment", "status"): 0.69,
            ("constraint", "recall"): 0.83, ("constraint", "precision"): 0.85,
            ("constraint", "status"): 0.47},
    # The frozen split's floors guard the goals where they are met (commitments R
    # 0.85 / P 0.80 / end 0.75, constraints P 0.75) and sit a couple of items under the last
    # end-of-round score where they are not (commitments P, constraints R; constraint end
    # status has no goal). They are not raised to each new score: a floor just under the
    # score turns every rule change into a keep-or-drop test against the frozen split
    # (and a failing floor prints its totals). At the end of the ninth round constraints
    # scored R 0.783 (54/69, one item fewer than the eighth) / end 0.500: their floors
    # moved to a couple of items under that, as the rule above says.
    "test": {("commitment", "recall"): 0.85, ("commitment", "precision"): 0.80,
             ("commitment", "status"): 0.75,
             ("constraint", "recall"): 0.76, ("constraint", "precision"): 0.75,
             ("constraint", "status"): 0.47},
    # The ninth batch, scored on arrival and at the end of its round (commitments R 0.673 /
    # P 0.734 / end 0.589, constraints R 0.724 / P 0.776 / end 0.474, after the models
    # were retrained with the tenth batch; at the end of the next round R 0.683 / P 0.737 /
    # end 0.624, constraints R 0.724 / P 0.778; after the eighth round R 0.677 / P 0.752 /
    # end 0.631, constraints unchanged): a couple of items under, to catch a regression on
    # conversations nobody here has read.
    "unseen": {("commitment", "recall"): 0.67, ("commitment", "precision"): 0.74,
               ("commitment", "status"): 0.61,
               ("constraint", "recall"): 0.70, ("constraint", "precision"): 0.75,
               ("constraint", "status"): 0.45},
}


def split_of(outputs: Outputs, split: str) -> Outputs:
    return [(row, records) for row, records in outputs if row.get("split") == split]


@pytest.fixture(scope="module")
def extracted() -> tuple[list[dict[str, Any]], Outputs]:
    """Every row, and the outputs of the scored splits (the train split is not scored
    here: the act model learned from it)."""
    rows = read_corpus(CORPUS)
    scored = [row for row in rows if row["split"] in FLOORS]
    return rows, list(run_corpus(scored, source=CORPUS.name))


def test_the_set_is_split_once_and_its_gold_is_verbatim(extracted):
    rows, _ = extracted
    splits = Counter(row["split"] for row in rows)
    assert splits["test"] >= 20 and splits["dev"] >= 10 and splits["train"] >= 10, splits
    assert splits["unseen"] >= 20 and set(splits) == set(SPLITS), splits
    assert len({row["domain"] for row in rows}) >= 10
    for row in rows:
        assert not [m for m in row["messages"] if m["role"] == "system"], row["id"]
        for key in KINDS.values():
            for g in row["gold"].get(key, []):
                content = row["messages"][g["turn"]]["content"] or ""
                assert content[g["start"]:g["end"]] == g["text"], (row["id"], g)


@pytest.mark.parametrize("split", sorted(FLOORS))
def test_floors(extracted, split):
    figures = score(split_of(extracted[1], split))
    for (kind, name), floor in FLOORS[split].items():
        rate = figures.rate(kind, name)
        assert rate >= floor, (split, kind, name, round(rate, 3),
                               totals(figures) if split in FROZEN else figures.report())


def totals(figures: Figures) -> str:
    """The figures without the misses: all a frozen split shows."""
    return "\n".join(line for line in figures.report().splitlines()
                     if not line.startswith((" ", "missed", "unmatched", "wrong end")))


def report(split: str) -> Figures:
    rows = [row for row in read_corpus(CORPUS) if row["split"] == split]
    return score(list(run_corpus(rows, source=CORPUS.name)))


if __name__ == "__main__":
    for name in sys.argv[1:] or ["dev"]:
        figures = report(name)
        print(f"== {name}\n{totals(figures) if name in FROZEN else figures.report()}")
