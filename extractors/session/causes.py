"""Root causes, as the conversation states them: "The root cause is that the retry loop
reuses a closed session", "Turns out the cron job runs in UTC", "It was caused by a stale
DNS entry".

A diagnosis is what a long debugging session most needs to keep, and what a summary
turns into "some issue with sessions". A sentence states a cause when it names one:
"root cause", "the culprit", "the (real|actual|underlying) problem/issue/cause is",
"is/was caused by", "it turns out", "the reason is", "the bug is/was". Questions and
hedged guesses ("might be caused by", "could the cause be") are not findings. Kind
``commitment``, subtype ``found``, label ``root cause``; the span is the sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import CommitmentSubtype, Kind
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
    r"(?:problem|issue|cause|bug)\b|\b(?:is|was|are|were)\s+(?:being\s+)?caused\s+by\b|\bturns?\s+out\b|\bturned\s+"
    r"out\b|\bthe\s+reason\s+(?:is|was)\b|\bthe\s+(?:bug|problem|issue|cause)\s+(?:is|was)\s+"
    r"(?:that|in|a|an|the|because)\b|\bthat['’]s\s+(?:the|what)\s+(?:cause|bug|problem|"
    r"causing|breaking)|\bwhich\s+(?:is\s+)?(?:what['’]?s\s+)?(?:caus|break)\w*", _F, linear=True)
HEDGE = rx(r"\b(?:might|may|could|possibly|perhaps|maybe|probably\s+not|not\s+sure|"
                      r"i\s+(?:wonder|suspect|think)|if|whether|rule\s+out|ruled\s+out)\b", _F)


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
            out.append(Candidate.of(text, start, end, kind=Kind.COMMITMENT,
                                    subtype=CommitmentSubtype.FOUND,
                                    score=SCORE, extractor=NAME, why="a stated cause",
                                    label="root cause"))
        return out
