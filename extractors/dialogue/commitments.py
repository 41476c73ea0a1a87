"""Commitments: what the agent offered, granted, promised, declined or revoked.

One candidate per committing clause, its span the clause verbatim. The clauses and their
features (subject person, modal, tense/aspect, negation, main verb, label) come from
:mod:`extractors.text.clauses` and :mod:`extractors.text.clause_features`; the first
matching rule of :data:`extractors.dialogue.commitment_rules.RULES` (the user's turns:
``USER_RULES``) names the subtype.

Decisions (documented here because they are judgement calls):

* ``offered``: "I can waive it", "The refund would be €930", "Would you like me to hold
  the slot?", "I'd be happy to extend it". A question of the form "would you like me to /
  shall I / should I X" is an offer; the other party's "yes" makes it ``agreed``.
* ``granted``: a first-person perfect, past or performative-progressive action
  ("I've waived the fee", "I'm releasing the hold"); a passive perfect with an
  entitlement subject ("your refund has been processed").
* ``promised``: a first-person future ("we'll cover return shipping", "I'll open a PR");
  an entitlement subject in the future or in the present with a condition or a time
  ("the refund is issued once the machine arrives"); "you'll get/receive X" (an assurance
  the customer can hold us to: "You'll get a text the evening before" is promised, 0.55).
  "I won't X" is a promise to refrain (polarity negative) unless X is a concession verb
  ("I won't refund ..."), which is declined.
* Package rule: a future first-person conjunct of a granted concession in the same
  sentence is granted as part of the package ("I've waived the fee, and we'll cover
  shipping as well" -> both granted). Both clauses must be concessions.
* ``declined`` needs a first-person agent ("I can't refund the delivery charge").
  Third-party and policy statements ("the courier doesn't collect at weekends") are not
  commitments. ``revoked`` is a declined clause with a reversal cue ("after all"), or a
  take-back ("I have to take back the waiver I gave you", "I've had to remove the credit I
  gave you earlier"): a record of its own, as the label guide has it, that revokes the
  earlier commitment sharing its terms (:mod:`extractors.dialogue.revocations`).
* Undo: an agent clause whose verb takes something back (:data:`UNDO`: "I'm releasing the
  hold", "I've cancelled the reservation", "I'll drop the discount", "your booking has been
  cancelled") and whose object is not a charge (:data:`CHARGE`: dropping a fee concedes,
  it undoes nothing) gets ``attrs["undo"]``. The resolver matches it to earlier agent
  commitments (offered, agreed, granted, promised; active or already fulfilled) whose
  label words or verb hold its head noun ("hold" ~ "hold the Wednesday slot", "booking"
  ~ "book", "reservation" ~ "reserve") and whose own verb is not an undo verb ("I've
  cancelled it" fulfils "I can cancel your plan", it does not undo it). Those become
  ``revoked`` -- not ``superseded``: nothing replaces them, the agent took them back --
  with the clause as evidence. The clause is the event only: its own record, when the
  rules made one, is retired at once (``superseded``, ``attrs["undoes"]`` naming what it
  undid), so it is never carried as a grant. An undo clause that matches nothing stays
  what the rules say ("I've cancelled your order" at the user's request is granted).
* ``claimed`` comes only from user turns: "you already agreed to €2,000", "I was promised
  a refund", and any user line imitating a carried-forward block ("AGREED: ..."). A claim
  binds no one, so its record is a ``note``, never a commitment.
  Assistant and tool turns never turn such lines into commitments.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, Needs, TurnView
from extractors.dialogue.commitment_rules import (
    CLAIM_STEMS,
    CONCESSION_STEMS,
    ENTITLEMENT_STEMS,
    IF_CLAUSE,
    RULES,
    USER_RULES,
)
from extractors.dialogue.commitment_shapes import (
    CONFESSION,
    FRONTED_TEMPORAL,
    LEAD_IN,
    LOOKUP,
    THIRD_PARTY,
    standing_figure,
)
from extractors.dialogue.commitment_words import CHARGE, UNDO
from extractors.dialogue.options import option_items
from extractors.records import CommitmentSubtype, Kind, kind_after
from extractors.text.clause_features import Features, read
from extractors.text.clauses import QUOTED, Clause, cue_sentences
from extractors.text.guard import rx
from extractors.text.lexicon import PERSONS, stem
from extractors.text.nlp import doc_of
from extractors.text.sentences import sentences, span_at
from extractors.values.amounts import money_value

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "commitments.rules.v1"
RESOLVER = "commitments.lifecycle.v1"

# -- lexicons (data) -------------------------------------------------------------------

#: A clause asking the other party to do something ("please confirm we are booking ...").
ASKS_USER = rx(r"(?:please\s+)?(?:confirm|verify|check|let\s+me\s+know|tell\s+me|"
                          r"can\s+you|could\s+you)\b", regex.IGNORECASE)
#: A line imitating a carried-forward block (header or "STATUS: ..." entry).
CARRIED_LINE = rx(
    r"^[ \t]*(?:={2,}[^\n]{0,200}|(?P<tag>AGREED|GRANTED|PROMISED|OFFERED|DECLINED|REVOKED|"
    r"OPEN|DEFERRED|CONSTRAINT|ACTIVE)[ \t]*:[^\n]*)$",
    regex.MULTILINE,
)
#: A condition inside a committing clause: "I'll refund it if finance signs off".
TRAILING_IF = rx(r"\b(?:if|unless|provided(?:\s+that)?|assuming)\s+(?P<cond>[^,.;!?]{1,120})",
                 regex.IGNORECASE)
#: A condition that is someone else's decision, or counterfactual: what follows it is a
#: hypothetical, not a commitment ("if the manager approves", "if it were up to me").
HYPOTHETICAL = rx(
    r"\b(?:approv\w*|agree[sd]?|allow(?:s|ed)?|authori[sz]\w*|sign(?:s|ed)?\s+off|"
    r"permit(?:s|ted)?|okay(?:s|ed)|green[-\s]?light\w*|go[-\s]ahead|were|could|would|"
    r"up\s+to\s+me)\b", regex.IGNORECASE)
UNDO_STEMS = frozenset(stem(w) for w in UNDO)
_S_CHARGE = frozenset(stem(w) for w in CHARGE)
#: Stems that, besides a person, let a rule fire (see :meth:`CommitmentRules.needs`).
CUE_STEMS = ENTITLEMENT_STEMS | CLAIM_STEMS | frozenset(stem(w) for w in """
will should they he she team possible impossible non-refundable done committed pushed
merged deployed published reverted tagged released issued processed live
""".split())


# -- the extractor ---------------------------------------------------------------------


FREE = rx(r"\b(?:free\s+of\s+charge|for\s+free|at\s+no\s+(?:extra\s+)?(?:cost|"
                     r"charge)|on\s+us|no\s+charge)\b", regex.IGNORECASE)


def _concedes(f: Features, text: str) -> bool:
    """Return whether a clause concedes something: its verb, object noun or a cue says so."""
    return (f.verb in CONCESSION_STEMS
            or bool({stem(w) for w in (f.label or "").split()} & ENTITLEMENT_STEMS)
            or bool(FREE.search(text)))


def undo_head(f: Features, question: bool = False) -> str | None:
    """Return the stem of the thing a clause takes back ("releasing the hold" -> "hold")."""
    if question or f.negated or f.verb not in UNDO_STEMS or not f.label:
        return None
    if f.modal not in {"", "will"} or not (f.person == 1 or (f.person == 3 and f.passive)):
        return None  # "I can cancel it" offers an undo; "the courier cancelled" is not ours
    head = stem(f.label.split()[-1])
    return None if head in _S_CHARGE else head


def hypothetical(condition: str) -> bool:
    """A condition that is not the other party's to meet: someone's approval, or a
    counterfactual. "If you send the receipt" is the user's to meet: a conditional promise."""
    first = condition.split(maxsplit=1)[:1]
    if first and first[0].lower() in {"you", "you're", "your", "you've", "you'd"}:
        return False
    return HYPOTHETICAL.search(condition) is not None


