"""Commitments: what the agent offered, granted, promised, declined or revoked.

One candidate per committing clause, its span the clause verbatim. The clauses and their
features (subject person, modal, tense/aspect, negation, main verb, label) come from
:mod:`extractors.text.clauses` and :mod:`extractors.text.clause_features`; the first
matching rule of :data:`RULES` names the subtype.

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
  commitments. ``revoked`` is a declined clause with a reversal cue ("after all").
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

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, ClassVar, NamedTuple

import regex

from extractors.base import Candidate, Needs, TurnView
from extractors.dialogue.commitment_shapes import (
    BACK_TO_YOU,
    CLEFT,
    CONFESSION,
    DONE_STATE,
    EXPECTED_TIME,
    FRONTED_TEMPORAL,
    IMPOSSIBLE,
    LEAD_IN,
    LOOKUP,
    MEASURE,
    ON_US,
    SET_FOR,
    SPARED,
    THIRD_PARTY,
    THIRD_PARTY_CANNOT,
    USER_DELIVERY,
    WILL_DO,
    agent_side,
    corrected_figure,
    standing_figure,
)
from extractors.dialogue.commitment_words import (
    CHARGE,
    CLAIM_VERBS,
    CONCESSION,
    NON_COMMITTING,
    RECEIPT,
    UNDO,
    USER_NOT_COMMITTING,
)
from extractors.dialogue.options import option_items
from extractors.records import CommitmentSubtype, Kind, NoteSubtype, kind_after
from extractors.text.clause_features import ENTITLEMENT, OFFER_FRAME, Features, read
from extractors.text.clauses import Clause, cue_sentences
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

REVOKE_CUE = rx(
    r"\b(?:after\s+all|any\s?more|no\s+longer|on\s+second\s+thought|after\s+checking|"
    r"i\s+was\s+wrong|my\s+mistake|i\s+made\s+a\s+mistake|have\s+to\s+(?:withdraw|retract))\b",
    regex.IGNORECASE,
)
CONDITION_CUE = rx(
    r"\b(?:once|when|within|after|as\s+soon\s+as|by|before|until|in\s+\d+)\b", regex.IGNORECASE
)
AGREE_TO = rx(r"(?:(?:ok(?:ay)?|fine|then|so),?\s+)?(?:I|we)\s+(?:can\s+)?agree\s+to\b"
                         r"|agreed\s*(?:on\b|:)", regex.IGNORECASE)
#: A clause asking the other party to do something ("please confirm we are booking ...").
ASKS_USER = rx(r"(?:please\s+)?(?:confirm|verify|check|let\s+me\s+know|tell\s+me|"
                          r"can\s+you|could\s+you)\b", regex.IGNORECASE)
#: A line imitating a carried-forward block (header or "STATUS: ..." entry).
CARRIED_LINE = rx(
    r"^[ \t]*(?:={2,}[^\n]{0,200}|(?P<tag>AGREED|GRANTED|PROMISED|OFFERED|DECLINED|REVOKED|"
    r"OPEN|DEFERRED|CONSTRAINT|ACTIVE)[ \t]*:[^\n]*)$",
    regex.MULTILINE,
)
#: What the user will have to do, or have time for: an obligation, nothing received.
YOU_MUST = rx(r"\b(?:will|['’]ll)\s+(?:(?:have|need)\s+to|"
              r"have\s+(?:plenty\s+of\s+|enough\s+)?time)\b", regex.IGNORECASE, linear=True)
#: A clause that states a condition ("If the manager approves", "unless it's damaged").
IF_CLAUSE = rx(r"^(?:if|unless|provided(?:\s+that)?|assuming|as\s+long\s+as|in\s+case)\b\s*"
               r"(?P<cond>.+)$", regex.IGNORECASE, linear=True)
#: A condition inside a committing clause: "I'll refund it if finance signs off".
TRAILING_IF = rx(r"\b(?:if|unless|provided(?:\s+that)?|assuming)\s+(?P<cond>[^,.;!?]{1,120})",
                 regex.IGNORECASE)
#: A condition that is someone else's decision, or counterfactual: what follows it is a
#: hypothetical, not a commitment ("if the manager approves", "if it were up to me").
HYPOTHETICAL = rx(
    r"\b(?:approv\w*|agree[sd]?|allow(?:s|ed)?|authori[sz]\w*|sign(?:s|ed)?\s+off|"
    r"permit(?:s|ted)?|okay(?:s|ed)|green[-\s]?light\w*|go[-\s]ahead|were|could|would|"
    r"up\s+to\s+me)\b", regex.IGNORECASE)
#: A quoted passage: someone else's words (or a policy's), never the speaker's commitment.
QUOTED = rx(r"\"[^\"\n]{3,500}\"|“[^”\n]{3,500}”|‘[^’\n]{3,500}’|"
            r"(?<![\w'’])'(?=\S)(?:[^'\n]|(?<=\w)'(?=\w)){3,500}'(?![\w'’])", linear=True)
NOT_YET = rx(r"\b(?:nothing|not\s+yet|no\s+longer|never)\b", regex.IGNORECASE, linear=True)
#: The interrogative offer frames ("would you like me to", "shall I", "want me to").
ASKED_OFFER = rx(r"(?:would|do)\s+you\s+(?:like|want)|want\s+me|(?:shall|should|can|could|may)"
                 r"\s+(?:I|we)\b|how\s+about", regex.IGNORECASE, linear=True)
_S_NON = frozenset(stem(w) for w in NON_COMMITTING)
_S_CONC = frozenset(stem(w) for w in CONCESSION)
_S_ENT = frozenset(stem(w) for w in ENTITLEMENT)
_S_CLAIM = frozenset(stem(w) for w in CLAIM_VERBS)
UNDO_STEMS = frozenset(stem(w) for w in UNDO)
_S_CHARGE = frozenset(stem(w) for w in CHARGE)
_S_RECEIPT = frozenset(stem(w) for w in RECEIPT)
#: What the agent contacts the user by, besides delivering: "I message you", "I ring you".
_S_CONTACT = frozenset(stem(w) for w in "message ring phone ping chase update confirm".split())
#: What a user may be spared losing: "you won't lose your place" (not "you won't pay
#: interest on it", which states how a product works).
_S_USER_LOSS = frozenset(stem(w) for w in "lose".split())
#: Stems that, besides a person, let a rule fire (see :meth:`CommitmentRules.needs`).
CUE_STEMS = _S_ENT | _S_CLAIM | frozenset(stem(w) for w in """
will should they he she team possible impossible non-refundable done committed pushed
merged deployed published reverted tagged released issued processed live
""".split())


# -- rules (data) ----------------------------------------------------------------------


class Rule(NamedTuple):
    """A named, scored test over a clause's features that yields a subtype."""

    name: str
    subtype: str
    score: float
    test: Callable[[Features, str, Clause], bool]


