"""Commitments taken back: an undo clause ("I'm releasing the hold", "your booking has been
cancelled") revokes what it names; a revocation ("I have to take back the waiver I gave
you") or a refusal after all revokes the earlier commitment about the same thing. Part of
the commitment lifecycle (:mod:`extractors.dialogue.commitment_lifecycle`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.base import Change, TurnView
from extractors.dialogue.commitments import UNDO_STEMS, carried_lines, undo_head
from extractors.dialogue.corrections import about_same
from extractors.records import CommitmentSubtype, Record, Status
from extractors.text.clause_features import read
from extractors.text.lexicon import terms, ties, word_stems
from extractors.text.nlp import doc_of

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: What a later turn can take back.
UNDOABLE = {CommitmentSubtype.OFFERED, CommitmentSubtype.AGREED, CommitmentSubtype.GRANTED,
            CommitmentSubtype.PROMISED}


def _undone_by(r: Record, head: str) -> bool:
    """Return whether undoing ``head`` takes ``r`` back: a word of its label, or its verb
    or a noun made from it ("hold" ~ hold, "booking" ~ book, "reservation" ~ reserv)."""
    verb = str(r.attrs.get("verb") or "")
    return head in word_stems(r.label) or (len(verb) >= 4 and head.startswith(verb))


def undo_changes(turn: TurnView, doc: Doc | None, new: list[Record], earlier: list[Record]
                 ) -> list[Change]:
    """Revoke what an undo clause of ``turn`` takes back; retire the clause's record."""
    pool = [r for r in earlier if r.role == "assistant" and r.subtype in UNDOABLE
            and r.attrs.get("verb") not in UNDO_STEMS and not r.attrs.get("undo")]
    if not pool:
        return []
    doc = doc_of(doc, turn.text)
    skip = [m.span() for m in carried_lines(turn.text)]
    out: list[Change] = []
    for clause, f in read(turn.text, doc, skip):
        head = undo_head(f, clause.question)
        done = {c.record_id for c in out}
        hits = [r for r in pool if head and r.id not in done and _undone_by(r, head)]
        if not hits:
            continue
        ids = [r.id for r in hits]
        for r in hits:
            out.append(Change.status(r, Status.REVOKED, turn, clause.start, clause.end,
                                     note=f"undone turn {turn.number}",
                                     revoked_turn=turn.number))
        for n in new:
            # a revocation is a record of its own (label guide); any other reading of
            # the undo clause is only its event
            if n.start < clause.end and clause.start < n.end and n.id not in done \
                    and n.subtype != CommitmentSubtype.REVOKED:
                out.append(Change.status(n, Status.SUPERSEDED, turn, clause.start,
                                         clause.end, note="an undo, not a commitment",
                                         undoes=ids))
    return out


def revocations(turn: TurnView, new: list[Record], older: list[Record],
                undos: list[Change]) -> list[Change]:
    """Revoke what a new revocation or refusal takes back: the earlier commitment about
    the same thing ("I can't waive it after all": the latest, when none is named). A
    revocation whose clause an undo of ``undos`` already took its record back by is done."""
    undone = [(c.evidence_start, c.evidence_end) for c in undos
              if c.evidence_start is not None and c.evidence_end is not None]
    out = []
    for n in new:
        if n.subtype not in {CommitmentSubtype.REVOKED, CommitmentSubtype.DECLINED}:
            continue
        if n.subtype == CommitmentSubtype.REVOKED and any(a < n.end and n.start < b
                                                          for a, b in undone):
            continue
        pool = [r for r in older if r.subtype in UNDOABLE and r.role == "assistant"]
        if n.attrs.get("rule") == "take_back":
            # what it names: "the 500 bonus points I added earlier" takes back "I've
            # added 500 bonus points", not "I'll take the £38.50 off" (a verb alike);
            # never the latest by default ("the €500 overdraft I set up" names its own)
            mine = terms(n.text)
            same = [r for r in pool if ties(terms(r.text), mine)][-1:]
        else:
            same = [r for r in pool if about_same(r, n)]
            if not same and n.subtype == CommitmentSubtype.REVOKED and pool:
                same = [pool[-1]]  # "I can't waive it after all": the latest one
        for r in same:
            out.append(Change.status(r, Status.REVOKED, turn, n.start, n.end,
                                     note=f"{n.subtype} turn {turn.number}"))
    return out
