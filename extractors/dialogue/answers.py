"""Link questions to the turns that answer, defer or withdraw them.

``questions.answers.v1`` (resolver) moves live ``question`` records to ``answered``,
``deferred`` ("let me check, one sec") or ``withdrawn`` ("never mind"). How much a reply
must show depends on whether it is *direct*: a reply is direct when the asker's latest
text turn before it is the question's turn (``TurnView.previous_by_role``), so tool calls
and their results in between do not matter, but anything the asker said since does.

* the first direct reply (``lenient``): any real reply answers the question;
* a later direct reply, after the replier already spoke (``moderate``): subject overlap,
  a value of the expected type or a yes/no is needed;
* any other reply (``strong``): a value of the expected type, a picked option or solid
  subject overlap.

A ``suggestion`` ("How about the 10:40 bus?") is the asker's proposal, not a request for
information: the other party's first direct reply settles it whatever it says (taking it,
turning it down or asking about it), unless that reply defers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Change, TurnView
from extractors.dialogue.question_cues import (
    COURTESY,
    DEFERRAL,
    PROPOSAL,
    QUESTION_MARK,
    SUGGESTION,
    WH,
    rule,
)
from extractors.dialogue.questions import masked, search, subject_terms
from extractors.records import OPEN_STATUSES, Kind, Record, Status
from extractors.text.guard import Guarded
from extractors.text.sentences import sentences

if TYPE_CHECKING:
    from spacy.tokens import Doc

RESOLVER_NAME = "questions.answers.v1"

#: Values of each expected type in an answer (strong evidence).
VALUE_PATTERNS: dict[str, Guarded] = {
    "amount": rule(r"[$€£¥]\s?\d|\b\d[\d,.]{0,15}\s?(?:dollars|euros?|pounds|bucks|usd|eur|gbp|"
                 r"%|percent)\b|\b(?:dollars|bucks|euros|pounds|free\s+of\s+charge)\b|"
                 r"\bfree\b"),
    "datetime": rule(
        r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|"
        r"thur|thurs|fri|sat|sun|today|tomorrow|tonight|yesterday|weekend|noon|midnight|"
        r"morning|afternoon|evening|night|o'clock|january|february|march|april|may|june|july|"
        r"august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|"
        r"nov|dec)\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b|"
        r"\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}\b|"
        r"\b(?:half|quarter)\s+(?:past|to)\b|\bnext\s+(?:week|month|year)\b"),
    "identifier": rule(r"\+?\d[\d\s().-]{6,20}\d|\b[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+|"
                     r"\b[A-Z]{1,6}-?\d{3,12}\b|\b\d{5,}\b", regex.VERSION0),
}

#: What a withdrawal may name: "the taxi question", "my earlier question about the wait",
#: "the mktime thing", "checking the passport".
_WHAT = r"(?:the\s+|my\s+|that\s+)?(?:[\p{L}\d'-]+\s+){0,5}?(?:question|thing|bit|part|one)\b"
WITHDRAWAL = rule(
    rf"\bnever\s*mind\b|\bforget\s+(?:it|that|about\s+(?:it|that)|i\s+asked|{_WHAT})|"
    rf"\bscratch\s+(?:that|{_WHAT})|\b(?:ignore|disregard)\s+(?:that|{_WHAT})|"
    r"\bdon't\s+(?:bother|worry\s+about\s+(?:it|that|the|checking)\b)|"
    r"\bdoesn't\s+matter\b|\bno\s+need\s+to\s+(?:check|answer|look)\b"
)
#: A reply that reports a failed action rather than answering ("Sorry, I couldn't book it").
FAILURE = rule(
    r"\b(?:couldn't|could\s+not|can't|cannot|unable\s+to|wasn't\s+able\s+to|was\s+not\s+able\s+"
    r"to|weren't\s+able\s+to|failed\s+to|fail\s+to)\s+(?:\w+\s+){0,2}?(?:book|reserve|schedule|"
    r"buy|purchase|rent|complete|process|place|make|finish|confirm|transfer|send|set|add|get)\b|"
    r"\bsomething\s+went\s+wrong\b|\b(?:booking|reservation|transaction|purchase|transfer)\s+"
    r"(?:failed|was\s+unsuccessful)\b|\bfailed\b|\bno\s+(?:tickets|seats|tables|rooms)\s+"
    r"(?:were\s+|are\s+)?(?:available|left)\b"
)
YES_NO = rule(
    r"^\W*(?:(?:oh|well|um|ah)\W+)?(?:yes|yeah|yep|yup|sure|no|nope|nah|ok|okay|correct|right|"
    r"absolutely|definitely|"
    r"certainly|of\s+course|please\s+do|go\s+ahead|that\s+works|sounds\s+good|fine|not\s+really|"
    r"exactly|indeed|affirmative|negative|i\s+do|i\s+don't|it\s+is|it's\s+not|perfect|great|"
    r"good|(?:that|this|it)(?:'s|\s+is|\s+would\s+be|\s+sounds)\s+(?:good|great|fine|perfect|"
    r"correct|right|ok|okay)|sounds\s+(?:great|perfect|fine|ok|good)|cool|alright|all\s+right|"
    r"(?:i'm|i\s+am)\s+(?:good|fine|ok|okay|happy|in)|that\s+(?:works|will\s+do|suits)|"
    r"not\s+(?:(?:right|just)\s+)?now|not\s+(?:yet|today|at\s+(?:the|this)\s+(?:moment|time))|"
    r"works\s+for\s+(?:me|us)|(?:that|this)(?:'s|\s+is)\s+it|sounds\s+(?:\w+\s+)?(?:good|"
    r"great|fine|perfect|wonderful|nice|ok|okay|right)|"
    r"(?:they|it|he|she|we|i|there)"
    r"(?:'s|\s+(?:do|does|did|is|are|was|were|can|will|have|has))(?:n't|\s+not)?)\b"
)
NEGATION = rule(
    r"\b(?:no|not|never|none|neither|nor|can't|cannot|won't|don't|doesn't|isn't|wouldn't|"
    r"rather\s+not|busy|unavailable|impossible|bad|tricky|difficult|awkward|problem)\b|n't\b"
)
#: Words that make an option mention a pick ("Thursday is fine").
AFFIRM = rule(r"\b(?:fine|works?|good|great|ok|okay|perfect|prefer|choose|go\s+(?:with|for)|"
            r"take|book|let's|yes|sure|suits?|best|please|want|like|do|i'll)\b")
HEDGE = rule(r"\b(?:might|maybe|perhaps|possibly|probably|not\s+sure|could\s+work)\b")


#: Numbers, in digits or words: "4.", "Just one for me" answer a "how many".
NUMBER = rule(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
            r"dozen|couple|single|both|all|none|half)\b")
#: A wh-question in a reply asks back; it does not answer ("What times are free?").
ASK_BACK = rule(rf"^\W*(?:(?:and|but|so|ok|okay|well|sorry)\W+)*(?:{WH})\b(?!\s+about\b)")



@dataclass(frozen=True)
class _Reply:
    """What a new turn offers as an answer, sentence by sentence."""

    text: str
    #: Sentences that may answer: statements with content, and yes/no or "can you ..."
    #: proposals ("How about a two bedroom in Fairfield?"), not asked-back wh-questions.
    statements: tuple[tuple[int, int], ...]
    deferral: tuple[int, int] | None
    withdrawal: tuple[int, int] | None
    failure: bool
    yes_no: tuple[int, int] | None
    #: Sentences reporting a failed action: searched for values only.
    failures: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, text: str) -> _Reply:
        """Split ``text`` into the parts an answer linker reads."""
        text = masked(text)
        statements: list[tuple[int, int]] = []
        failures: list[tuple[int, int]] = []
        deferral = withdrawal = yes_no = None
        for start, end in sentences(text):
            sentence = text[start:end]
            if search(DEFERRAL, sentence):
                deferral = deferral or (start, end)
                continue
            if search(WITHDRAWAL, sentence):
                withdrawal = withdrawal or (start, end)
                if yes_no is None and search(YES_NO, sentence):
                    yes_no = (start, end)  # "No, never mind." still says no
                continue
            if search(FAILURE, sentence):
                failures.append((start, end))
                continue
            if QUESTION_MARK.search(sentence) and not search(PROPOSAL, sentence) and (
                    search(COURTESY, sentence) or ASK_BACK.match(sentence)):
                continue  # a proposal ("What do you think of X?") answers "what else?"
            if yes_no is None and search(YES_NO, sentence):
                yes_no = (start, end)
            if subject_terms(sentence) or NUMBER.search(sentence) or yes_no == (start, end):
                statements.append((start, end))
        return cls(text, tuple(statements), deferral, withdrawal, bool(failures), yes_no,
                   tuple(failures))

    @property
    def first(self) -> tuple[int, int] | None:
        """Return the reply's first sentence, whatever it says."""
        return next(iter(sentences(self.text)), None)

    @property
    def substantive(self) -> tuple[int, int] | None:
        """Return the first statement that says more than a bare yes or no."""
        for span in self.statements:
            if span != self.yes_no:
                return span
        if self.yes_no:
            rest = self.text[self.yes_no[0]:self.yes_no[1]]
            match = YES_NO.match(rest)
            tail = rest[match.end():] if match else ""
            if subject_terms(tail) or NUMBER.search(tail):
                return self.yes_no
        return None

    def value(self, expects: str) -> tuple[int, int] | None:
        """Return the span of a statement holding a value of the expected type."""
        pattern = VALUE_PATTERNS.get(expects)
        if pattern is None:
            return None
        for start, end in sorted(self.statements + self.failures):
            if search(pattern, self.text[start:end]):
                return start, end
        return None

    def chosen(self, choices: list[str], strict: bool) -> tuple[tuple[int, int] | None, bool]:
        """Return (span of a picked option, whether an option was turned down)."""
        keys = [subject_terms(c) for c in choices]
        shared = frozenset.intersection(*keys) if keys else frozenset()
        rejected = False
        for start, end in self.statements:
            sentence = self.text[start:end]
            words = subject_terms(sentence)
            if not any((key - shared) & words for key in keys):
                continue
            if search(NEGATION, sentence):
                rejected = True
            elif not search(HEDGE, sentence) and (not strict or search(AFFIRM, sentence)):
                return (start, end), rejected
        return None, rejected

    def overlap(self, subject: frozenset[str], minimum: int = 2) -> tuple[int, int] | None:
        """Return the statement sharing the most subject terms, if enough are shared."""
        best, best_n = None, 0
        for start, end in self.statements:
            n = len(subject & subject_terms(self.text[start:end]))
            if n > best_n:
                best, best_n = (start, end), n
        if best is not None and (best_n >= minimum or best_n / len(subject) >= 0.5):
            return best
        return None


