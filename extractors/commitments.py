"""Commitments: what the agent offered, granted, promised, declined or revoked.

One candidate per committing clause, its span the clause verbatim. The clauses and their
features (subject person, modal, tense/aspect, negation, main verb, label) come from
:mod:`extractors.clauses`; the first matching rule of :data:`RULES` names the subtype.

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
  a refund", and any user line imitating a carried-forward block ("AGREED: ...").
  Assistant and tool turns never turn such lines into commitments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

import regex

from extractors.base import Candidate, Change, TurnView, register, register_resolver
from extractors.clauses import (
    ENTITLEMENT,
    OFFER_FRAME,
    TIMEOUT,
    Clause,
    Features,
    clauses,
    read,
    stem,
    trim,
)
from scratchpad.records import Kind, Record, Status

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "commitments.rules.v1"
RESOLVER = "commitments.lifecycle.v1"

# -- lexicons (data) -------------------------------------------------------------------

#: Verbs whose first-person use is talk about the conversation, not a commitment.
NON_COMMITTING = frozenset("""
be have see look check find note notice understand know think believe guess hope suppose
read hear say tell ask mention explain apologize apologise help assist try want need like
love appreciate thank seem feel wonder recommend suggest afraid sorry let show go verify
review investigate confirm do get_it pull reach mean realize realise agree work reproduce
test run debug trace identify locate inspect diagnose analyse analyze search spot discover
""".split())
#: Verbs that concede something of value to the other party.
CONCESSION = frozenset("""
waive refund cover credit reimburse compensate discount reduce lower drop remove cancel
exempt upgrade extend approve authorise authorize honour honor comp pay absorb match
grant give offer include replace reverse void forgive accept
""".split())
#: Verbs that take back what was given or set up ("release the hold", "drop the discount").
UNDO = frozenset("""
release cancel undo revoke withdraw drop remove reverse void rescind retract scrap delete
lift unbook
""".split())
#: Nouns for what the customer pays: removing one is a concession, not an undo.
CHARGE = frozenset("""
fee charge cost surcharge deduction penalty fine price premium tax interest excess
""".split())
#: Verbs a user reports the agent used when they claim an earlier agreement.
CLAIM_VERBS = frozenset("agree promise say offer confirm tell guarantee assure approve "
                        "accept waive grant".split())
#: Verbs of receiving, for "you'll get/receive X".
RECEIPT = frozenset("get receive see have".split())
REVOKE_CUE = regex.compile(
    r"\b(?:after\s+all|any\s?more|no\s+longer|on\s+second\s+thought|after\s+checking|"
    r"i\s+was\s+wrong|my\s+mistake|i\s+made\s+a\s+mistake|have\s+to\s+(?:withdraw|retract))\b",
    regex.IGNORECASE,
)
CONDITION_CUE = regex.compile(
    r"\b(?:once|when|within|after|as\s+soon\s+as|by|before|until|in\s+\d+)\b", regex.IGNORECASE
)
#: A clause asking the other party to do something ("please confirm we are booking ...").
ASKS_USER = regex.compile(r"(?:please\s+)?(?:confirm|verify|check|let\s+me\s+know|tell\s+me|"
                          r"can\s+you|could\s+you)\b", regex.IGNORECASE)
#: A line imitating a carried-forward block (header or "STATUS: ..." entry).
CARRIED_LINE = regex.compile(
    r"^[ \t]*(?:={2,}[^\n]{0,200}|(?P<tag>AGREED|GRANTED|PROMISED|OFFERED|DECLINED|REVOKED|"
    r"OPEN|DEFERRED|CONSTRAINT|ACTIVE)[ \t]*:[^\n]*)$",
    regex.MULTILINE,
)
MONEY = regex.compile(
    r"(?P<sym>[€$£])\s?(?P<num>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d{1,2}))?(?!\d)|"
    r"(?<![\d.])(?P<num2>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec2>\d{1,2}))?\s?"
    r"(?P<code>EUR|USD|GBP|euros?|dollars?|pounds?)\b",
    regex.IGNORECASE,
)
_SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP"}
_CODES = {"eur": "EUR", "euro": "EUR", "euros": "EUR", "usd": "USD", "dollar": "USD",
          "dollars": "USD", "gbp": "GBP", "pound": "GBP", "pounds": "GBP"}


_S_NON = frozenset(stem(w) for w in NON_COMMITTING)
_S_CONC = frozenset(stem(w) for w in CONCESSION)
_S_ENT = frozenset(stem(w) for w in ENTITLEMENT)
_S_CLAIM = frozenset(stem(w) for w in CLAIM_VERBS)
_S_UNDO = frozenset(stem(w) for w in UNDO)
_S_CHARGE = frozenset(stem(w) for w in CHARGE)
_S_RECEIPT = frozenset(stem(w) for w in RECEIPT)


def money_value(text: str) -> dict[str, str | None] | None:
    """Return the one money amount in ``text`` as a value dict, or None (none or several)."""
    found = list(MONEY.finditer(text, timeout=TIMEOUT))
    if len(found) != 1:
        return None
    m = found[0]
    num = (m.group("num") or m.group("num2") or "").replace(",", "")
    dec = m.group("dec") or m.group("dec2")
    cur = _SYMBOLS.get(m.group("sym") or "") or _CODES.get((m.group("code") or "").lower())
    return {"amount": f"{num}.{dec}" if dec else num, "currency": cur}



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


RULES: tuple[Rule, ...] = (
    Rule("offer_frame", "offered", 0.8,
         lambda f, t, c: bool(OFFER_FRAME.match(t, timeout=TIMEOUT)) and _acts(f)
         and not f.negated),
    Rule("revoke_cue", "revoked", 0.85,
         lambda f, t, c: _first(f) and f.negated and _acts(f)
         and bool(REVOKE_CUE.search(t, timeout=TIMEOUT))),
    # "I can't refund it" declines; "I couldn't / was unable to book it" reports a failure
    Rule("first_person_cannot", "declined", 0.8,
         lambda f, t, c: _first(f) and f.negated and f.modal == "can" and _acts(f)
         and not f.past and not f.perfect),
    Rule("first_person_wont_concede", "declined", 0.75,
         lambda f, t, c: _first(f) and f.negated and f.modal == "will" and f.verb in _S_CONC),
    Rule("first_person_dont_concede", "declined", 0.6,
         lambda f, t, c: _first(f) and f.negated and not f.modal and not f.perfect
         and not f.past and f.verb in _S_CONC),
    Rule("first_person_done", "granted", 0.85,
         lambda f, t, c: _first(f) and not f.negated and not c.question and _acts(f)
         and (f.perfect or f.past) and not f.modal),
    Rule("first_person_doing", "granted", 0.6,
         lambda f, t, c: _first(f) and not f.negated and not c.question and _acts(f)
         and f.progressive and not f.modal),
    Rule("entitlement_done", "granted", 0.7,
         lambda f, t, c: f.person == 3 and f.subject in _S_ENT and f.passive and f.perfect
         and not f.negated and not c.question),
    Rule("first_person_will", "promised", 0.8,
         lambda f, t, c: _first(f) and f.modal == "will" and _acts(f) and not c.question),
    Rule("you_will_receive", "promised", 0.55,
         lambda f, t, c: f.person == 2 and f.modal == "will" and f.verb in _S_RECEIPT
         and not f.negated and not c.question),
    Rule("entitlement_would_be", "offered", 0.75,
         lambda f, t, c: f.person == 3 and f.subject in _S_ENT and f.modal == "would"
         and not f.negated and not c.question),
    Rule("entitlement_will", "promised", 0.7,
         lambda f, t, c: f.person == 3 and f.subject in _S_ENT and not f.negated
         and not c.question and (f.modal == "will" or (not f.modal and not f.past
         and not f.perfect and f.passive and bool(CONDITION_CUE.search(t, timeout=TIMEOUT))))),
    Rule("first_person_can", "offered", 0.7,
         lambda f, t, c: _first(f) and f.modal in {"can", "could", "offer"} and not f.negated
         and _acts(f)),
)
USER_RULES: tuple[Rule, ...] = (
    Rule("you_agreed", "claimed", 0.75,
         lambda f, t, c: f.person in {2, 3} and f.subject not in _S_ENT
         and (f.past or f.perfect) and f.verb in _S_CLAIM and not f.negated),
    Rule("i_was_promised", "claimed", 0.7,
         lambda f, t, c: _first(f) and f.passive and f.verb in _S_CLAIM and not f.negated),
)


# -- the extractor ---------------------------------------------------------------------


FREE = regex.compile(r"\b(?:free\s+of\s+charge|for\s+free|at\s+no\s+(?:extra\s+)?(?:cost|"
                     r"charge)|on\s+us|no\s+charge)\b", regex.IGNORECASE)


def _concedes(f: Features, text: str) -> bool:
    """Return whether a clause concedes something: its verb, object noun or a cue says so."""
    return (f.verb in _S_CONC or bool({stem(w) for w in (f.label or "").split()} & _S_ENT)
            or bool(FREE.search(text, timeout=TIMEOUT)))


def undo_head(f: Features, question: bool = False) -> str | None:
    """Return the stem of the thing a clause takes back ("releasing the hold" -> "hold")."""
    if question or f.negated or f.verb not in _S_UNDO or not f.label:
        return None
    if f.modal not in {"", "will"} or not (f.person == 1 or (f.person == 3 and f.passive)):
        return None  # "I can cancel it" offers an undo; "the courier cancelled" is not ours
    head = stem(f.label.split()[-1])
    return None if head in _S_CHARGE else head


def _carried_lines(text: str) -> Iterator[regex.Match[str]]:
    yield from CARRIED_LINE.finditer(text, timeout=TIMEOUT)


def analyze(turn: TurnView, doc: Doc | None) -> list[Candidate]:
    """Return the commitment candidates of one turn (the extractor's whole work)."""
    text = turn.text
    if turn.role == "tool" or not text.strip():
        return []
    if doc is not None and doc.text != text[: len(doc.text)]:
        doc = None  # a Doc of other text (or truncated differently) is not ours
    out: list[Candidate] = []
    skip: list[tuple[int, int]] = []
    for m in _carried_lines(text):
        skip.append(m.span())
        if turn.role == "user" and m.group("tag") and m.group("tag") != "OPEN":
            a, b = trim(text, m.start(), m.end())
            out.append(Candidate.of(text, a, b, kind=Kind.COMMITMENT, subtype="claimed",
                                    score=0.5, extractor=NAME, why="rule 'carried_line'",
                                    value=money_value(text[a:b]),
                                    attrs={"actor": "user", "polarity": "positive",
                                           "rule": "carried_line"}))
    rules = RULES if turn.role == "assistant" else USER_RULES
    prev: tuple[Clause, Features, str | None, bool] | None = None
    for clause, f in read(text, doc, skip):
        ctext = text[clause.start:clause.end]
        if ASKS_USER.match(ctext, timeout=TIMEOUT):
            prev = (clause, f, None, False)
            continue
        rule = next((r for r in rules if r.test(f, ctext, clause)), None)
        subtype = rule.subtype if rule else None
        if (subtype == "promised" and prev is not None and prev[2] == "granted"
                and prev[0].sentence == clause.sentence and clause.coordinated
                and prev[3] and _concedes(f, ctext) and f.person == 1):
            subtype, why = "granted", "rule 'package_with_grant'"
        else:
            why = f"rule '{rule.name}'" if rule else ""
        prev = (clause, f, subtype, _concedes(f, ctext))
        if rule is None or subtype is None:
            continue
        polarity = "negative" if f.negated else "positive"
        attrs = {"actor": turn.role, "polarity": polarity, "verb": f.verb,
                 "rule": why.split("'")[1]}
        if turn.role == "assistant" and undo_head(f, clause.question):
            attrs["undo"] = True
        out.append(Candidate.of(
            text, clause.start, clause.end, kind=Kind.COMMITMENT, subtype=subtype,
            score=rule.score, extractor=NAME, why=why, label=f.label,
            value=money_value(ctext), attrs=attrs,
        ))
    return sorted(out, key=lambda c: (c.start, c.end))


@register(NAME)
class CommitmentRules:
    """Find committing clauses: offered, granted, promised, declined, revoked, claimed."""

    name = NAME
    needs_doc = True

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return one candidate per committing clause of ``turn``."""
        return analyze(turn, doc)


# -- the lifecycle resolver ------------------------------------------------------------

ACCEPT = regex.compile(
    r"^\W*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|deal|agreed|fine|great|perfect|sounds\s+good|"
    r"that\s+(?:works|would\s+be\s+great|is\s+fine|'s\s+fine|’s\s+fine|sounds\s+good)|"
    r"(?:let['’]?s|please)\s+do\s+(?:that|it)|go\s+ahead|please\s+do|i\s+accept|"
    r"i['’]ll\s+take\s+it|that['’]s\s+(?:fine|great|perfect|good|ok(?:ay)?))\b"
    r"|^\W*[^,;.!?]{1,40}?\s(?:works|is\s+fine|is\s+ok(?:ay)?|sounds\s+good|is\s+acceptable)\b",
    regex.IGNORECASE,
)
REJECT = regex.compile(
    r"^\W*(?:no|nope|not|that['’]s\s+not|i\s+can['’]?t\s+accept|i\s+don['’]?t\s+accept|"
    r"i['’]d\s+rather\s+not)\b|\btoo\s+(?:low|high|little|much)\b|\bnot\s+enough\b",
    regex.IGNORECASE,
)
CHOOSE = regex.compile(r"\b(?:please|I['’]ll\s+take|I['’]d\s+like|I\s+(?:choose|prefer|want)|"
                       r"let['’]?s\s+go\s+with|go\s+with)\b", regex.IGNORECASE)
CORRECTION = regex.compile(
    r"\b(?:correction|the\s+correct\s+(?:amount|figure|price|total)|i\s+made\s+a\s+mistake|"
    r"my\s+mistake|i\s+meant|should\s+have\s+said|actually\s+it['’]?s|sorry,\s+(?:it['’]?s|"
    r"that\s+should\s+be))\b",
    regex.IGNORECASE,
)
DONE = regex.compile(
    r"^\W*(?:done|all\s+set|completed?|sorted)\b|\b(?:has|have)\s+(?:now\s+)?been\s+\w+ed\b|"
    r"\b(?:I|we)\s*(?:['’]ve|\s+have)\s+(?:now\s+|just\s+)?\w+|\bis\s+now\s+\w+ed\b|"
    r"\b(?:is|are)\s+(?:held|booked|issued|processed|sent|done|confirmed|reserved)\b",
    regex.IGNORECASE,
)
TOOL_FAILURE = regex.compile(r"\b(?:error|fail(?:ed|ure)?|denied|invalid|not\s+found)\b|"
                             r"\"ok\"\s*:\s*false|\"success\"\s*:\s*false", regex.IGNORECASE)
_PENDING = {"offered", "agreed", "promised"}
_UNDOABLE = {"offered", "agreed", "granted", "promised"}
ACCEPT_WINDOW = 3


def _words(label: str | None) -> set[str]:
    return {stem(w) for w in regex.findall(r"\w+", label or "")} - {""}


def _about_same(a: Record, b: Record) -> bool:
    if a.label and b.label:
        return bool(_words(a.label) & _words(b.label))
    return a.attrs.get("verb") == b.attrs.get("verb") and bool(a.attrs.get("verb"))


def _undone_by(r: Record, head: str) -> bool:
    """Return whether undoing ``head`` takes ``r`` back: a word of its label, or its verb
    or a noun made from it ("hold" ~ hold, "booking" ~ book, "reservation" ~ reserv)."""
    verb = str(r.attrs.get("verb") or "")
    return head in _words(r.label) or (len(verb) >= 4 and head.startswith(verb))


def _first_clause(text: str) -> tuple[int, int]:
    m = regex.search(r"[^,;.!?\n]+", text, timeout=TIMEOUT)
    if not m:
        return 0, 0
    a, b = m.span()
    while a < b and text[a].isspace():
        a += 1
    return a, b


@register_resolver(RESOLVER)
class CommitmentLifecycle:
    """Move commitments: offered -> agreed, superseded, revoked, fulfilled."""

    name = RESOLVER
    kinds = frozenset({Kind.COMMITMENT})

    def resolve(self, turn: TurnView, doc: Doc | None, new: list[Record],
                live: list[Record]) -> list[Change]:
        """Return the lifecycle changes ``turn`` causes to live commitments.

        ``live`` may hold fulfilled commitments too: only an undo moves those.
        """
        new_ids = {r.id for r in new}
        earlier = [r for r in live if r.id not in new_ids and r.turn < turn.number]
        older = [r for r in earlier if r.status != Status.FULFILLED.value]
        changes: list[Change] = []
        if turn.role == "user":
            changes += self._acceptance(turn, older)
        if turn.role == "assistant":
            changes += self._undos(turn, doc, new, earlier)
            touched = {c.record_id for c in changes}
            new = [n for n in new if n.id not in touched]
            older = [r for r in older if r.id not in touched]
            changes += self._revocations(turn, new, older)
            changes += self._corrections(turn, new, older)
        if turn.role in {"assistant", "tool"}:
            touched = {c.record_id for c in changes}
            changes += self._fulfilment(turn, [r for r in older if r.id not in touched])
        return changes

    def _acceptance(self, turn: TurnView, older: list[Record]) -> list[Change]:
        offers = [r for r in older if r.subtype == "offered" and r.role == "assistant"
                  and turn.number - r.turn <= ACCEPT_WINDOW]
        if not offers:
            return []
        last = max(r.turn for r in offers)
        offers = [r for r in offers if r.turn == last]
        a, b = _first_clause(turn.text)
        first = turn.text[a:b]
        named = money_value(first)
        words = {stem(w) for w in regex.findall(r"\w+", first)}
        chosen = [r for r in offers if _words(r.label) and _words(r.label) <= words]
        choosing = bool(chosen) and bool(CHOOSE.search(first, timeout=TIMEOUT))
        if not choosing and (REJECT.search(first, timeout=TIMEOUT)
                             or not ACCEPT.search(first, timeout=TIMEOUT)):
            if REJECT.search(first, timeout=TIMEOUT):
                return [Change(record_id=r.id, field="subtype", new="offered",
                               evidence_start=a, evidence_end=b, note="rejected",
                               attrs={"rejected_turn": turn.number, "rejected_text": first})
                        for r in offers]
            return []
        out = []
        for r in offers:
            if chosen and r not in chosen:
                continue
            if named and r.value and r.value.get("amount") != named["amount"]:
                continue
            out.append(Change(record_id=r.id, field="subtype", new="agreed",
                              evidence_start=a, evidence_end=b, note="accepted",
                              attrs={"accepted_turn": turn.number, "accepted_text": first}))
        return out

    def _undos(self, turn: TurnView, doc: Doc | None, new: list[Record],
               earlier: list[Record]) -> list[Change]:
        """Revoke what an undo clause of ``turn`` takes back; retire the clause's record."""
        pool = [r for r in earlier if r.role == "assistant" and r.subtype in _UNDOABLE
                and r.attrs.get("verb") not in _S_UNDO and not r.attrs.get("undo")]
        if not pool:
            return []
        if doc is not None and doc.text != turn.text[: len(doc.text)]:
            doc = None
        skip = [m.span() for m in _carried_lines(turn.text)]
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
                if n.start < clause.end and clause.start < n.end and n.id not in done:
                    out.append(Change.status(n, Status.SUPERSEDED, turn, clause.start,
                                             clause.end, note="an undo, not a commitment",
                                             undoes=ids))
        return out

    def _revocations(self, turn: TurnView, new: list[Record], older: list[Record]
                     ) -> list[Change]:
        out = []
        for n in new:
            if n.subtype not in {"revoked", "declined"}:
                continue
            pool = [r for r in older if r.subtype in {"offered", "agreed", "granted",
                                                      "promised"} and r.role == "assistant"]
            same = [r for r in pool if _about_same(r, n)]
            if not same and n.subtype == "revoked" and pool:
                same = [pool[-1]]  # "I can't waive it after all": the latest one
            for r in same:
                out.append(Change.status(r, Status.REVOKED, turn, n.start, n.end,
                                         note=f"{n.subtype} turn {turn.number}"))
        return out

    def _corrections(self, turn: TurnView, new: list[Record], older: list[Record]
                     ) -> list[Change]:
        out = []
        correcting = CORRECTION.search(turn.text, timeout=TIMEOUT)
        for n in new:
            if n.subtype in {"revoked", "declined", "claimed"}:
                continue
            for r in older:
                if r.role != "assistant" or not _about_same(r, n):
                    continue
                differs = bool(r.value and n.value and r.value != n.value)
                if differs or (correcting and r.value):
                    out.append(Change.status(r, Status.SUPERSEDED, turn, n.start, n.end,
                                             note="corrected" if correcting else "replaced",
                                             superseded_by=n.id))
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

    def _fulfilment(self, turn: TurnView, older: list[Record]) -> list[Change]:
        pending = [r for r in older if r.subtype in _PENDING and r.role == "assistant"
                   and (r.subtype != "offered" or r.attrs.get("accepted_turn"))]
        if not pending:
            return []
        out = []
        if turn.role == "tool":
            if TOOL_FAILURE.search(turn.text, timeout=TIMEOUT):
                return []
            keys = {stem(w) for w in regex.split(r"[_\W]+", turn.tool_name or "") if w}
            for r in pending:
                if keys & (_words(r.label) | {r.attrs.get("verb", "")}):
                    out.append(Change.status(r, Status.FULFILLED, turn, 0, len(turn.text),
                                             note=f"tool {turn.tool_name}"))
            return out
        for clause in clauses(turn.text):
            ctext = turn.text[clause.start:clause.end]
            if clause.question or not DONE.search(ctext, timeout=TIMEOUT):
                continue
            if CONDITION_CUE.search(ctext, timeout=TIMEOUT) and "once" in ctext.lower():
                continue
            words = {stem(w) for w in regex.findall(r"\w+", ctext)}
            for r in pending:
                if r.id in {c.record_id for c in out}:
                    continue
                if _words(r.label) and _words(r.label) <= words:
                    out.append(Change.status(r, Status.FULFILLED, turn, clause.start,
                                             clause.end, note="done"))
        return out
