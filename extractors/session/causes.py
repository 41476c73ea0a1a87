"""Root causes, as the conversation states them: "The root cause is that the retry loop
reuses a closed session", "Turns out the cron job runs in UTC", "It was caused by a stale
DNS entry".

A diagnosis is what a long debugging session most needs to keep, and what a summary
turns into "some issue with sessions". A sentence states a cause when it names one:
"root cause", "the culprit", "the (real|actual|underlying) problem/issue/cause is",
"is/was caused by", "it turns out", "the reason is", "the bug is/was". Questions and
hedged guesses ("might be caused by", "could the cause be") are not findings. Kind
``note``, subtype ``found``, label ``root cause``; the span is the finding: the
sentence without the words that announce it ("The root cause is that") and without the
explanation after a colon, semicolon or dash.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind, NoteSubtype
from extractors.text.clauses import statements
from extractors.text.guard import rx

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: Below every commitment rule's score: where a clause is also an offer, a grant or a
#: promise, that reading wins the merge.
SCORE = 0.5
NAME = "causes.regex.v1"
_F = regex.IGNORECASE | regex.V0
CUE = rx(
    r"\broot[-\s]cause\b(?![-\s]analys)|\bculprit\b|\bthe\s+(?:real|actual|underlying)\s+"
    # a finding, not the request to find one ("find the actual bug")
    r"(?:problem|issue|cause|bug)\s+(?:is|was|here\s+is|turned\s+out)\b|\b(?:is|was|are|were)\s+(?:being\s+)?caused\s+by\b|\bturns?\s+out\b|\bturned\s+"
    r"out\b|\bthe\s+reason\s+(?:is|was)\b|\bthe\s+(?:bug|problem|issue|cause)\s+(?:is|was)\s+"
    r"(?:that|in|a|an|the|because)\b|\bthat['’]s\s+(?:the|what)\s+(?:cause|bug|problem|"
    r"causing|breaking)|\bwhich\s+(?:is\s+)?(?:what['’]?s\s+)?(?:caus|break)\w*", _F, linear=True)
#: Where the finding itself starts, after the words that announce it: "The root cause is
#: that | the totals are rounded ...", "Turns out | the cron job runs in UTC".
LEAD = rx(r"^.{0,60}?\b(?:(?:root[-\s]cause|reason|culprit|cause|bug|problem|issue)\s+(?:is|was)"
          r"\s+that|turns?\s+out(?:\s+that)?|turned\s+out(?:\s+that)?)\s+", _F, linear=True)
#: Where the finding ends: its explanation follows a colon, a semicolon or a dash.
EXPLAINED = rx(r"(?<!\s)(?:\s*[:;]\s|\s+[—–]\s+|\s+-\s+)", _F, linear=True)
HEDGE = rx(r"\b(?:might|may|could|possibly|perhaps|maybe|probably\s+not|not\s+sure|"
                      r"i\s+(?:wonder|suspect|think)|if|whether|rule\s+out|ruled\s+out)\b", _F)


def _finding(text: str, start: int, end: int) -> tuple[int, int]:
    """The finding of the sentence ``text[start:end]``: without the words that announce it
    and the explanation after it, when what is left still says something (15+ chars)."""
    sentence = text[start:end]
    lead = LEAD.match(sentence)
    a = start + lead.end() if lead else start
    announced = EXPLAINED.search(text, a, end) if lead is None else None
    if announced is not None and CUE.search(text, start, announced.start()):
        a = announced.end()  # "The actual root cause of #1207: `scheduleNext()` computes ..."
    cut = EXPLAINED.search(text, a, end)
    b = cut.start() if cut else end
    return (a, b) if b - a >= 15 else (start, end)


class Causes:
    """Pin stated root causes."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        if turn.role == "tool":
            return []
        text = turn.text
        if not CUE.search(text):
            return []
        out = []
        for start, end, asks in statements(text):
            sentence = text[start:end]
            cue = CUE.search(sentence)
            if cue is None or asks:
                continue
            if HEDGE.search(sentence[:cue.start()]) or HEDGE.search(sentence[cue.end():][:40]):
                continue
            if len(sentence) < 15:
                continue
            start, end = _finding(text, start, end)
            out.append(Candidate.of(text, start, end, kind=Kind.NOTE,
                                    subtype=NoteSubtype.FOUND,
                                    score=SCORE, extractor=NAME, why="a stated cause",
                                    label="root cause"))
        return out
