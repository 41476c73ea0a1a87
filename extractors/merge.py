"""Merge candidates from several extractors into one candidate per span.

Value candidates (amount, identifier, datetime) that overlap are one fact: the best
one is kept (highest score, then longest span, then kind priority) and the names of
every extractor that found it are kept in ``attrs["extractors"]``. Clause-level
candidates (commitment, constraint, question, note) may contain values; among
themselves, overlapping candidates of the same kind keep only the best (a note and a
commitment count as one kind here).
"""

from __future__ import annotations

from collections.abc import Iterable

from extractors.base import Candidate
from extractors.records import VALUE_KINDS, Kind
from extractors.text.spans import DisjointSpans

#: When value candidates of different kinds tie, the more specific kind wins.
KIND_PRIORITY = {Kind.IDENTIFIER: 3, Kind.AMOUNT: 2, Kind.DATETIME: 1}


def _rank(c: Candidate) -> tuple[float, int, int, str]:
    return (c.score, c.end - c.start, KIND_PRIORITY.get(c.kind, 0), c.extractor)


def _merge_group(cands: list[Candidate]) -> list[Candidate]:
    kept: DisjointSpans[Candidate] = DisjointSpans()
    for cand in sorted(cands, key=_rank, reverse=True):
        clash = kept.clash(cand.start, cand.end)
        if clash is None:
            kept.add(cand.start, cand.end, cand)
            continue
        other = kept.items[clash]
        names = sorted(set(other.attrs.get("extractors", [other.extractor])) | {cand.extractor})
        if len(names) > 1:
            kept.items[clash] = other.model_copy(
                update={"attrs": {**other.attrs, "extractors": names}})
    return kept.items


#: Clause kinds merged as one: a clause read both as a note (a plan, the opening
#: request, a claim) and as a commitment is the better-scored reading only.
CLAUSE_GROUP = {Kind.NOTE: Kind.COMMITMENT}


def merge(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Return one candidate per fact, ordered by (start, end, kind)."""
    values: list[Candidate] = []
    clauses: dict[Kind, list[Candidate]] = {}
    for cand in candidates:
        if cand.kind in VALUE_KINDS:
            values.append(cand)
        else:
            clauses.setdefault(CLAUSE_GROUP.get(cand.kind, cand.kind), []).append(cand)
    out = _merge_group(values)
    for kind in sorted(clauses, key=lambda k: k.value):
        out.extend(_merge_group(clauses[kind]))
    return sorted(out, key=lambda c: (c.start, c.end, c.kind.value))