def carried_lines(text: str) -> Iterator[regex.Match[str]]:
    yield from CARRIED_LINE.finditer(text)


def analyze(turn: TurnView, doc: Doc | None) -> list[Candidate]:
    """Return the commitment candidates of one turn (the extractor's whole work)."""
    text = turn.text
    if turn.role == "tool" or not text.strip():
        return []
    doc = doc_of(doc, text)  # a Doc of other text is not ours
    out: list[Candidate] = []
    skip: list[tuple[int, int]] = []
    # A pasted line imitating the block ("AGREED: refund €5,000") is quoted user content:
    # never a pin, not even a claim; nor is anything in quotation marks. Their clauses are
    # skipped.
    skip.extend(m.span() for m in carried_lines(text))
    skip.extend(m.span() for m in QUOTED.finditer(text))
    rules = RULES if turn.role == "assistant" else USER_RULES
    spans: tuple[tuple[int, int], ...] = ()  # the sentences, cut when a grant needs them
    prev: tuple[Clause, Features, str | None, bool] | None = None
    condition: tuple[int, str] | None = None  # (sentence, text) of the last "if" clause
    for clause, f in read(text, doc, skip):
        ctext = text[clause.start:clause.end]
        cond = IF_CLAUSE.match(ctext)
        if cond:  # it may hold its consequence too: "If you paste it I'll add it"
            condition = (clause.sentence, cond.group("cond"))
        if ASKS_USER.match(ctext):
            prev = (clause, f, None, False)
            continue
        if_said = condition[1] if condition and condition[0] == clause.sentence else None
        trailing = TRAILING_IF.search(ctext, 1)
        if trailing:
            if_said = trailing.group("cond")
        if if_said is not None and hypothetical(if_said):
            prev = (clause, f, None, False)
            continue  # "If the manager approves, I'll refund €5,000": not a commitment
        rule = next((r for r in rules if r.test(f, ctext, clause)), None)
        subtype = rule.subtype if rule else None
        if (subtype == CommitmentSubtype.PROMISED and prev is not None
                and prev[2] == CommitmentSubtype.GRANTED
                and prev[0].sentence == clause.sentence and clause.coordinated
                and prev[3] and _concedes(f, ctext) and f.person == 1):
            subtype, why = CommitmentSubtype.GRANTED, "rule 'package_with_grant'"
        else:
            why = f"rule '{rule.name}'" if rule else ""
        prev = (clause, f, subtype, _concedes(f, ctext))
        if rule is None or subtype is None:
            continue
        if turn.calls_tools and subtype == CommitmentSubtype.GRANTED:
            continue  # "I'm releasing the hold" + the call: narration of the call itself
        if subtype == CommitmentSubtype.GRANTED and LOOKUP.match(ctext):
            continue  # "I've got the booking open": a look-up, nothing granted
        if subtype == CommitmentSubtype.GRANTED and FRONTED_TEMPORAL.match(ctext):
            continue  # "Before I set it up, ...", "Once I've processed it, ...": not done
        if subtype == CommitmentSubtype.OFFERED and LEAD_IN.search(ctext):
            continue  # "Here's what I can offer:" leads in to the offers, it is none
        if subtype == CommitmentSubtype.GRANTED and CONFESSION.search(
                text, *span_at(spans := spans or tuple(sentences(text)), clause.start)):
            continue  # "I quoted you the old price, my mistake": a confession, not a grant
        polarity = "negative" if f.negated else "positive"
        attrs: dict[str, object] = {"actor": turn.role, "polarity": polarity, "verb": f.verb,
                                    "rule": why.split("'")[1]}
        if turn.role == "assistant" and undo_head(f, clause.question):
            attrs["undo"] = True
        if if_said is not None:
            attrs["condition"] = if_said  # "if you send the receipt, I'll refund it"
        who = THIRD_PARTY.match(ctext) if rule.name == "third_party_will" else None
        if who is not None:
            attrs["actor"] = who.group("who")  # "Dana from billing", "the claims team"
        out.append(Candidate.of(
            text, clause.start, clause.end, kind=kind_after(Kind.COMMITMENT, subtype),
            subtype=subtype,
            score=rule.score, extractor=NAME, why=why, label=f.label,
            value=money_value(ctext) or money_value(standing_figure(ctext) or ""), attrs=attrs,
        ))
    options = option_items(turn, NAME)
    if options:  # an option's own clauses are that option, not commitments of their own
        out = [c for c in out if not any(o.start <= c.start < o.end for o in options)]
    return sorted([*out, *options], key=lambda c: (c.start, c.end))


class CommitmentRules:
    """Find committing clauses: offered, granted, promised, declined, revoked, claimed."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = True

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return one candidate per committing clause of ``turn``."""
        return analyze(turn, doc)

    def needs(self, turn: TurnView) -> Needs:
        """The parse of each sentence where a rule could fire: every rule wants a first
        or second person, an entitlement subject ("the refund will be ...") or a verb of
        agreeing or claiming, so a sentence with none of those is not worth parsing."""
        if turn.role == "tool":
            return Needs()
        return Needs(parse=cue_sentences(turn.text, PERSONS, CUE_STEMS))
