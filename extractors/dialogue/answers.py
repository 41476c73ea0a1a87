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

A reply that only asks back about the question -- the agent's clarifying question ("Which
city?"), a user's question that refers back to it ("When was it released?") -- pauses it
rather than leaving it behind: the question records the turn (``attrs["asked_back"]``),
and once the asker has answered, the replier's next turn counts as a first direct reply
again. "Show me some attractions" -- "Where?" -- "London" -- "There's the Gherkin" answers
the request; so does "Should I play Homesick?" -- "When did it come out?" -- "2018" --
"Yes, play it".

A ``suggestion`` ("How about the 10:40 bus?") is the asker's proposal, not a request for
information: the other party's first direct reply settles it whatever it says (taking it,
turning it down or asking about it), unless that reply defers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from extractors.base import Change, TurnView
from extractors.dialogue.answer_cues import (
    ALTERNATIVES,
    DECLINE,
    NAMED,
    REFERS_BACK,
    TAG,
    VALUE_PATTERNS,
)
from extractors.dialogue.question_cues import (
    DETAIL,
    SUGGESTION,
    WH,
    rule,
)
from extractors.dialogue.questions import search, subject_terms
from extractors.dialogue.replies import Reply
from extractors.records import OPEN_STATUSES, Kind, QuestionSubtype, Record, Status

if TYPE_CHECKING:
    from spacy.tokens import Doc

RESOLVER_NAME = "questions.answers.v1"


WH_START = rule(rf"^\W*(?:(?:at|from|to|for|in|on|by|with)\s+)?(?:{WH})\b")


def _subject(record: Record) -> frozenset[str]:
    return subject_terms(record.text + " " + (record.label or ""))


def _evidence(reply: Reply, record: Record, level: str, last: bool) -> tuple[int, int] | None:
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
    if span or level == "strong":
        return span
    if reply.failure:  # "Sorry, I couldn't book it" leaves the address question open;
        # "Sorry, I couldn't book it. They are a French restaurant." answers after it
        after = reply.after_failure() if level == "lenient" else None
        return after or (reply.yes_no if expects == "yesno" else None)  # "No. It can't."
    if reply.yes_no and (level == "lenient" and last or expects == "yesno"):
        return reply.yes_no
    if level == "lenient":
        return reply.substantive
    return None




#: Questions that put something forward the other party may turn down.
PROPOSALS = frozenset({SUGGESTION, QuestionSubtype.YESNO, QuestionSubtype.CHOICE})


def _asker(record: Record) -> str:
    return str(record.attrs.get("asker") or record.role)


def _level(turn: TurnView, record: Record, own: list[Record]) -> str:
    """Return how much evidence ``turn`` must show to answer ``record``.

    ``lenient`` for the first direct reply, ``moderate`` for a later direct reply (the
    replier already spoke since the question), ``strong`` otherwise: a tool result, the
    text of a message that calls tools, a reply after the asker spoke again, or after
    the replier asked something of their own.
    """
    if turn.role == "tool":
        return "strong"
    resumed = _resumed(turn, record)
    if turn.previous_by_role.get(_asker(record)) != record.turn and not resumed:
        return "strong"
    if turn.calls_tools:
        return "strong"  # narration of the agent's own work, not a reply to the question
    if any(r.turn > record.turn for r in own):
        return "strong"
    if resumed:
        # a value asked for must still come with it: "What about the price?" -- "Which
        # night?" -- "Friday." -- "Friday works" does not answer it
        # (a yes/no question or a proposal is answered by a yes or no, whatever it names)
        asks_value = record.subtype in (QuestionSubtype.WH, QuestionSubtype.REQUEST) \
            and record.attrs.get("expects") in VALUE_PATTERNS
        return "moderate" if asks_value else "lenient"
    return "moderate" if turn.previous_by_role.get(turn.role, 0) > record.turn else "lenient"


def _resumed(turn: TurnView, record: Record) -> bool:
    """Whether ``turn`` is the replier's first turn since asking back about ``record``
    and since the asker answered that: the question is as fresh as when it was asked."""
    asked_back = record.attrs.get("asked_back")
    return isinstance(asked_back, int) \
        and turn.previous_by_role.get(turn.role) == asked_back \
        and turn.previous_by_role.get(_asker(record), 0) > asked_back


