"""Clauses: cut a turn into clauses.

A turn is cut into sentences, then into clauses at coordinators, semicolons, dashes and
colons (and, with a parse, before every coordinated verb); each span is verbatim and
trimmed of punctuation and discourse openers ("Understood --", "OK,"). Also here: the
sentences around given spans or holding cue words (what an extractor asks spaCy to
parse), and a turn's statements. Reading each clause for who does what, when, and
whether is :mod:`extractors.text.clause_features`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING

import regex

from extractors.text import guard
from extractors.text.guard import rx
from extractors.text.lexicon import stem
from extractors.text.nlp import parsed_span
from extractors.text.sentences import sentences

if TYPE_CHECKING:
    from spacy.tokens import Doc


#: Clause boundaries inside a sentence: ; dashes, ": ", and coordinators before a subject.
#: A boundary that begins with white space begins where the white space does, or where
#: the last one ended (``(?:\G|(?<!\s))``): the matches are the same, and a long run of
#: spaces is tried once, not from each of its positions.
BOUNDARY = rx(
    r"(?:\G|(?<!\s))(?:\s*;\s*|\s+[—–-]{1,2}\s+|\s*[—–]\s*)|:\s+|"
    r",?(?:\G|(?<!\s))\s+(?P<cc>and|but|so|plus|or)\s+"
    r"(?=(?:also\s+)?(?:I|we|you|they|he|she|it)\b)|"
    r",\s+(?=(?:I|we)(?:['’]\w+)?\s)|,?(?:\G|(?<!\s))\s+and\s+(?=\w+ing\s)|"
    # ", so the backfill will take ...": after a comma, a coordinator before a noun phrase
    r",\s+(?:and|but|so)\s+(?=(?:the|a|an|our|your|their|his|her|its|this|that|these|those|"
    r"each|every|all|some|any|no)\s|[A-Z][\w-]*\s)",
    regex.IGNORECASE, linear=True,
)
#: A quoted passage: someone else's words (or a policy's, or a commit message): never the
#: speaker's commitment, and no clause ends inside it.
QUOTED = rx(r"\"[^\"\n]{3,500}\"|“[^”\n]{3,500}”|‘[^’\n]{3,500}’|"
            r"(?<![\w'’])'(?=\S)(?:[^'\n]|(?<=\w)'(?=\w)){3,500}'(?![\w'’])", linear=True)
_COORD = rx(r",|\b(?:and|but|so|plus|or)\b", regex.IGNORECASE)
INTRO = rx(
    r"^(?:(?:ok(?:ay)?|sure|yes|yeah|no\s+problem|of\s+course|understood|great|certainly|"
    r"absolutely|alright|right|done|good\s+news|thanks?|thank\s+you|perfect|sorry|"
    r"unfortunately|in\s+that\s+case|actually|also|so|and|but|then|fine|hello|hi|hey|oh|well|"
    r"plus|just|one\s+more\s+thing)\b[,!.:;]?\s*)+",
    regex.IGNORECASE, linear=True,
)


@dataclass(frozen=True)
class Clause:
    """A clause span of a turn and where it sits."""

    start: int
    end: int
    sentence: int
    question: bool
    coordinated: bool  # joined to the previous clause of its sentence by a coordinator


_CUE_WORD = rx(r"[^\W\d_]+")


def cue_sentences(text: str, words: frozenset[str], stems: frozenset[str] = frozenset()
                  ) -> tuple[tuple[int, int], ...]:
    """Return the sentences of ``text`` with a word in ``words`` (lower-cased; "we'll"
    counts as "we") or whose :func:`stem` is in ``stems``: where rules that need one of
    those words could fire, so where their parse is worth its cost."""
    out = []
    for a, b in sentences(text, trim=False):
        for w in _CUE_WORD.findall(text, a, b):
            lw = w.lower()
            if lw in words or (stems and stem(lw) in stems):
                out.append((a, b))
                break
    return tuple(out)


def sentences_around(text: str, spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Return the sentences of ``text`` (as :func:`clauses` cuts them) that overlap any of
    ``spans``: the ranges an extractor asks spaCy to parse."""
    spans = sorted(spans)
    if not spans:
        return ()
    starts = [s for s, _ in spans]
    reach = list(accumulate((e for _, e in spans), max))  # furthest end among the first i
    empty = {s for s, e in spans if s == e}
    out = []
    for a, b in sentences(text, trim=False):
        before = bisect_left(starts, b)  # the spans that start before the sentence ends
        if (before and reach[before - 1] > a) or a in empty:
            out.append((a, b))
    return tuple(out)


