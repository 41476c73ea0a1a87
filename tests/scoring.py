"""What the labelled-set scorers share: the outputs they read, span overlap, the counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scratchpad.bulk import run_corpus
from scratchpad.messages import read_corpus

#: (conversation row, its records as JSON) per conversation, as ``run_corpus`` yields.
Outputs = list[tuple[Mapping[str, Any], list[dict[str, Any]]]]


def overlaps(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """True if two ``start``/``end`` spans share a character."""
    return a["start"] < b["end"] and b["start"] < a["end"]


@dataclass
class Counts:
    """Per-kind counts: gold items, gold items found, records, records that are right."""

    gold: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)
    records: Counter[str] = field(default_factory=Counter)
    correct: Counter[str] = field(default_factory=Counter)


def extract(corpus: Path) -> tuple[list[dict[str, Any]], Outputs]:
    """Read a labelled corpus and extract every conversation (in-memory stores)."""
    rows = read_corpus(corpus)
    return rows, list(run_corpus(rows, source=corpus.name))


def unverbatim(outputs: Outputs) -> list[tuple[Any, dict[str, Any]]]:
    """Every (conversation id, record) whose ``text`` is not ``content[start:end]`` of its
    turn: none may be."""
    return [(row["id"], rec) for row, records in outputs for rec in records
            if (row["messages"][rec["turn"] - 1]["content"] or "")[rec["start"]:rec["end"]]
            != rec["text"]]
