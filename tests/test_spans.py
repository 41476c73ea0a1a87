"""Greedy non-overlapping selection agrees with the obvious quadratic version."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from extractors.text.spans import select

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
