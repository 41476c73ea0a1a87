"""What was already tried and did not work: "I've already restarted the router", "I tried
pinning requests to 2.31 but the import error persists", "Bumping the timeout to 30s
didn't help".

Troubleshooting steps and failed approaches are what a summary drops first and an agent
then repeats. A sentence says an attempt when

* a first person *tried* something ("I tried X", "we've tried X"), or
* a first person *already* did something ("I've already reset it"), or
* a first-person past action shares its sentence with a failure ("I reinstalled the app
  but it still crashes"), or
* a gerund subject fails ("Pinning the version didn't help", "Increasing the pool size
  made no difference").

The pinned span is the clause of the attempt (up to ", but" and the like). Kind
``commitment``, subtype ``tried``; ``attrs["outcome"]`` is ``failed`` when the sentence
says so. Tool output is data, never an attempt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView, register
from extractors.clauses import SENTENCE, trim
from scratchpad.records import Kind

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: Below every commitment rule's score: where a clause is also an offer, a grant or a
#: promise, that reading wins the merge.
SCORE = 0.5
NAME = "attempts.regex.v1"
_F = regex.IGNORECASE | regex.V0
_WE = r"(?:I|we)(?:['’]ve|\s+have|\s+had|['’]d)?"
TRIED = regex.compile(rf"\b{_WE}\s+(?:already\s+|also\s+|even\s+)*tried\b", _F)
ALREADY = regex.compile(
    rf"\b{_WE}\s+(?:already|also\s+already)\s+(?:\w+ed|reset|ran|rebuilt|reinstalled|"
    r"set|put|did|done|made|tried|swapped|re-?\w+)\b", _F)
PAST_ACTION = regex.compile(
    r"\b(?:I|we)\s+(?:also\s+|then\s+|even\s+|just\s+)?(?:(?:re-?)?\w{3,}ed|reset|rebuilt|"
    r"re-?ran|set|put|did|made|swapped|took|gave|wiped|cleaned)\b", _F)
FAILED = regex.compile(
    r"\b(?:still|(?:didn['’]?t|did\s+not|doesn['’]?t|does\s+not|won['’]?t|wouldn['’]?t|"
    r"hasn['’]?t|has\s+not|haven['’]?t)\s+(?:help|work|fix|change|solve|resolve|make|do|"
    r"seem|stop|go)\w*|no\s+(?:luck|joy|change|difference|effect|dice)|made\s+no\s+"
    r"difference|had\s+no\s+effect|same\s+(?:error|problem|issue|result|thing|failure)|"
    r"nothing\s+(?:changed|helped|worked)|persists?|keeps?\s+\w+ing|fails?\b|failed|"
    r"to\s+no\s+avail|without\s+(?:any\s+)?(?:luck|success))", _F)
GERUND_FAILED = regex.compile(
    r"^(?:\w+ing)\b[^.!?]{0,120}?\b(?:didn['’]?t|did\s+not|doesn['’]?t|does\s+not)\s+"
    r"(?:help|work|fix|change|solve|resolve)\b|^(?:\w+ing)\b[^.!?]{0,120}?\b(?:made\s+no\s+"
    r"difference|had\s+no\s+effect|changed\s+nothing|fixed\s+nothing)", _F)
#: Where the attempt's clause ends: before ", but", "and it still", a dash or semicolon.
CLAUSE_END = regex.compile(
    r",?\s+(?:but|yet|however|though|and\s+(?:it|that|this|they|the\s+\w+)\s+(?:still|"
    r"didn|did\s+not|doesn|does\s+not))\b|\s*;\s*|\s+[—–-]{1,2}\s+|,\s+(?:still|no\s+luck)",
    _F)
_NOT_PAST = regex.compile(r"\b(?:need|needed|wanted|asked|called|ordered|booked|paid|"
                          r"received|noticed|wondered|hoped|expected|used)$", _F)


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    cut = CLAUSE_END.search(text, start, end)
    if cut is not None and cut.start() > start + 8:
        end = cut.start()
    return trim(text, start, end)


@register(NAME)
class Attempts:
    """Pin steps already tried and approaches that failed."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        if turn.role == "tool":
            return []
        text = turn.text
        out = []
        for s in SENTENCE.finditer(text):
            start, end = trim(text, s.start(), s.end())
            sentence = text[start:end]
            if not sentence or sentence.rstrip().endswith("?") or text[start:s.end()].rstrip(
                    ).endswith("?"):
                continue
            failed = FAILED.search(sentence) is not None
            found = None
            if (m := TRIED.search(sentence)) or (m := ALREADY.search(sentence)):
                found = (m.start(), "tried")
            elif failed and (m := PAST_ACTION.search(sentence)) and \
                    not _NOT_PAST.search(m.group(0)) and m.start() < len(sentence) // 2 + 20:
                found = (m.start(), "past action with a failure")
            elif GERUND_FAILED.search(sentence):
                found = (0, "a gerund that failed")
            if found is None:
                continue
            a, b = _clause(text, start + found[0], end)
            if b - a < 8:
                continue
            out.append(Candidate.of(
                text, a, b, kind=Kind.COMMITMENT, subtype="tried", score=SCORE,
                extractor=NAME, why=found[1], label=None,
                attrs={"outcome": "failed"} if failed else {}))
        return out
