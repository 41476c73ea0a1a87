"""Where sentences end: the one sentence splitter every rule reads through.

A sentence ends at terminal punctuation (with any closing quotes or brackets) before a
space or the end of the text -- not after a title or a common abbreviation ("Dr.",
"St.", "e.g.", "a.m.", "No." before a number) --, at terminal punctuation glued between a
lower-case word and a capital ("priced.I love", but not ``p.wg.Add`` in code), at a "?"
glued to the next word, and at a newline. Nothing inside a backtick code span ends a
sentence (```Order#valid?```). Spans are verbatim and, unless asked otherwise, trimmed of
surrounding white space; blank pieces are dropped.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from functools import lru_cache

import regex

from extractors.text.guard import rx

#: Where a sentence ends (the match is the end of the sentence before it).
BOUNDARY = rx(r"(?<!\b(?:Dr|Mr|Mrs|Ms|St|Jr|Sr|Prof|vs|etc|approx|e\.g|i\.e|a\.m|p\.m))"
              r"(?<!\bNo(?=\.\s*\d))"
              r"[.!?]+[\"')\]]*(?=\s|$)"
              r"|(?<=(?<![\w.])[\p{L}\p{N}]*\p{Ll}\p{Ll})[.!?]+(?=\p{Lu})|\?+(?=\S)(?![\w.-]+=)|\n",
              regex.VERSION0, linear=True)
#: A code span: no sentence ends inside one.
_CODE = rx(r"`[^`\n]{1,500}`", linear=True)


@lru_cache(maxsize=32)
def sentences(text: str, start: int = 0, end: int | None = None, *, trim: bool = True
              ) -> tuple[tuple[int, int], ...]:
    """Return (start, end) of each non-blank sentence of ``text[start:end]``, in order,
    trimmed of surrounding white space. ``trim=False`` keeps the white space before a
    sentence (it runs from where the last one ended): the clause cutter reads a
    coordinator there ("... broken. And I'm not paying" cuts before "I'm").

    Cached: the rules of one turn all ask for its sentences."""
    stop = len(text) if end is None else end
    code = [m.span() for m in _CODE.finditer(text, start, stop)] if "`" in text else []
    pieces = []
    last = start
    i = 0  # the first code span that does not end before this boundary (both in order)
    for m in BOUNDARY.finditer(text, start, stop):
        while i < len(code) and code[i][1] <= m.start():
            i += 1
        if i < len(code) and code[i][0] < m.start():
            continue
        pieces.append((last, m.end()))
        last = m.end()
    pieces.append((last, stop))
    kept = []
    for a, b in pieces:
        inner = a
        while inner < b and text[inner].isspace():
            inner += 1
        while b > inner and text[b - 1].isspace():
            b -= 1
        if b > inner:
            kept.append((inner if trim else a, b))
    return tuple(kept)


def span_at(spans: Sequence[tuple[int, int]], at: int) -> tuple[int, int]:
    """The span among ``spans`` (in order, not overlapping) that holds offset ``at``, or
    the empty span ``(at, at)`` when none does."""
    i = bisect.bisect_right(spans, (at, spans[-1][1] + 1 if spans else 0)) - 1
    return spans[i] if i >= 0 and spans[i][0] <= at < spans[i][1] else (at, at)