def _acts(f: Features) -> bool:
    return bool(f.verb) and f.verb not in _S_NON


def _first(f: Features) -> bool:
    return f.person == 1


def _set_for(f: Features, text: str, c: Clause, verbs: frozenset[str]) -> bool:
    """A first person's act of delivery or contact, in the present tense and set for a
    time: a promise said the way many people (and many non-native speakers) say it."""
    return (_first(f) and not f.modal and not f.past and not f.perfect and not f.negated
            and not c.question and not f.passive and f.verb in verbs
            and bool(SET_FOR.search(text)))


def _impossible(text: str) -> bool:
    """An impossibility said in the clause, not inside its leading condition: "If tonight's
    booking is non-refundable, send me the confirmation" asks for a document."""
    m = IMPOSSIBLE.search(text)
    if m is None:
        return False
    cond = IF_CLAUSE.match(text)
    return cond is None or "," in text[:m.start()]


def _cleft(text: str) -> str | None:
    """The subtype a cleft states: offered, granted or declined (see ``CLEFT``)."""
    m = CLEFT.match(text)
    if m is None:
        return None
    act = m.group("act").strip().lower()
    if "n't" in act or "n’t" in act or "not" in act:
        return CommitmentSubtype.DECLINED
    return CommitmentSubtype.OFFERED if act.startswith("can") else CommitmentSubtype.GRANTED


