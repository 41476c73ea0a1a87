"""The assistant's plans of attack: "Plan: make `PaymentValidator` a static utility
class", "The quick mitigation would be widening the sleep to 600ms", "First I'll try the
low-touch route: relax the constraint to `~> 2.9`".

A plan is not a promise to the user and is not carried in the block on its own (the
subtype ``planned`` has no block line). It is kept so that a later report of failure
can turn it into a failed approach (:mod:`extractors.session.approaches`), which is what an
agent must not retry after a compaction. Kind ``note``, subtype ``planned``; the
span is what the plan does, from after its cue to the end of its clause.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind, NoteSubtype
from extractors.text.clauses import statements, trim
from extractors.text.guard import rx

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "plans.regex.v1"
#: Below every other commitment reading: a clause that is also a promise stays one.
SCORE = 0.4
_F = regex.IGNORECASE | regex.V0
CUE = rx(
    r"\b(?:I['’]ll|I\s+will|let\s+me|let['’]s|I['’]m\s+going\s+to|we['’]ll)\s+(?:first\s+|now\s+)?"
    r"try\b(?:\s+(?:the|a|an)\s+[\w-]+\s+(?:route|approach|option|fix|path)\s*:)?|"
    r"(?:^|(?<=[.;:]\s))(?:the\s+)?(?:plan|first\s+attempt|next\s+attempt|(?:quick(?:est)?|"
    r"simplest|easiest|cheapest|obvious)\s+(?:fix|option|route|path|approach|mitigation))\s*:|"
    r"\b(?:the\s+)?(?:quick(?:est)?|simplest|easiest|cheapest|obvious|low-touch|first)\s+"
    r"(?:fix|path|option|route|approach|mitigation|thing\s+to\s+try)\s+(?:would\s+be|is)\b|"
    r"\bmy\s+(?:first\s+)?(?:plan|idea|approach)\s+is\s+(?:to\s+)?|"
    # "My first try is the cheap one: format to two decimals", "the next attempt will be
    # this: ..." -- the plan after the colon
    r"\b(?:my|our|the)\s+(?:[\w-]+\s+)?(?:try|attempt|plan|idea|approach|fix|bet)\s+"
    r"(?:is|will\s+be|would\s+be)\b[^:.;!?\n]{0,30}:", _F, linear=True)
#: Where the plan's clause ends.
END = rx(r"\s+[—–-]{1,2}\s+|\s*;\s*|,\s+(?:so|and\s+then|then|and\s+we|to\s+see)\b", _F)


class Plans:
    """Keep the assistant's plans, for the failed-approach resolver."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        if turn.role != "assistant" or not CUE.search(turn.text):
            return []
        text = turn.text
        out = []
        for start, end, asks in statements(text):
            m = CUE.search(text, start, end)
            if m is None or asks:
                continue
            stop = END.search(text, m.end(), end)
            a, b = trim(text, m.end(), stop.start() if stop else end)
            if b - a < 6:
                continue
            out.append(Candidate.of(text, a, b, kind=Kind.NOTE,
                                    subtype=NoteSubtype.PLANNED,
                                    score=SCORE, extractor=NAME, why="a plan of attack"))
        return out
