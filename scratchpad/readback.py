"""Values the assistant read back and the user confirmed.

"To make sure I'm looking at the right mailbox: is it j.hallberg@northwind-group.com?" --
"Yes, that's his address." The user never typed the address, but said yes to it: from
then on it is the case's value as much as one the user stated, and its salience counts
it so (:attr:`scratchpad.salience.ValueGroup.confirmed`). A read-back is an assistant's
yes/no question that checks a value its span holds
(:data:`extractors.dialogue.question_cues.READ_BACK`: "is it ...?", "just to confirm,
...?"; not an offer, "Would you like me to hold the 14:00 slot?"); the confirmation is
the user's answer to it that says yes (:data:`extractors.dialogue.answer_cues.CONFIRMS`)
and does not go on to differ ("Yes, but it's ...": the user's own value is stated, and
counted, anyway).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from extractors.dialogue.answer_cues import CONFIRMS
from extractors.dialogue.question_cues import READ_BACK
from scratchpad.records import Event, Kind, Record, Status
from scratchpad.salience import is_value


def confirmed_questions(updated: Sequence[Record], events: Sequence[Event]) -> list[Record]:
    """The assistant's yes/no questions that a user turn (its ``updated`` records and
    ``events``) answered with a yes."""
    answers = {e.record_id: e.evidence_text or "" for e in events
               if e.field == "status" and e.new == Status.ANSWERED.value
               and e.by_role == "user"}
    return [r for r in updated if r.kind == Kind.QUESTION.value and r.id in answers
            and r.attrs.get("asker") == "assistant" and r.attrs.get("expects") == "yesno"
            and READ_BACK.search(r.text) is not None
            and CONFIRMS.search(answers[r.id]) is not None]


def read_back(question: Record, values: Iterable[Record]) -> list[Record]:
    """The value records of ``values`` (of the question's turn) inside its span."""
    return [v for v in values if is_value(v) and v.turn == question.turn
            and question.start <= v.start and v.end <= question.end]