RULES: tuple[Rule, ...] = (
    # "the refund is £153.45, not £135.45": the figure that stands now (the lifecycle
    # supersedes what said the other)
    *(Rule(f"corrected_figure_{subtype.value}", subtype, 0.7,
           lambda f, t, c, subtype=subtype: not c.question and corrected_figure(t) == subtype)
      for subtype in (CommitmentSubtype.OFFERED, CommitmentSubtype.PROMISED,
                      CommitmentSubtype.GRANTED)),
    # "What I can do is ...", "What I've done is ...", "What I can't do is ..."
    Rule("cleft_offer", CommitmentSubtype.OFFERED, 0.75,
         lambda f, t, c: not c.question and _cleft(t) == CommitmentSubtype.OFFERED),
    Rule("cleft_done", CommitmentSubtype.GRANTED, 0.75,
         lambda f, t, c: not c.question and _cleft(t) == CommitmentSubtype.GRANTED),
    Rule("cleft_cannot", CommitmentSubtype.DECLINED, 0.75,
         lambda f, t, c: not c.question and _cleft(t) == CommitmentSubtype.DECLINED),
    # "I agree to the €60 partial refund", "Agreed on the aliases: ..."
    Rule("first_person_agree_to", CommitmentSubtype.AGREED, 0.8,
         lambda f, t, c: not c.question and not f.negated and bool(AGREE_TO.match(t))),
    # "I'd be happy to swap it"; an offer asked as a question ("Shall I book it?",
    # "Would you like me to hold it?") is a question, not a commitment
    Rule("offer_frame", CommitmentSubtype.OFFERED, 0.8,
         lambda f, t, c: bool(OFFER_FRAME.match(t)) and _acts(f)
         and not f.negated and not c.question and not ASKED_OFFER.match(t)),
    Rule("revoke_cue", CommitmentSubtype.REVOKED, 0.85,
         lambda f, t, c: _first(f) and f.negated and _acts(f)
         and bool(REVOKE_CUE.search(t))),
    # "I can't refund it" declines; "I couldn't / was unable to book it" reports a failure
    Rule("first_person_cannot", CommitmentSubtype.DECLINED, 0.8,
         lambda f, t, c: _first(f) and f.negated and f.modal == "can" and _acts(f)
         and not f.past and not f.perfect),
    Rule("first_person_wont_concede", CommitmentSubtype.DECLINED, 0.75,
         lambda f, t, c: _first(f) and f.negated and f.modal == "will" and f.verb in _S_CONC),
    Rule("first_person_dont_concede", CommitmentSubtype.DECLINED, 0.6,
         lambda f, t, c: _first(f) and f.negated and not f.modal and not f.perfect
         and not f.past and f.verb in _S_CONC),
    Rule("first_person_done", CommitmentSubtype.GRANTED, 0.85,
         lambda f, t, c: _first(f) and not f.negated and not c.question and _acts(f)
         and (f.perfect or f.past) and not f.modal),
    Rule("first_person_doing", CommitmentSubtype.GRANTED, 0.6,
         lambda f, t, c: _first(f) and not f.negated and not c.question and _acts(f)
         and f.progressive and not f.modal),
    Rule("entitlement_done", CommitmentSubtype.GRANTED, 0.7,
         lambda f, t, c: f.person == 3 and f.subject in _S_ENT and f.passive and f.perfect
         and not f.negated and not c.question),
    Rule("first_person_will", CommitmentSubtype.PROMISED, 0.8,
         lambda f, t, c: _first(f) and f.modal == "will" and _acts(f) and not c.question),
    # "You'll get a text the evening before" -- not what the user will have to do ("anyone
    # else you'll have to add by hand") nor will have time for
    Rule("you_will_receive", CommitmentSubtype.PROMISED, 0.55,
         lambda f, t, c: f.person == 2 and f.modal == "will" and f.verb in _S_RECEIPT
         and not f.negated and not c.question and not YOU_MUST.search(t)),
    Rule("entitlement_would_be", CommitmentSubtype.OFFERED, 0.75,
         lambda f, t, c: f.person == 3 and f.subject in _S_ENT and f.modal == "would"
         and not f.negated and not c.question),
    Rule("entitlement_will", CommitmentSubtype.PROMISED, 0.7,
         lambda f, t, c: f.person == 3 and f.subject in _S_ENT and not f.negated
         and not c.question and (f.modal == "will" or (not f.modal and not f.past
         and not f.perfect and f.passive and bool(CONDITION_CUE.search(t))))),
    Rule("impossible", CommitmentSubtype.DECLINED, 0.6,
         lambda f, t, c: not c.question and _impossible(t)),
    # "Finance can't accept that", "the claims team isn't able to reopen it"
    Rule("third_party_cannot", CommitmentSubtype.DECLINED, 0.6,
         lambda f, t, c: not c.question and bool(THIRD_PARTY_CANNOT.match(t))),
    # "UK numbers can't be moved to a Portuguese network"
    Rule("cannot_be_done", CommitmentSubtype.DECLINED, 0.6,
         lambda f, t, c: f.person == 3 and f.negated and f.modal == "can" and f.passive
         and not c.question and not f.past),
    # "you could move it to a pay-as-you-go SIM": an option put to the other party
    Rule("you_could", CommitmentSubtype.OFFERED, 0.55,
         lambda f, t, c: f.person == 2 and f.modal == "could" and not f.negated
         and not c.question and _acts(f)),
    Rule("third_party_will", CommitmentSubtype.PROMISED, 0.65,
         lambda f, t, c: f.person == 3 and not f.negated and not c.question
         and f.verb not in _S_NON and bool(THIRD_PARTY.match(t))),
    Rule("expected_with_time", CommitmentSubtype.PROMISED, 0.55,
         lambda f, t, c: f.person in {2, 3} and f.modal in {"will", "should"}
         and not f.negated and not c.question and not f.past
         and bool(EXPECTED_TIME.search(t)) and not MEASURE.search(t)
         and not YOU_MUST.search(t)),
    Rule("on_us", CommitmentSubtype.GRANTED, 0.6,
         lambda f, t, c: not c.question and bool(ON_US.search(t))),
    # "I message you here before 8:00": an act in the present tense set for a time
    Rule("first_person_set_for", CommitmentSubtype.PROMISED, 0.55,
         lambda f, t, c: _set_for(f, t, c, USER_DELIVERY | _S_CONTACT)),
    # "the CHF 12 reservation fee goes back to you", "£135.45 is coming back to you"
    Rule("back_to_you", CommitmentSubtype.PROMISED, 0.55,
         lambda f, t, c: not c.question and not f.negated and not f.past and not f.perfect
         and bool(BACK_TO_YOU.search(t))),
    # "you won't be charged the exit fee", "your payment won't be taken", "you won't lose
    # your place": an act of ours the user is spared
    Rule("you_are_spared", CommitmentSubtype.PROMISED, 0.55,
         lambda f, t, c: f.person in {2, 3} and f.modal == "will" and f.negated
         and not c.question and f.verb in SPARED
         and (f.passive or (f.person == 2 and f.verb in _S_USER_LOSS))),
    Rule("done_state", CommitmentSubtype.GRANTED, 0.55,
         lambda f, t, c: not c.question and not f.negated and bool(DONE_STATE.match(t))
         and not NOT_YET.search(t) and not IF_CLAUSE.match(t)),  # "If it is extended, ..."
    Rule("first_person_can", CommitmentSubtype.OFFERED, 0.7,
         lambda f, t, c: _first(f) and f.modal in {"can", "could", "offer"} and not f.negated
         and _acts(f) and not c.question),
)
USER_RULES: tuple[Rule, ...] = (
    Rule("you_agreed", NoteSubtype.CLAIMED, 0.75,
         lambda f, t, c: f.person in {2, 3} and f.subject not in _S_ENT
         and (f.past or f.perfect) and f.verb in _S_CLAIM and not f.negated
         and (f.person == 2 or agent_side(f.subject, t, f.verb_text))),
    Rule("i_was_promised", NoteSubtype.CLAIMED, 0.7,
         lambda f, t, c: _first(f) and f.passive and f.verb in _S_CLAIM and not f.negated),
    Rule("user_will_deliver", CommitmentSubtype.PROMISED, 0.65,
         lambda f, t, c: _first(f) and f.modal == "will" and f.verb in USER_DELIVERY
         and not f.negated and not c.question),
    # "I send photos tomorrow evening", "I call you Friday": the user's act, set for a time
    Rule("user_set_for", CommitmentSubtype.PROMISED, 0.6,
         lambda f, t, c: _set_for(f, t, c, USER_DELIVERY)),
    # "Will do." / "ok, will do": an elliptical yes to what the agent asked them to do
    Rule("will_do", CommitmentSubtype.PROMISED, 0.6,
         lambda f, t, c: not c.question and bool(WILL_DO.match(t))),
    # "I'll ask Priya to review it", "I'll decide before the 28th": the user binds
    # themselves to an act (not "I'll take it", "I'll wait")
    Rule("user_will", CommitmentSubtype.PROMISED, 0.6,
         lambda f, t, c: _first(f) and f.modal == "will" and bool(f.verb)
         and f.verb not in USER_NOT_COMMITTING and not f.negated and not c.question),
)


# -- the extractor ---------------------------------------------------------------------


FREE = rx(r"\b(?:free\s+of\s+charge|for\s+free|at\s+no\s+(?:extra\s+)?(?:cost|"
                     r"charge)|on\s+us|no\s+charge)\b", regex.IGNORECASE)


def _concedes(f: Features, text: str) -> bool:
    """Return whether a clause concedes something: its verb, object noun or a cue says so."""
    return (f.verb in _S_CONC or bool({stem(w) for w in (f.label or "").split()} & _S_ENT)
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
