"""The commitment lifecycle: offers accepted, values corrected, commitments revoked,
undone or fulfilled by later turns (resolver ``commitments.lifecycle.v1``).

See :mod:`extractors.dialogue.commitments` for what each subtype means and the undo decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Change, TurnView
from extractors.dialogue.commitment_rules import CONDITION_CUE
from extractors.dialogue.commitments import RESOLVER
from extractors.dialogue.corrections import corrections
from extractors.dialogue.figure_picks import figure_taken
from extractors.dialogue.fulfilment import (
    done_by_tool,
    learned_fulfilment,
    modal_verb,
    offers_carried_out,
)
from extractors.dialogue.fulfilment import shipped as fulfilment_model
from extractors.dialogue.options import (
    REJECT,
    first_clause,
    listed_pick,
    named_offer,
    others_superseded,
    picked_offer,
)
from extractors.dialogue.reports import (
    AHEAD,
    CHANNEL_WORDS,
    GENERIC_ACTS,
    RECEIVED,
    SELF_REPORT,
    USER_DONE,
    alternatives,
    receipt_terms,
    reported_clauses,
)
from extractors.dialogue.revocations import revocations, undo_changes
from extractors.records import CommitmentSubtype, Kind, NoteSubtype, Record, Status
from extractors.text.clauses import clauses
from extractors.text.guard import rx
from extractors.text.lexicon import terms, ties, word_stems
from extractors.values.amounts import money_value

if TYPE_CHECKING:
    from spacy.tokens import Doc


ACCEPT = rx(
    r"^\W*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|deal|agreed|fine|great|perfect|sounds\s+good|"
    r"that\s+(?:works|would\s+be\s+great|is\s+fine|'s\s+fine|’s\s+fine|sounds\s+good)|"
    r"(?:let['’]?s|please)\s+do\s+(?:that|it)|go\s+ahead|please\s+do|i\s+accept|"
    r"i['’]ll\s+take\s+it|that['’]s\s+(?:fine|great|perfect|good|ok(?:ay)?))\b"
    r"|^\W*[^,;.!?]{1,40}?\s(?:works|is\s+fine|is\s+ok(?:ay)?|sounds\s+good|is\s+acceptable)\b",
    regex.IGNORECASE,
)
CHOOSE = rx(r"\b(?:please|I['’]ll\s+take|I['’]d\s+like|I\s+(?:choose|prefer|want)|"
                       r"let['’]?s\s+go\s+with|go\s+with)\b", regex.IGNORECASE)
_PENDING = {CommitmentSubtype.OFFERED, CommitmentSubtype.AGREED, CommitmentSubtype.PROMISED}
ACCEPT_WINDOW = 3
#: A clause that denies an act or says it is still to come ("hasn't texted yet").
NOT_DONE = rx(r"n['’]t\b|\b(?:not|never|yet|no\s+one|nobody)\b", regex.IGNORECASE, linear=True)
#: The fulfilment-model score from which a tool call carries out an offer nobody was
#: seen to accept (chosen on dev: end status 0.750 at 0.5, 0.748 at 0.6, 0.745 at 0.7).
CARRIED = 0.5


def _same_act(report: Record, kept: Record) -> bool:
    """True when a report names the act of the commitment it keeps: its verb is in the
    commitment's words or the commitment's verb in its own ("the refund has been issued"
    after "I'll refund it")."""
    report_verb = str(report.attrs.get("verb") or "")
    kept_verbs = {str(kept.attrs.get("verb") or ""), modal_verb(kept.text)} - {""}
    return (bool(report_verb) and report_verb in word_stems(kept.text)) \
        or bool(kept_verbs & word_stems(report.text))


def _pending(r: Record) -> bool:
    """A commitment still to be carried out: promised, or an offer that was accepted."""
    return r.subtype in (CommitmentSubtype.PROMISED, CommitmentSubtype.AGREED) or (
        r.subtype == CommitmentSubtype.OFFERED and bool(r.attrs.get("accepted_turn")))


class CommitmentLifecycle:
    """Move commitments: offered -> agreed, superseded, revoked, fulfilled."""

    name: ClassVar[str] = RESOLVER
    kinds: ClassVar[frozenset[Kind]] = frozenset({Kind.COMMITMENT})
    #: A report that a plan failed re-reads it as ``tried`` first, so the same turn cannot
    #: also accept it.
    after: ClassVar[tuple[str, ...]] = ("approaches.failed.v1",)

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
            undos = undo_changes(turn, doc, new, earlier)
            changes += undos
            touched = {c.record_id for c in changes}
            new = [n for n in new if n.id not in touched]
            older = [r for r in older if r.id not in touched]
            changes += revocations(turn, new, older, undos)
            changes += corrections(turn, new, older)
            touched = {c.record_id for c in changes}
            changes += self._alternative_taken(turn, new, [r for r in older
                                                           if r.id not in touched])
        # Any role fulfils: the agent reports it, a tool does it, the user says it arrived.
        touched = {c.record_id for c in changes}
        kept = self._fulfilment(turn, [r for r in older if r.id not in touched])
        # ... and where the rules see no tie, the fulfilment model may (in other words;
        # too unsure to retire a grant of the same turn as a mere report of it)
        touched |= {c.record_id for c in kept}
        learned = learned_fulfilment(turn, [r for r in older if r.id not in touched
                                            and r.status == Status.ACTIVE and _pending(r)],
                                     fulfilment_model())
        touched |= {c.record_id for c in learned}
        carried = offers_carried_out(
            turn, [r for r in older if r.id not in touched and r.status == Status.ACTIVE
                   and r.subtype == CommitmentSubtype.OFFERED and r.role == "assistant"
                   and not r.attrs.get("accepted_turn")], fulfilment_model(), CARRIED)
        return changes + kept + learned + carried + self._reports(turn, new, kept, older)

    @staticmethod
    def _alternative_taken(turn: TurnView, new: list[Record], older: list[Record]
                           ) -> list[Change]:
        """Settle an offer of alternatives nobody accepted once the agent grants one of
        them: "the courier can collect on Tuesday, Wednesday or Thursday", then "the
        Wednesday slot is held" -- the grant is the line now; the list is superseded."""
        grants = [n for n in new if n.subtype == CommitmentSubtype.GRANTED]
        if not grants:
            return []
        out = []
        for r in older:
            if r.subtype != CommitmentSubtype.OFFERED or r.role != "assistant" \
                    or r.attrs.get("accepted_turn") or isinstance(r.attrs.get("option"), int):
                continue
            choices = alternatives(r.text)
            if len(choices) < 2:
                continue
            hit = next((n for n in grants if alternatives(n.text) & choices), None)
            if hit is not None:
                out.append(Change.status(r, Status.SUPERSEDED, turn, hit.start, hit.end,
                                         note="one of its alternatives granted",
                                         superseded_by=hit.id))
        return out

    @staticmethod
    def _reports(turn: TurnView, new: list[Record], kept: list[Change], older: list[Record]
                 ) -> list[Change]:
        """Retire a grant that only reports an earlier commitment kept: "Done: the refund
        of $94.80 has been issued" after "I'll refund it" is that promise fulfilled (its
        evidence), not a second commitment (label guide: one record where the terms are
        first stated). The record stays as a note (subtype ``reported``), with ``reports``
        naming the kept ones.
        A grant of another act stays a grant: "I've waived the €25 fee" after "we can
        courier a card for a €25 fee" is a new concession, not the courier reported."""
        out = []
        by_id = {r.id: r for r in older}
        for n in new:
            if n.subtype != CommitmentSubtype.GRANTED or n.role != "assistant":
                continue
            ids = [c.record_id for c in kept if c.evidence_start is not None
                   and c.evidence_end is not None
                   and c.evidence_start < n.end and n.start < c.evidence_end
                   and c.record_id in by_id and _same_act(n, by_id[c.record_id])]
            if ids:
                out.append(Change(record_id=n.id, field="subtype", new=NoteSubtype.REPORTED,
                                  evidence_start=n.start, evidence_end=n.end,
                                  note="a report of a commitment kept",
                                  attrs={"reports": ids}))
        return out

    def _acceptance(self, turn: TurnView, older: list[Record]) -> list[Change]:
        """The offers a user turn accepts, picks or turns down, and the one it takes by
        repeating its figure ("no exchange. fine, 11.695,50", turns after the offer): the
        figure decides for an offer the rest leaves unaccepted."""
        regular = self._accepted(turn, older)
        agreed = {c.record_id for c in regular if c.new == CommitmentSubtype.AGREED}
        taken = [c for c in figure_taken(turn, older) if c.record_id not in agreed]
        named = {c.record_id for c in taken}
        return taken + [c for c in regular if c.record_id not in named]

    def _accepted(self, turn: TurnView, older: list[Record]) -> list[Change]:
        offers = [r for r in older
                  if r.subtype == CommitmentSubtype.OFFERED and r.role == "assistant"
                  and turn.number - r.turn <= ACCEPT_WINDOW]
        if not offers:
            return []
        last = max(r.turn for r in offers)
        offers = [r for r in offers if r.turn == last]
        listed = sorted((r for r in offers if isinstance(r.attrs.get("option"), int)),
                        key=lambda r: r.attrs["option"])
        if len(listed) >= 2:
            chosen_options = listed_pick(turn, listed)
            if chosen_options:
                return chosen_options
        picked = picked_offer(turn.text, offers)
        if picked is not None:  # "The refund, please." / "store credit is fine"
            offer, (a, b) = picked
            quote = turn.text[a:b]
            return [Change(record_id=offer.id, field="subtype", new=CommitmentSubtype.AGREED,
                           evidence_start=a,
                           evidence_end=b, note="accepted",
                           attrs={"accepted_turn": turn.number, "accepted_text": quote}),
                    *others_superseded(turn, listed or offers, [offer], (a, b))]
        if len(listed) >= 2:
            # "fine" to a list of alternatives names none of them: a later pick, or the
            # tool result that books one, decides (accepting them all would agree to
            # alternatives at once)
            return []
        if last != turn.previous_by_role.get("assistant", last):
            # the agent spoke again since ("Would you like me to hold it?"): a bare "yes"
            # answers that, not the older offer; only a pick above can still name it
            return []
        a, b = first_clause(turn.text)
        first = turn.text[a:b]
        named = money_value(first)
        words = word_stems(first)
        chosen = [r for r in offers if word_stems(r.label) and word_stems(r.label) <= words]
        choosing = bool(chosen) and bool(CHOOSE.search(first))
        if not choosing and (REJECT.search(first)
                             or not ACCEPT.search(first)):
            if REJECT.search(first):
                return [Change(record_id=r.id, field="subtype", new=CommitmentSubtype.OFFERED,
                               evidence_start=a, evidence_end=b, note="rejected",
                               attrs={"rejected_turn": turn.number, "rejected_text": first})
                        for r in offers]
            return []
        # "Yes, set up the alert": of several offers, the one the reply names.
        one = named_offer(turn.text, offers) if len(offers) > 1 and not chosen else None
        out = []
        for r in offers:
            if chosen and r not in chosen:
                continue
            if one is not None and r is not one:
                continue
            if named and r.value and r.value.get("amount") != named["amount"]:
                continue
            out.append(Change(record_id=r.id, field="subtype", new=CommitmentSubtype.AGREED,
                              evidence_start=a, evidence_end=b, note="accepted",
                              attrs={"accepted_turn": turn.number, "accepted_text": first}))
        return out

    def _fulfilment(self, turn: TurnView, older: list[Record]) -> list[Change]:
        if turn.role == "user":
            mine = [r for r in older if r.subtype == CommitmentSubtype.PROMISED
                    and r.role == "user"]
            own = self._user_done(turn, mine)
        else:
            own = []
        pending = [r for r in older if r.subtype in _PENDING and r.role == "assistant"
                   and (r.subtype != CommitmentSubtype.OFFERED or r.attrs.get("accepted_turn"))]
        if not pending:
            return own
        out = list(own)
        if turn.role == "tool":
            return done_by_tool(turn, pending)
        if turn.role == "user":  # the user reports only receipt of what the agent promised
            out += self._third_party_done(turn, pending)
            found = [(c, True) for c in clauses(turn.text)
                     if not c.question and RECEIVED.search(turn.text[c.start:c.end])]
        else:
            found = [(c, False) for c in reported_clauses(turn.text)]
        received_terms = {r.id: receipt_terms(r.text) for r in pending} \
            if any(received for _, received in found) else {}
        for clause, received in found:
            ctext = turn.text[clause.start:clause.end]
            if CONDITION_CUE.search(ctext) and "once" in ctext.lower():
                continue
            words = word_stems(ctext)
            said = receipt_terms(ctext) if received else set()
            by_channel = False
            for r in pending:
                if r.id in {c.record_id for c in out}:
                    continue
                verb = str(r.attrs.get("verb") or "")
                # "I'll email it over" ... "I've emailed it": the promised act, done
                # ... by the agent itself: "I've emailed" is not the team's promised email
                same_act = (turn.role == "assistant" and len(verb) >= 4
                            and (r.attrs.get("actor") in (None, "assistant")
                                 or not SELF_REPORT.search(ctext))
                            and verb not in GENERIC_ACTS and verb in words)
                # ... or what was promised, named again in the report: "the re-letting
                # addendum went to your email" after "I'll send you the re-letting addendum"
                # (a clause that still looks ahead reports nothing done: "so you know the
                # review window has started", "Priya will need them intact")
                named = not received and not AHEAD.search(ctext) and ties(
                    terms(r.text, specific=False), terms(ctext, specific=False))
                shared = received_terms[r.id] & said if received else set()
                if shared and shared <= CHANNEL_WORDS:
                    # "got the text" ties by its channel alone: it receives one message,
                    # the first promised
                    if by_channel:
                        continue
                    by_channel = True
                if (word_stems(r.label) and word_stems(r.label) <= words) or same_act or (
                        shared) or named:
                    out.append(Change.status(r, Status.FULFILLED, turn, clause.start,
                                             clause.end, note="received" if received else "done"))
        return out

    @staticmethod
    def _third_party_done(turn: TurnView, pending: list[Record]) -> list[Change]:
        """A user turn saying the colleague or team the agent spoke for did the promised
        act: "the assessor texted yesterday" after "the assessor will text you" -- the
        actor and the promised verb in one clause that neither looks ahead nor denies."""
        theirs = [(r, str(r.attrs["verb"]), terms(str(r.attrs["actor"]))) for r in pending
                  if r.attrs.get("actor") not in (None, "", "assistant", "user")
                  and len(str(r.attrs.get("verb") or "")) >= 4
                  and r.attrs["verb"] not in GENERIC_ACTS]
        out: list[Change] = []
        if not theirs:
            return out
        kept: set[str] = set()
        for clause in clauses(turn.text):
            ctext = turn.text[clause.start:clause.end]
            if clause.question or AHEAD.search(ctext) or NOT_DONE.search(ctext):
                continue
            words = word_stems(ctext)
            for r, verb, actor in theirs:
                if r.id not in kept and verb in words and actor & words:
                    kept.add(r.id)
                    out.append(Change.status(r, Status.FULFILLED, turn, clause.start,
                                             clause.end, note="done"))
        return out

    @staticmethod
    def _user_done(turn: TurnView, mine: list[Record]) -> list[Change]:
        """The user's own promise kept: "Sent.", "Done, uploaded them", "I've emailed the
        form" -- the promised verb again, or a bare report of it done, fulfils the latest
        promise of the user's that it fits."""
        if not mine:
            return []
        for clause in clauses(turn.text):
            ctext = turn.text[clause.start:clause.end]
            if clause.question or not USER_DONE.search(ctext):
                continue
            words = word_stems(ctext)
            fits = [r for r in mine if str(r.attrs.get("verb") or "") in words]
            bare = len(ctext.split()) <= 3
            chosen = fits[-1:] or (mine[-1:] if bare else [])
            return [Change.status(r, Status.FULFILLED, turn, clause.start, clause.end,
                                  note="done by the user") for r in chosen]
        return []