WH_START = rule(rf"^\W*(?:(?:at|from|to|for|in|on|by|with)\s+)?(?:{WH})\b")


def _subject(record: Record) -> frozenset[str]:
    return subject_terms(record.text + " " + (record.label or ""))


def _evidence(reply: _Reply, record: Record, level: str, last: bool) -> tuple[int, int] | None:
    """Return the span that answers ``record``, or None.

    ``level`` is how much the reply must show (see :func:`_level`): ``strong`` (not a
    direct reply: a value of the expected type, a picked option or solid subject
    overlap), ``moderate`` (a direct reply after the replier already spoke: any subject
    overlap or a yes/no will do) or ``lenient`` (the first direct reply: any real reply
    answers it).
    """
    attrs = record.attrs
    choices = list(attrs.get("choices") or [])
    expects = str(attrs.get("expects") or "text")
    if choices:
        span, rejected = reply.chosen(choices, strict=level == "strong")
        if span or (rejected and WH_START.match(record.text)):
            return span  # "Tuesday's no good" does not say which slot works
        if rejected and level != "strong":
            return reply.statements[0]  # "Is there a patio or a terrace?" "No, neither."
    span = reply.value(expects) if expects != "choice" else None
    if span:
        return span
    span = reply.overlap(_subject(record), minimum=2 if level == "strong" else 1)
    if span or level == "strong" or reply.failure:
        return span
    if reply.yes_no and (level == "lenient" and last or expects == "yesno"):
        return reply.yes_no
    if level == "lenient":
        return reply.substantive
    return None




