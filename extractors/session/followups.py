"""Follow-ups the support side promises on someone else's behalf: "They'll call you on
the mobile number we have on file", "The firmware team will get in touch by email",
"you'll get an SMS from them with the time".

The commitment rules read what the speaker commits to ("I'll email you"). A support
agent as often commits a team, a technician or a system to contact the customer, and
that promise is what the customer will hold them to. An assistant sentence promises a
follow-up when a third party (they, a team, an engineer, someone from ...) will
call/email/contact/get back/send/visit, or when the customer will get/receive/hear a
call, email, text or update. Kind ``commitment``, subtype ``promised``, label
``follow-up``; it scores below the commitment rules, which win any clause they read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import CommitmentSubtype, Kind
from extractors.text.clauses import statements, trim
from extractors.text.guard import rx

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "followups.regex.v1"
SCORE = 0.5
_F = regex.IGNORECASE | regex.V0
_WILL = r"(?:['’]ll|\s+will|\s+are\s+going\s+to|\s+is\s+going\s+to|\s+should)\s+(?:\w+ly\s+)?"
_WHO = (r"(?:they|the\s+(?:[\w-]+\s+){0,2}(?:team|department|desk|engineer|technician|"
        r"specialist|agent|courier|driver|manager|supervisor|partner|provider|carrier)s?|"
        r"someone(?:\s+from\s+(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+)?)?|"
        r"an?\s+(?:[\w-]+\s+)?(?:engineer|technician|specialist|agent|courier|manager)|"
        r"(?:our|a)\s+(?:[\w-]+\s+){0,2}(?:team|engineer|technician|specialist))")
_DO = (r"(?:call|ring|phone|email|e-mail|text|message|contact|reach\s+out|get\s+in\s+touch|"
       r"be\s+in\s+touch|get\s+back|follow\s+up|send|visit|come\s+(?:out|by|round)|update|"
       r"confirm|schedule|arrange|collect|pick\s+up|deliver)")
THIRD_PARTY = rx(rf"\b{_WHO}{_WILL}(?:also\s+)?{_DO}\b", _F, linear=True)
YOU_WILL_GET = rx(
    r"\byou['’]ll\s+(?:also\s+)?(?:get|receive|hear)\s+(?:back\s+)?(?:from|an?\s+|the\s+|"
    r"(?:an?\s+)?(?:email|e-mail|sms|text|call|update|message|notification|"
    r"confirmation|letter))", _F, linear=True)


class FollowUps:
    """Pin follow-ups promised on behalf of a team, a technician or a system."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        if turn.role != "assistant":
            return []
        text = turn.text
        out = []
        for start, end, asks in statements(text):
            sentence = text[start:end]
            if asks:
                continue
            m = THIRD_PARTY.search(sentence) or YOU_WILL_GET.search(sentence)
            if m is None:
                continue
            a, b = trim(text, start + m.start(), end)
            out.append(Candidate.of(text, a, b, kind=Kind.COMMITMENT,
                                    subtype=CommitmentSubtype.PROMISED,
                                    score=SCORE, extractor=NAME, why="a follow-up promised",
                                    label="follow-up"))
        return out
