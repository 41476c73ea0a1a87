"""The shipped schemas on conversations written and labelled blind
(``tests/data/schemas_blind.jsonl``; field guide ``tests/data/schemas_guide.md``).

Field-level accuracy: a conversation's field is right when it is rightly empty, when its
single value matches the gold (words agree and the gold turn is among the value's turns,
as in ``tests/test_schemas_labelled.py``), or when its list holds every gold item and
nothing else. A field the gold marks ``ambiguous`` is right only when the state says so
(no schema reports ambiguity yet, so these count as wrong). Also counted: fields filled
from a tool result where the gold value is a user's or agent's statement.

The ``test`` split is frozen: it is scored to report, never read while changing rules.
``python -m tests.test_schemas_blind [dev|test|all]`` prints the figures and every miss.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from schemas import SHIPPED
from scratchpad import Scratchpad
from scratchpad.messages import read_corpus
from tests.conftest import DATA
from tests.test_schemas_labelled import matches

CORPUS = DATA / "schemas_blind.jsonl"
#: The first scored run (before any rule was changed for this set): dev 0.542
#: (refund 0.583, ticket 0.429, coding 0.593), test 0.533 (0.700 / 0.257 / 0.600); two
#: fields were filled from a tool result where a person stated the value. After the
#: product, follow-up, service-target, diff-header and priority shapes: dev 0.625 (0.583 / 0.690 /
#: 0.611), test 0.567 (0.700 / 0.343 / 0.622). After the corrected-figure, figure-pick,
#: attempt-list, root-cause-span, project-path and constraint shapes: dev 0.750 (0.729 /
#: 0.786 / 0.741), test 0.550 (0.700 / 0.343 / 0.578) -- the dev gains did not carry to
#: the frozen part, which lost two coding fields. Floors sit just under the latest run;
#: raise them as field filling improves (the goal is 0.90 and no tool fills).
FLOORS = {"dev": 0.74, "test": 0.54}
MOST_TOOL_FILLS = 2


@dataclass
class Accuracy:
    right: Counter[str] = field(default_factory=Counter)
    total: Counter[str] = field(default_factory=Counter)
    tool_fills: int = 0
    misses: list[str] = field(default_factory=list)

    def rate(self, prefix: str = "") -> float:
        keys = [k for k in self.total if k.startswith(prefix)]
        total = sum(self.total[k] for k in keys)
        return sum(self.right[k] for k in keys) / total if total else 1.0

    def report(self) -> str:
        lines = [f"field accuracy {self.rate():.3f} ({sum(self.right.values())}/"
                 f"{sum(self.total.values())}); tool fills {self.tool_fills}"]
        lines += [f"  {name} {self.rate(name + '.'):.3f}" for name in sorted(SHIPPED)
                  if any(k.startswith(name + ".") for k in self.total)]
        lines += [f"  {k:<32} {self.right[k]}/{self.total[k]}" for k in sorted(self.total)]
        return "\n".join([*lines, f"misses: {len(self.misses)}",
                          *(f"  {m}" for m in self.misses)])


def _text(value: Any) -> Any:
    if isinstance(value, list):
        return [v.text for v in value]
    return value.text if value is not None else None


def score(rows: list[dict[str, Any]], split: str | None = None) -> Accuracy:
    acc = Accuracy()
    for row in rows:
        if split is not None and row["split"] != split:
            continue
        schema = SHIPPED[row["schema"]]
        with Scratchpad(":memory:") as pad:
            pad.ingest(row["id"], row["messages"])
            state = pad.state(row["id"], schema)
        roles = {i: m.get("role") for i, m in enumerate(row["messages"], 1)}
        for name, binding in schema.bindings().items():
            gold, value = row["gold"].get(name), getattr(state, name)
            if isinstance(gold, dict) and "ambiguous" in gold:
                right = False
            elif binding.pick != "all":
                right = (gold is None and value is None) or (
                    gold is not None and value is not None and matches(value, gold))
                if (gold is not None and value is not None and roles[gold["turn"]] != "tool"
                        and roles.get(value.turn) == "tool"):
                    acc.tool_fills += 1
            else:
                items = gold or []
                right = (all(any(matches(v, g) for v in value) for g in items)
                         and all(any(matches(v, g) for g in items) for v in value))
            key = f"{row['schema']}.{name}"
            acc.total[key] += 1
            acc.right[key] += right
            if not right:
                acc.misses.append(f"{row['id']} {name}: gold {gold!r}, got {_text(value)!r}")
    return acc


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return read_corpus(CORPUS)


def test_the_set_is_what_its_readme_says(rows) -> None:
    assert Counter((r["schema"], r["split"]) for r in rows) == {
        (s, p): n for s in ("refund", "ticket", "coding") for p, n in (("dev", 6), ("test", 5))}
    for row in rows:
        assert set(row["gold"]) == set(SHIPPED[row["schema"]].bindings())


@pytest.fixture(scope="module")
def by_split(rows) -> dict[str, Accuracy]:
    return {split: score(rows, split) for split in ("dev", "test")}


@pytest.mark.parametrize("split", ["dev", "test"])
def test_floor(by_split, split) -> None:
    assert by_split[split].rate() >= FLOORS[split], by_split[split].report()


def test_fields_are_not_filled_from_tool_output_where_a_person_stated_them(by_split) -> None:
    fills = sum(acc.tool_fills for acc in by_split.values())
    assert fills <= MOST_TOOL_FILLS, "\n".join(acc.report() for acc in by_split.values())


if __name__ == "__main__":
    corpus = read_corpus(CORPUS)
    for part in sys.argv[1:] or ["dev"]:
        print(f"== {part}")
        print(score(corpus, None if part == "all" else part).report())
