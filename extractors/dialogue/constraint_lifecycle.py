"""The lifecycle of user constraints: ``satisfied`` when a later assistant clause or tool
result meets one (a concession on the same thing for a prohibition of paying, a grant or
promise of the required thing -- never an undo of it, "I'm cancelling the refund"; work
reported done without breaking a rule for one task), ``withdrawn`` when the user drops it
("never mind the French"). The constraints themselves come from
:mod:`extractors.dialogue.constraints`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Change, TurnView
from extractors.dialogue.constraint_patterns import WITHDRAW
from extractors.dialogue.constraints import RESOLVER
from extractors.dialogue.reports import reported_clauses
from extractors.dialogue.tool_evidence import argument_values, reads_only, tool_failed
from extractors.records import CommitmentSubtype, ConstraintSubtype, Kind, Record, Status
from extractors.text import guard
from extractors.text.clauses import Clause, clauses
from extractors.text.guard import rx
from extractors.text.lexicon import is_specific, stem, terms, word_stems

if TYPE_CHECKING:
    from spacy.tokens import Doc

_I = regex.IGNORECASE

#: What makes a constraint a standing rule rather than one to meet once: contact
#: channels, "only", "never", "again", "until", "from now on".
STANDING = rx(r"\b(?:only|never|again|anywhere|ever|always|until|till|any\s?more|"
              r"from\s+now\s+on|going\s+forward|e-?mails?|phone|calls?|ring|texts?|sms|"
              r"whatsapp|teams|post|letters?|contact)\b", _I, linear=True)
#: A report that something was not done: "nothing under migrations/ changed", "no
#: dependencies were added", "I left refund() untouched".
KEPT = rx(
    r"\b(?:nothing|none|no|not|never|without)\b.{0,60}?\b(?:\w+ed|changed|touched|added|"
    r"sent|made|done|used|written|taken)\b|\b(?:left|kept)\b.{0,60}?\b(?:alone|untouched|"
    r"intact|unchanged|as\s+(?:it\s+)?(?:is|was))\b|\b(?:untouched|unchanged)\b",
    _I)
#: A clause about what will or could happen reports nothing done.
FUTURE = rx(r"\b(?:will|won['’]?t|['’]ll|can|could|would|should|shall|going\s+to)\b",
                       _I)
_CONCESSION_STEMS = frozenset(stem(w) for w in (
    "waive refund cover credit reimburse compensate discount reduce drop remove cancel "
    "exempt absorb pay comp").split())


def _meets(constraint: Record, commitment: Record) -> bool:
    """Return whether an agent commitment meets a constraint on the same thing: their
    labels share a word, or their clauses share a word that is not a common one."""
    if not (word_stems(constraint.label) & word_stems(commitment.label)
            or terms(constraint.text, specific=False)
            & terms(commitment.text, specific=False)):
        return False
    if commitment.subtype not in {CommitmentSubtype.GRANTED, CommitmentSubtype.PROMISED,
                                  CommitmentSubtype.AGREED}:
        return False
    positive = commitment.attrs.get("polarity") == "positive"
    if commitment.attrs.get("undo") and constraint.subtype != ConstraintSubtype.PROHIBITION:
        return False  # "I'm cancelling the refund" does not meet "I want a refund"
    if constraint.subtype == ConstraintSubtype.PROHIBITION:
        return (positive and commitment.attrs.get("verb") in _CONCESSION_STEMS) or not positive
    return positive


def _met_by(turn: TurnView, found: Iterable[Clause], pending: list[Record],
            note: str) -> list[Change]:
    """Satisfy each pending constraint that a clause of ``found`` shares a term with (a
    clause that still looks ahead meets nothing), at most once, by the first such clause."""
    out: list[Change] = []
    done: set[str] = set()
    for clause in found:
        ctext = turn.text[clause.start:clause.end]
        if FUTURE.search(ctext):
            continue
        said = terms(ctext)
        for r in pending:
            if r.id not in done and terms(r.text) & said:
                done.add(r.id)
                out.append(Change.status(r, Status.SATISFIED, turn, clause.start, clause.end,
                                         note=f"{note}, turn {turn.number}",
                                         satisfied_turn=turn.number, satisfied_text=ctext))
    return out


class ConstraintLifecycle:
    """Mark constraints satisfied when the agent meets them, withdrawn when dropped."""

    name: ClassVar[str] = RESOLVER
    kinds: ClassVar[frozenset[Kind]] = frozenset({Kind.CONSTRAINT})
    #: The turn's commitments, as the commitment extractor found them (so satisfaction
    #: needs ``commitments.rules.v1`` among the extractors).
    reads: ClassVar[frozenset[Kind]] = frozenset({Kind.COMMITMENT})
    #: Reads the turn's commitments as the commitment lifecycle left them.
    after: ClassVar[tuple[str, ...]] = ("commitments.lifecycle.v1",)

    def resolve(self, turn: TurnView, doc: Doc | None, new: list[Record],
                live: list[Record]) -> list[Change]:
        """Return the lifecycle changes ``turn`` causes to live constraints."""
        new_ids = {r.id for r in new}
        older = [r for r in live if r.id not in new_ids and r.turn < turn.number]
        if turn.role == "user":
            return self._withdrawn(turn, doc, older)
        # a standing rule ("email only", "don't charge that card again until ...") is kept
        # turn after turn, never done: it stays active
        once = [r for r in older if not STANDING.search(r.text)]
        if turn.role == "assistant":
            met = self._satisfied(turn, [r for r in new if r.kind == Kind.COMMITMENT], once)
            met += self._kept(turn, [r for r in once if r.id not in {c.record_id for c in met}])
            done = {c.record_id for c in met}
            return met + self._reported(turn, [r for r in once if r.id not in done])
        return self._done_by_tool(turn, once)

    @staticmethod
    def _reported(turn: TurnView, older: list[Record]) -> list[Change]:
        """An agent report of the work done that names what a requirement or preference
        asked for meets it: "Done — the refund went to the card ending 4471" for "card
        please, not credit", "Sent to accounts@..." for "send it to accounts@..."."""
        pending = [r for r in older if r.status == Status.ACTIVE.value
                   and r.subtype != ConstraintSubtype.PROHIBITION]
        if not pending:
            return []
        return _met_by(turn, reported_clauses(turn.text), pending, "done")

    def _done_by_tool(self, turn: TurnView, older: list[Record]) -> list[Change]:
        """A successful action tool whose arguments carry what a requirement or a
        preference asks for meets it: ``change_booking(seat_preference="quiet")`` for
        "I'd prefer a quiet carriage", ``run_command("python3.9 -m pytest")`` for "keep it
        Python 3.9 compatible". Tools that only read meet nothing."""
        if turn.tool_arguments is None or reads_only(turn.tool_name) \
                or tool_failed(turn.text):
            return []
        done = terms(argument_values(turn.tool_arguments))
        out = []
        for r in older:
            if r.status != Status.ACTIVE.value or r.subtype == ConstraintSubtype.PROHIBITION:
                continue
            shared = terms(r.text) & done
            if shared and (any(is_specific(t) for t in shared) or word_stems(r.label) & shared):
                out.append(Change.status(r, Status.SATISFIED, turn, 0, len(turn.text),
                                         note=f"met by tool {turn.tool_name}",
                                         satisfied_turn=turn.number))
        return out

    def _kept(self, turn: TurnView, older: list[Record]) -> list[Change]:
        """An agent report that it did not do what a prohibition forbids keeps it:
        "nothing under migrations/ changed" for "don't touch the migrations directory"."""
        pending = [r for r in older if r.status == Status.ACTIVE.value
                   and r.subtype == ConstraintSubtype.PROHIBITION]
        if not pending:
            return []
        found = (c for c in clauses(turn.text)
                 if not c.question and KEPT.search(turn.text[c.start:c.end]))
        return _met_by(turn, found, pending, "kept")

    def _satisfied(self, turn: TurnView, commitments: list[Record],
                   older: list[Record]) -> list[Change]:
        pending = [r for r in older if r.status == Status.ACTIVE.value]
        if not pending:
            return []
        out = []
        for r in pending:
            hit = next((c for c in commitments if _meets(r, c)), None)
            if hit is not None:
                out.append(Change.status(r, Status.SATISFIED, turn, hit.start, hit.end,
                                         note=f"met by turn {turn.number}",
                                         satisfied_turn=turn.number,
                                         satisfied_text=hit.text))
        return out

    def _withdrawn(self, turn: TurnView, doc: Doc | None, older: list[Record]) -> list[Change]:
        out: list[Change] = []
        for clause in clauses(turn.text, doc):
            ctext = turn.text[clause.start:clause.end]
            m = WITHDRAW.search(ctext)
            if m is None:
                continue
            words = word_stems(ctext)
            named = [r for r in older if word_stems(r.label) and word_stems(r.label) <= words]
            if not named and older and len(guard.findall(r"\w+", turn.text)) <= 5:
                named = [older[-1]]  # "never mind that": the latest constraint
            for r in named:
                if r.id not in {c.record_id for c in out}:
                    out.append(Change.status(r, Status.WITHDRAWN, turn, clause.start,
                                             clause.end, note="withdrawn by the user"))
        return out