def _asker(record: Record) -> str:
    return str(record.attrs.get("asker") or record.role)


def _level(turn: TurnView, record: Record, own: list[Record]) -> str:
    """Return how much evidence ``turn`` must show to answer ``record``.

    ``lenient`` for the first direct reply, ``moderate`` for a later direct reply (the
    replier already spoke since the question), ``strong`` otherwise: a tool result, the
    text of a message that calls tools, a reply after the asker spoke again, or after
    the replier asked something of their own.
    """
    if turn.role == "tool" or turn.previous_by_role.get(_asker(record)) != record.turn:
        return "strong"
    if turn.calls_tools:
        return "strong"  # narration of the agent's own work, not a reply to the question
    if any(r.turn > record.turn for r in own):
        return "strong"
    return "moderate" if turn.previous_by_role.get(turn.role, 0) > record.turn else "lenient"


def _settle(turn: TurnView, reply: _Reply, record: Record, level: str, *, last: bool,
            deferrable: bool) -> list[Change]:
    """Return the change (if any) ``reply`` makes to one question of the other party.

    ``last``: the record is the last question of its turn (a bare yes answers only it);
    ``deferrable``: it belongs to the other party's latest questions, which a deferral
    ("let me check, one sec") defers whether or not the reply is direct.
    """
    if reply.deferral and level != "strong":
        # "Wednesday might work, but I need to check" defers rather than answers.
        span = _evidence(reply, record, "strong", False)
        if span is not None and record.attrs.get("expects") == "choice":
            span = None
    else:
        span = _evidence(reply, record, level, last)
        if span is None and level == "lenient" and record.subtype == SUGGESTION:
            span = reply.first
            if span is not None:
                return [Change.status(record, Status.ANSWERED, turn, *span,
                                      note="suggestion taken up")]
    if span is not None:
        return [Change.status(record, Status.ANSWERED, turn, *span, note="answered")]
    if reply.deferral and deferrable and Status(record.status) == Status.OPEN \
            and not turn.calls_tools:  # "Let me look at the file" + a call narrates work
        start, end = reply.deferral
        return [Change.status(record, Status.DEFERRED, turn, start, end, note="deferred",
                              deferral=turn.text[start:end], deferral_turn=turn.number)]
    return []