@lru_cache(maxsize=32)
def statements(text: str) -> tuple[tuple[int, int, bool], ...]:
    """Every sentence of ``text`` as (start, end, asks): trimmed of discourse words and end
    punctuation (:func:`trim`), and whether it was a question. Cached: several session
    rules read the same turn's statements."""
    out = []
    for a, b in sentences(text):
        start, end = trim(text, a, b)
        out.append((start, end, text[a:b].endswith("?")))
    return tuple(out)


def _abbreviated(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` ends in a dotted abbreviation ("p.m.", "U.S.")."""
    return end - start >= 4 and text[end - 3] == "." and text[end - 2].isalpha() \
        and text[end - 4].isalpha() and (end - start == 4 or not text[end - 5].isalpha())


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in ",;:—–-\"'"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;:.!?—–-\""):
        if text[end - 1] == "." and _abbreviated(text, start, end):
            break  # the stop of "6 p.m." or "e.g." is part of the word
        if text[end - 1] == '"' and text.count('"', start, end - 1) % 2:
            break  # the mark that closes a quotation the clause opened
        end -= 1
    m = INTRO.match(text, start, end)
    if m and m.end() < end:
        start = m.end()
    return start, end


def _parse_cuts(doc: Doc | None, start: int, end: int) -> set[int]:
    """Return char offsets of coordinators that join two verbs in [start, end)."""
    cuts: set[int] = set()
    for tok in parsed_span(doc, start, end) or []:
        if tok.dep_ == "conj" and tok.pos_ in {"VERB", "AUX"} and tok.head.pos_ in {"VERB",
                                                                                  "AUX"}:
            cc = [c for c in tok.head.children if c.dep_ == "cc" and c.i < tok.i]
            if cc:
                cuts.add(cc[-1].idx)
    return cuts


class _Quoted:
    """The quotations of a sentence, and whether a position falls inside one (a binary
    search: a long pasted sentence may hold many)."""

    def __init__(self, text: str, start: int, end: int) -> None:
        spans = [m.span() for m in QUOTED.finditer(text, start, end)]
        self._starts = [a for a, _ in spans]
        self._ends = [b for _, b in spans]

    def inside(self, pos: int) -> bool:
        i = bisect_left(self._starts, pos) - 1
        return i >= 0 and pos < self._ends[i]


def clauses(text: str, doc: Doc | None = None, skip: list[tuple[int, int]] | None = None
            ) -> list[Clause]:
    """Cut ``text`` into clauses (verbatim, trimmed spans), skipping ``skip`` ranges."""
    out: list[Clause] = []
    skip = skip or []
    for n, (s_start, s_end) in enumerate(sentences(text, trim=False)):
        if any(a <= s_start < b for a, b in skip):
            continue
        question = text[s_start:s_end].endswith("?")
        pieces: list[tuple[int, int, bool]] = []
        pos, joined = s_start, False
        cuts = sorted(_parse_cuts(doc, s_start, s_end))
        quoted = _Quoted(text, s_start, s_end)
        bounds = [(m.start(), m.end(), bool(_COORD.search(m.group())))
                  for m in BOUNDARY.finditer(text, s_start, s_end)
                  if not quoted.inside(m.start())]
        for c in cuts:
            if not any(a <= c < b for a, b, _ in bounds) and not quoted.inside(c):
                word = guard.match(r"\w+", text[c:s_end])
                bounds.append((c, c + (word.end() if word else 0), True))
        for a, b, coord in sorted(bounds):
            if a < pos:
                continue
            pieces.append((pos, a, joined))
            pos, joined = b, coord
        pieces.append((pos, s_end, joined))
        for a, b, coord in pieces:
            a, b = trim(text, a, b)
            if b > a:
                out.append(Clause(a, b, n, question, coord))
    return out

