"""People named for a role in the work: who reviews the change.

"Ask @mkowalski to review", "Priya will review it", "reviewer: Dana Lee", "request a
review from @ops-team", "assign the PR to Tomás". A name is a ``@handle`` or one or two
capitalized words; it is pinned only where a review cue governs it (before it, within a
few words, or right after it: "Priya will review"). Kind ``identifier``, subtype
``handle`` or ``person``, label ``reviewer``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind
from extractors.text.guard import rx

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "people.regex.v1"
_F = regex.V0
#: A handle or a capitalized name (one or two words; not a pronoun or a sentence word).
_NAME = (r"(?P<name>@[\w][\w.-]{0,38}[\w]|(?!(?:I|We|You|They|He|She|It|The|This|That|"
         r"Please|Thanks|Can|Could|Would|Will|Let|Also|Then|Once|When|After|PR|CI|OK)\b)"
         r"\p{Lu}[\p{Ll}'’-]+(?:\s\p{Lu}[\p{Ll}'’-]+)?)")
BEFORE = rx(
    r"(?i:\b(?:ask(?:ed)?|have|get|let|ping(?:ed)?|tag(?:ged)?|cc|loop\s+in|add(?:ed)?|"
    r"assign(?:ed)?(?:\s+(?:it|this|the\s+(?:PR|MR|pull\s+request|change|review)))?\s+to|"
    r"review(?:ed)?\s+by|reviewers?\s*(?:is|will\s+be|should\s+be|[:=])|"
    r"(?:request(?:ed|ing)?|want|need)\s+(?:a\s+)?review\s+from|sign-?off\s+from|"
    r"approval\s+from))\s+" + _NAME, _F, linear=True)
AFTER = rx(
    # "Ravi from the DBA team needs to review it": who the person is may come between
    _NAME + r"(?:\s+(?:from|of|in|on)\s+(?:the\s+|our\s+)?(?:[\w-]+\s+){0,2}?[\w-]+)?"
    r"(?i:\s+(?:will|can|should|is\s+going\s+to|['’]ll|has\s+to|needs\s+to|"
    r"must|agreed\s+to|is)\s+(?:do\s+the\s+|be\s+(?:the\s+)?)?review(?:ing|er)?\b|"
    r"\s+(?:to|for|as)\s+(?:the\s+)?review(?:er)?\b)", _F, linear=True)
REVIEW = rx(r"(?i)\breview|\bsign-?off\b|\bapprov", linear=True)
#: "ask Priya to review it", "have Sam take a look and review": the review in the same
#: clause as the name, a few words on.
_REVIEW_AFTER = rx(
    r"(?i)(?:\s+(?!then\b|but\b)[\w'’-]+){0,5}?\s+(?:to\s+)?(?:do\s+(?:a|the)\s+)?"
    r"(?:review|sign\s+off|approve)")


def _asks_review(text: str, end: int) -> bool:
    return _REVIEW_AFTER.match(text, end, min(len(text), end + 80)) is not None


class People:
    """Pin who is to review the work."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        text = turn.text
        if turn.role == "tool" or not REVIEW.search(text):
            return []
        out: dict[int, Candidate] = {}
        for pattern in (BEFORE, AFTER):
            for m in pattern.finditer(text):
                start, end = m.span("name")
                if pattern is BEFORE and not REVIEW.search(m.group(0)) \
                        and not _asks_review(text, m.end()):
                    continue  # "ask Priya" is a reviewer only when a review is asked
                name = m.group("name")
                out.setdefault(start, Candidate.of(
                    text, start, end, kind=Kind.IDENTIFIER,
                    subtype="handle" if name.startswith("@") else "person", score=0.9,
                    extractor=NAME, why="named to review", label="reviewer",
                    value={"normalized": name}))
        return [out[k] for k in sorted(out)]
