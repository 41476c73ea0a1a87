"""Greedy selection of non-overlapping spans in O(n log n), and the union of spans.

Every extractor that finds overlapping matches keeps the preferred ones the same way:
walk the matches in order of preference and keep each that overlaps nothing kept so
far. Kept spans never overlap, so ordered by start they are ordered by end too, and a
new span can only clash with its neighbours in that order: one binary search per match
instead of a scan of everything kept (which made a 1 MB turn quadratic).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

T = TypeVar("T")


class DisjointSpans(Generic[T]):
    """Non-overlapping spans with their items, ordered by start."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        self.items: list[T] = []

    def clash(self, start: int, end: int) -> int | None:
        """Return the index of a kept span overlapping ``[start, end)``, if any."""
        i = bisect.bisect_right(self._starts, start)
        if i > 0 and (self._ends[i - 1] > start or self._starts[i - 1] == start):
            return i - 1
        if i < len(self._starts) and self._starts[i] < end:
            return i
        return None

    def add(self, start: int, end: int, item: T) -> None:
        """Keep ``item`` at ``[start, end)``; the caller checked :meth:`clash` first."""
        i = bisect.bisect_right(self._starts, start)
        self._starts.insert(i, start)
        self._ends.insert(i, end)
        self.items.insert(i, item)


def select(preferred: Iterable[T], span: Callable[[T], tuple[int, int]]) -> list[T]:
    """Keep each item (in order of preference) that overlaps none kept; return by start."""
    kept: DisjointSpans[T] = DisjointSpans()
    for item in preferred:
        start, end = span(item)
        if kept.clash(start, end) is None:
            kept.add(start, end, item)
    return kept.items


def merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of ``spans``: sorted, disjoint, empty ones dropped, overlapping or touching
    ones joined (so their ends are sorted too, and one binary search finds a clash)."""
    out: list[list[int]] = []
    for a, b in sorted(spans):
        if b <= a:
            continue
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]
