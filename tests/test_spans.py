"""Greedy non-overlapping selection agrees with the obvious quadratic version."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from extractors.text.spans import merged, select

SPAN = st.tuples(st.integers(0, 60), st.integers(1, 15)).map(lambda p: (p[0], p[0] + p[1]))


def brute(preferred):
    kept = []
    for s, e in preferred:
        if not any(s < ke and ks < e for ks, ke in kept):
            kept.append((s, e))
    return sorted(kept)


@given(st.lists(SPAN, max_size=40))
def test_select_matches_brute_force(preferred):
    assert select(preferred, lambda span: span) == brute(preferred)


def test_merged_is_the_union_of_the_spans() -> None:
    assert merged([(5, 9), (0, 2), (2, 3), (8, 12), (4, 4), (20, 21)]) == [
        (0, 3), (5, 12), (20, 21)]
    assert merged([]) == []