#: Words of a withdrawal that name no question ("ignore the question").
_WITHDRAW_WORDS = frozenset({"question", "thing", "bit", "part", "ignor", "forget", "scratch",
                             "disregard", "mind", "worry", "bother", "earlier", "check"})


def _withdrawn(turn: TurnView, reply: _Reply, own: list[Record]) -> list[Change]:
    """Withdraw the asker's questions a withdrawal names ("ignore the taxi question"),
    else those of the asker's latest question turn ("never mind")."""
    start, end = reply.withdrawal  # type: ignore[misc]
    said = subject_terms(reply.text[start:end]) - _WITHDRAW_WORDS
    named = [r for r in own if said & _subject(r)]
    if not named:
        latest_turn = max(r.turn for r in own)
        named = [r for r in own if r.turn == latest_turn]
    return [Change.status(r, Status.WITHDRAWN, turn, start, end, note="withdrawn by asker")
            for r in named]


class AnswerLinker:
    """Mark live questions answered, deferred or withdrawn by a new turn."""

    name: ClassVar[str] = RESOLVER_NAME
    kinds: ClassVar[frozenset[Kind]] = frozenset({Kind.QUESTION})

    def resolve(self, turn: TurnView, doc: Doc | None, new: list[Record],
                live: list[Record]) -> list[Change]:
        """Return the status changes this turn causes to earlier live questions."""
        if not turn.text or not turn.text.strip():
            return []
        earlier = [r for r in live if r.turn < turn.number and r.kind == Kind.QUESTION.value
                   and Status(r.status) in OPEN_STATUSES]
        if not earlier:
            return []
        reply = _Reply.of(turn.text)
        changes: list[Change] = []
        own = [r for r in earlier if _asker(r) == turn.role]
        if reply.withdrawal and own:
            changes += _withdrawn(turn, reply, own)
        if turn.role == "tool":
            targets = [r for r in earlier if _asker(r) == "assistant"]
        else:
            targets = [r for r in earlier if _asker(r) != turn.role]
        if not targets:
            return changes
        latest_turn = max(r.turn for r in targets)
        last = {r.turn: r for r in targets}  # live is oldest first: the last of each turn
        for record in targets:
            changes.extend(_settle(turn, reply, record, _level(turn, record, own),
                                   last=last[record.turn] is record,
                                   deferrable=record.turn == latest_turn
                                   and turn.role != "tool"))
        return changes
