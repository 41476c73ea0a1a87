"""spaCy NER fallback: MONEY, PERCENT, DATE and TIME entities as low-score candidates.

The regex extractors cover the common shapes; this one proposes what they miss, with
a low score so that an overlapping regex candidate wins the merge (which then names
both extractors in the record's ``attrs["extractors"]``). It reads the shared ``Doc``
and returns nothing when there is no Doc or the pipeline has no NER (a blank pipeline).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView, register
from scratchpad.records import Kind

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "entities.spacy.v1"
SCORE = 0.4

#: spaCy label -> (kind, subtype).
LABELS: dict[str, tuple[Kind, str]] = {
    "MONEY": (Kind.AMOUNT, "money"),
    "PERCENT": (Kind.AMOUNT, "percent"),
    "DATE": (Kind.DATETIME, "date"),
    "TIME": (Kind.DATETIME, "time"),
}
_CURRENCY = regex.compile(r"[$€£¥₹]|\b[A-Z]{3}\b|(?i:dollars?|bucks|euros?|pounds|cents?|quid)")
_PERCENT = regex.compile(r"%|(?i:per\s?cent)")
#: A DATE/TIME entity is kept only with a calendar or clock word; bare numbers (street
#: numbers, years, "monthly") are what spaCy's small model mislabels most.
_DATE_WORD = regex.compile(
    r"\d:[0-5]\d|\d\s?(?i:am|pm)\b|\bMay\b|(?i:\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|"
    r"apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
    r"mon(?:day)?|tues?(?:day)?|wed(?:nesday)?|thu(?:rs?)?(?:day)?|fri(?:day)?|sat(?:urday)?|"
    r"sun(?:day)?|today|tomorrow|tonight|yesterday|noon|midnight)\b)")


def _keep(label: str, text: str) -> bool:
    if label == "MONEY":
        return bool(_CURRENCY.search(text))
    if label == "PERCENT":
        return bool(_PERCENT.search(text))
    return bool(_DATE_WORD.search(text))


@register(NAME)
class SpacyEntities:
    """Propose value candidates from the shared Doc's named entities."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = True

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return MONEY/PERCENT/DATE/TIME entities of the turn as low-score candidates."""
        if doc is None or not doc.has_annotation("ENT_IOB"):
            return []
        text = turn.text
        if not text.startswith(doc.text):
            return []  # not this turn's parse
        out = []
        for ent in doc.ents:
            if ent.label_ not in LABELS or not _keep(ent.label_, ent.text):
                continue
            kind, subtype = LABELS[ent.label_]
            out.append(Candidate.of(text, ent.start_char, ent.end_char, kind=kind,
                                    subtype=subtype, score=SCORE, extractor=NAME,
                                    why=f"spaCy entity {ent.label_}"))
        return out
