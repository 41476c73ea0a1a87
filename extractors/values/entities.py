"""spaCy NER fallback: entities the patterns missed, as low-score candidates.

The regex extractors cover the common shapes; this one proposes what they miss, with
a low score so that an overlapping regex candidate wins the merge (which then names
both extractors in the record's ``attrs["extractors"]``): number-word money ("two
hundred and fifty dollars", which the small model often calls CARDINAL), calendar
phrases ("the end of the month"), and code-like names the model calls ORG, PRODUCT,
PERSON, GPE or FAC ("KX-2231B"). Each label keeps an entity only if its text passes
that label's test (:data:`LABELS`), and the NER runs only on sentences where one
could pass (:meth:`SpacyEntities.needs`). It returns nothing when there is no Doc or
the pipeline has no NER (a blank pipeline).
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from extractors.base import Candidate, Needs, TurnView
from extractors.records import Kind
from extractors.text.clauses import sentences_around
from extractors.text.guard import Guarded, rx
from extractors.text.nlp import doc_of

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "entities.spacy.v1"
SCORE = 0.4

_CURRENCY = rx(r"[$€£¥₹]|\b[A-Z]{3}\b|(?i:\b(?:dollars?|bucks|euros?|pounds|cents?|"
                          r"quid|pence)\b)")
_PERCENT = rx(r"%|(?i:\bper\s?cent)")
#: A DATE/TIME entity is kept only with a calendar or clock word; bare numbers (street
#: numbers, years, "monthly") are what spaCy's small model mislabels most.
_DATE_WORD = rx(
    r"\d:[0-5]\d|\d\s?(?i:am|pm)\b|\bMay\b|(?i:\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|"
    r"apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
    r"mon(?:day)?|tues?(?:day)?|wed(?:nesday)?|thu(?:rs?)?(?:day)?|fri(?:day)?|sat(?:urday)?|"
    r"sun(?:day)?|today|tomorrow|tonight|yesterday|noon|midnight|weekends?|weekdays?|weeks?|"
    r"fortnight|months?|quarter)\b)")
#: A name-like entity is an identifier only when it is code-like: a letter and a digit
#: in one word ("KX-2231B" read as an ORG), which a product or place name never is.
_CODE = rx(r"^(?=[^\s]*\d)(?=[^\s]*[A-Za-z])[A-Za-z0-9][\w./-]*[A-Za-z0-9]$")


class Label(NamedTuple):
    """What one spaCy entity label proposes, and the test its text must pass."""

    kind: Kind
    subtype: str
    keep: Guarded


#: spaCy label -> what it proposes. Number-word amounts come as MONEY, or as CARDINAL
#: or QUANTITY when the small model misreads them ("two hundred and fifty dollars").
LABELS: dict[str, Label] = {
    "MONEY": Label(Kind.AMOUNT, "money", _CURRENCY),
    "CARDINAL": Label(Kind.AMOUNT, "money", _CURRENCY),
    "QUANTITY": Label(Kind.AMOUNT, "money", _CURRENCY),
    "PERCENT": Label(Kind.AMOUNT, "percent", _PERCENT),
    "DATE": Label(Kind.DATETIME, "date", _DATE_WORD),
    "TIME": Label(Kind.DATETIME, "time", _DATE_WORD),
    "ORG": Label(Kind.IDENTIFIER, "code", _CODE),
    "PRODUCT": Label(Kind.IDENTIFIER, "code", _CODE),
    "PERSON": Label(Kind.IDENTIFIER, "code", _CODE),
    "GPE": Label(Kind.IDENTIFIER, "code", _CODE),
    "FAC": Label(Kind.IDENTIFIER, "code", _CODE),
}
#: Where an entity could be kept: a sentence without any of these is not worth the NER
#: (nor one without a code-like word, see :func:`_code_words`).
_WORTH = (_CURRENCY, _PERCENT, _DATE_WORD)
_WORD_CHUNK = rx(r"[\w./-]+", linear=True)


def _code_words(text: str) -> list[tuple[int, int]]:
    """The spans of words with a letter and a digit ("KX-2231B"): one pass over the words,
    where a pattern for "a letter, then anything, then a digit" rescans every run."""
    out = []
    for m in _WORD_CHUNK.finditer(text):
        word = m.group()
        if any(c.isdigit() for c in word) and any("a" <= c.lower() <= "z" for c in word):
            out.append(m.span())
    return out


def _uncovered(spans: list[tuple[int, int]], found: tuple[tuple[int, int], ...]
               ) -> list[tuple[int, int]]:
    """The ``spans`` that overlap none of the sorted spans ``found`` (one sort, then a
    binary search per span: time n log n in the spans)."""
    merged: list[list[int]] = []
    for a, b in found:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    starts = [a for a, _ in merged]
    out = []
    for a, b in spans:
        i = bisect.bisect_left(starts, b) - 1  # the last found span starting before ``b``
        if i < 0 or merged[i][1] <= a:
            out.append((a, b))
    return out


class SpacyEntities:
    """Propose value candidates from the shared Doc's named entities."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = True

    def needs(self, turn: TurnView) -> Needs:
        """Entities only of the sentences with a word an entity must contain to be kept
        (a currency, a percent sign, a calendar or clock word, a code-like word) that no
        pattern found already: elsewhere every entity would be dropped, by its label's
        test or by the merge (a pattern's candidate outscores an entity it overlaps), so
        recognizing them is wasted work."""
        text = turn.text
        spans = [m.span() for pattern in _WORTH for m in pattern.finditer(text)]
        spans += _code_words(text)
        if turn.found:  # what a pattern found wins the merge over any entity overlapping it
            spans = _uncovered(spans, turn.found)
        return Needs(entities=sentences_around(text, spans))

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return MONEY/PERCENT/DATE/TIME entities of the turn as low-score candidates."""
        if doc is None or not doc.has_annotation("ENT_IOB"):
            return []
        text = turn.text
        if doc_of(doc, text) is None:
            return []  # not this turn's parse
        out = []
        for ent in doc.ents:
            label = LABELS.get(ent.label_)
            if label is None or not label.keep.search(ent.text):
                continue
            kind, subtype = label.kind, label.subtype
            out.append(Candidate.of(text, ent.start_char, ent.end_char, kind=kind,
                                    subtype=subtype, score=SCORE, extractor=NAME,
                                    why=f"spaCy entity {ent.label_}"))
        return out
