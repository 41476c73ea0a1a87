"""Corrections: a figure the agent puts in place of one it said before.

"Sorry, typo there: the refund is £153.45, not £135.45" -- what said £135.45 no longer
stands (superseded), and the clause that says £153.45 is the commitment now, of the kind
the one it replaces was: a refund offered and corrected is still offered, and the user's
"fine, 153.45" agrees to it (:mod:`extractors.dialogue.figure_picks`).
"""

from __future__ import annotations

import regex

from extractors.base import Change, TurnView
from extractors.dialogue.commitment_shapes import CORRECTING as OWNS_UP
from extractors.dialogue.commitment_shapes import VALUE_NOT
from extractors.records import CommitmentSubtype, Record, Status
from extractors.text.guard import rx
from extractors.text.lexicon import word_stems
from extractors.values.amounts import money_value

_TAKES_KIND = {CommitmentSubtype.OFFERED, CommitmentSubtype.AGREED, CommitmentSubtype.PROMISED,
               CommitmentSubtype.GRANTED}
CORRECTION = rx(
    r"\b(?:correction|the\s+correct\s+(?:amount|figure|price|total)|i\s+made\s+a\s+mistake|"
    r"my\s+mistake|i\s+meant|should\s+have\s+said|actually\s+it['’]?s|sorry,\s+(?:it['’]?s|"
    r"that\s+should\s+be))\b",
    regex.IGNORECASE,
)

#: What follows "not" in "€130, not the full €380": the next three words, which must hold
#: exactly one amount.
_NOT_VALUE = rx(r"\b(?:not|instead\s+of|rather\s+than)\s+"
                r"(?P<old>[^\s;!?]{1,20}(?:\s+[^\s;!?]{1,20}){0,2})", regex.IGNORECASE)


def _replaced_value(text: str) -> dict | None:
    """The amount a commitment says it replaces: "€1,190, not €1,290" gives €1,290."""
    m = _NOT_VALUE.search(text)
    return money_value(m.group("old")) if m else None


def _replaced_words(text: str) -> str | None:
    """The figure a correction replaces, as written: "30 June" in "28 May, not 30 June"."""
    m = _NOT_VALUE.search(text)
    if m is None:
        return None
    words = m.group("old").strip(" .,;:!?")
    return words.removeprefix("the ").lstrip("~") or None


def about_same(a: Record, b: Record) -> bool:
    """Whether two commitments are about the same thing: a label word in common, or
    the same verb when either has no label."""
    if a.label and b.label:
        return bool(word_stems(a.label) & word_stems(b.label))
    return a.attrs.get("verb") == b.attrs.get("verb") and bool(a.attrs.get("verb"))


def _in_place_of(n: Record, r: Record) -> list[Change]:
    """A corrected figure (:func:`extractors.dialogue.commitment_shapes.corrected_figure`)
    takes the kind of the commitment it replaces: the refund offered, corrected, is still
    an offer; one agreed stays agreed at the new figure."""
    if not str(n.attrs.get("rule", "")).startswith("corrected_figure") \
            or r.subtype == n.subtype or r.subtype not in _TAKES_KIND:
        return []
    return [Change(record_id=n.id, field="subtype", new=r.subtype, evidence_start=n.start,
                   evidence_end=n.end, note=f"in place of {r.id}")]


def corrections(turn: TurnView, new: list[Record], older: list[Record]) -> list[Change]:
    """The commitments ``turn`` (the agent's) corrects: superseded by a new clause of the
    same thing with another figure, by "<figure>, not <the old one>" in a turn that owns
    up to an error, or by "the correct amount is ..." alone."""
    out = []
    correcting = CORRECTION.search(turn.text)
    for n in new:
        if n.subtype in {CommitmentSubtype.REVOKED, CommitmentSubtype.DECLINED}:
            continue
        replaced = _replaced_value(n.text)  # "... €1,190.00, not €1,290"
        for r in older:
            if r.role != "assistant" or not about_same(r, n):
                continue
            differs = bool(r.value and n.value and r.value != n.value) or bool(
                replaced and r.value and r.value.get("amount") == replaced["amount"])
            if differs or (correcting and r.value):
                out.append(Change.status(r, Status.SUPERSEDED, turn, n.start, n.end,
                                         note="corrected" if correcting else "replaced",
                                         superseded_by=n.id))
                if n.id not in {c.record_id for c in out}:
                    out += _in_place_of(n, r)
    if OWNS_UP.search(turn.text):
        # "sorry, the duplicate was $94.80, not $79": what said $79 no longer stands
        for m in VALUE_NOT.finditer(turn.text):
            old = _replaced_words(m.group())
            done = {c.record_id for c in out}
            for r in older:
                if old and r.role == "assistant" and old in r.text and r.id not in done:
                    out.append(Change.status(r, Status.SUPERSEDED, turn, m.start(),
                                             m.end(), note="corrected"))
                    said = [n for n in new if n.start <= m.start() < n.end
                            and n.id not in done]
                    out += [c for n in said[:1] for c in _in_place_of(n, r)]
    if correcting and not out:  # "sorry, the correct amount is €135": no new clause
        m = money_value(turn.text[correcting.start():])
        if m:
            for r in reversed(older):
                if r.role == "assistant" and r.value and r.value != m:
                    out.append(Change.status(r, Status.SUPERSEDED, turn,
                                             correcting.start(), correcting.end(),
                                             note="corrected", corrected_value=m))
                    break
    return out