def _settle(turn: TurnView, reply: Reply, record: Record, level: str, *, last: bool,
            deferrable: bool) -> list[Change]:
    """Return the change (if any) ``reply`` makes to one question of the other party.

    ``last``: the record is the last question of its turn (a bare yes answers only it);
    ``deferrable``: it belongs to the other party's latest questions, which a deferral
    ("let me check, one sec") defers whether or not the reply is direct.
    """
    deferring = reply.deferral is not None and not (turn.role == "assistant" and reply.goes_on)
    if reply.deferral and reply.yes_no and level == "lenient" and record.subtype == SUGGESTION \
            and (reply.yes_no[1] <= reply.deferral[0] or _declines(reply)):
        # "That sounds great! I need to check my balance now." answers, then moves on;
        # "No, let me think about it." turns the proposal down for now
        return [Change.status(record, Status.ANSWERED, turn, *reply.yes_no, note="answered")]
    if deferring and level != "strong":
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
    if span is None and level == "lenient" and _asker(record) == "assistant" \
            and record.subtype in PROPOSALS and (found := search(ALTERNATIVES, reply.text)):
        return [Change.status(record, Status.ANSWERED, turn, found.start(), found.end(),
                              note="other options asked for")]
    if span is None and level == "lenient" and reply.withdrawal is not None:
        span = reply.withdrawal  # "Never mind, one ticket will do" waves the question off
    if span is not None:
        return [Change.status(record, Status.ANSWERED, turn, *span, note="answered")]
    if level == "lenient" and reply.only_asks and record.subtype == QuestionSubtype.WH \
            and (named := NAMED.search(reply.text)):
        # "Where are you?" -- "What's showing in San Jose?" answers as it asks
        return [Change.status(record, Status.ANSWERED, turn, named.start(), named.end(),
                              note="answered in a question")]
    if level != "strong" and reply.only_asks and not turn.calls_tools \
            and _about(turn, reply, record):
        return [Change.status(record, Status(record.status), turn, note="asked back",
                              asked_back=turn.number)]
    if reply.deferral and deferring and deferrable and Status(record.status) == Status.OPEN \
            and not turn.calls_tools:  # "Let me look at the file" + a call narrates work
        start, end = reply.deferral
        return [Change.status(record, Status.DEFERRED, turn, start, end, note="deferred",
                              deferral=turn.text[start:end], deferral_turn=turn.number)]
    return []


def _declines(reply: Reply) -> bool:
    """Whether the reply's yes/no is a no ("No, let me think about it")."""
    start, end = reply.yes_no or (0, 0)
    return DECLINE.match(reply.text[start:end]) is not None


def _about(turn: TurnView, reply: Reply, record: Record) -> bool:
    """Whether a reply that only asks is about ``record``: the agent clarifying a request
    ("Which city?"), or a question that refers back to it ("When did it come out?"),
    asks a detail of it ("What's the address?") or names what it named ("Where is
    Concord Music Hall?"). A question on another matter leaves it behind."""
    if turn.role == "assistant" or search(REFERS_BACK, reply.text) or search(DETAIL, reply.text):
        return True
    if TAG.match(record.text):
        return True  # "Does that work?" is about what was just put forward, and so is the
        # question asked about it ("What would the booking cost?")
    mine = subject_terms(reply.text)
    shared = len(mine & _subject(record))
    return shared >= 2 or bool(mine) and shared / len(mine) >= 0.5


#: Words of a withdrawal that name no question ("ignore the question").
_WITHDRAW_WORDS = frozenset({"question", "thing", "bit", "part", "ignor", "forget", "scratch",
                             "disregard", "mind", "worry", "bother", "earlier", "check"})


def _withdrawn(turn: TurnView, reply: Reply, own: list[Record]) -> list[Change]:
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
        reply = Reply.of(turn.text)
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
        return changes + _tagged(targets, changes)


def _tagged(targets: list[Record], changes: list[Change]) -> list[Change]:
    """A confirmation tag answered answers the question it tags: "The fare is $99? Is
    that okay with you?" -- "Yes" settles both (the tag is the same question)."""
    answered = {c.record_id: c for c in changes if c.new == Status.ANSWERED.value}
    extra = []
    for before, tag in zip(targets, targets[1:], strict=False):
        change = answered.get(tag.id)
        if change is None or before.id in answered or before.turn != tag.turn \
                or TAG.match(tag.text) is None:
            continue
        extra.append(change.model_copy(update={"record_id": before.id,
                                               "note": "answered with its tag"}))
    return extra
