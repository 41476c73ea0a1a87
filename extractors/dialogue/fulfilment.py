"""Fulfilment evidence from tool calls, and a learned second opinion: does this later turn
carry out that commitment?

:func:`done_by_tool` is the rule for tool calls. The rules of
:mod:`extractors.dialogue.commitment_lifecycle` fulfil a commitment when a later turn
repeats its verb, its label or a code of it. Real conversations say it in other
words: a tool call whose name says nothing of the promise ("shard the Windows tests"
kept by an ``apply_patch`` to the CI workflow), the user's "integration suite: 14/14
green" for "I'll run the integration suite tonight".
This module describes a (commitment, later turn) pair by general features -- who
committed, whether the turn reports an act done, what they share, whether a tool call
succeeded, how far apart they are -- and a logistic model (:mod:`extractors.trained.linear`,
``fulfilment.json``) fitted on the blind set's train split, where every fulfilled
commitment names the turn that fulfilled it (``status_turn``), scores the pair. The
lifecycle fulfils a commitment the rules left pending when the score reaches
:data:`THRESHOLD` (chosen on the dev split).

The features read only the commitment's text, actor and subtype, and the turn: the same
function builds the training pairs (:mod:`extractors.dialogue.train_fulfilment`) and
scores at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from extractors.base import Change, TurnView
from extractors.dialogue.reports import AHEAD, RECEIVED, USER_DONE, reported_clauses
from extractors.dialogue.tool_evidence import (
    CODE_SPAN,
    argument_values,
    quotes_code_of,
    reads_only,
    schema_words,
    tool_failed,
    tool_pending,
)
from extractors.records import CommitmentSubtype, Record, Status
from extractors.text.clauses import clauses
from extractors.text.guard import rx
from extractors.text.lexicon import is_specific, stem, terms, ties, word_stems
from extractors.trained.linear import LinearModel, load

MODEL = "fulfilment"
#: The score from which a pending commitment counts as fulfilled, chosen on the blind
#: set's dev split: at 0.5 the model adds 7 right fulfilments for 1 wrong one (end status
#: 0.690 -> 0.699); at 0.4, 13 for 3. A wrong "fulfilled" misleads more than a missed one.
#: Refitted on 144 train conversations, 0.45 does better on both splits (dev end status
#: 0.749 -> 0.751, train 0.704 -> 0.708; 0.4: dev 0.746, train 0.711).
THRESHOLD = 0.45
#: A commitment with a horizon ("within 10 working days", "by Friday", "tomorrow").
HORIZON = rx(r"\b(?:within|by|before|until|over\s+the\s+next|in\s+(?:the\s+next\s+)?\d+|"
             r"tomorrow|tonight|next\s+\w+|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
             r"working\s+days?|business\s+days?|\d+\s*(?:days?|hours?|weeks?))\b",
             regex.IGNORECASE, linear=True)
CONDITION = rx(r"\b(?:if|once|when|as\s+soon\s+as|after)\b", regex.IGNORECASE, linear=True)
#: Terms that keep running once set up (label guide: a picked payment plan or suspension
#: stays active): "6 monthly payments of £39.36", "spread it over 3 months", "paused until
#: May". A price per month is not one: a plan switched at "£18 a month" is done.
RUNNING = rx(r"\b(?:instal+ments?|(?:payment|repayment|instal+ment)\s+plan|spread|"
             r"(?:monthly|weekly|fortnightly)\s+(?:payments|repayments|debits)|forbearance|"
             r"paus(?:e|ed|ing)|suspend(?:ed|ing)?|suspension)\b",
             regex.IGNORECASE, linear=True)
_MODAL_VERB = rx(r"(?i)\b(?:will|['’]ll|going\s+to|gonna|can|could|shall)\s+(?:also\s+|just\s+|"
                 r"now\s+|then\s+|personally\s+|first\s+)?(?P<verb>[a-z]+)", linear=True)
_NO_VERB = frozenset({"be", "have", "get", "not", "never", "always"})
#: Verbs of handing something over: a report of any of them ("attached", "uploaded it")
#: can keep a promise made with another ("I'll email the form").
DELIVERY_VERBS = frozenset(stem(w) for w in (
    "send", "email", "forward", "upload", "attach", "post", "mail", "text", "submit",
    "share", "provide", "message", "return", "pay", "file", "drop"))
#: A handing-over said as done, anywhere in a turn ("Sent it at 2am", "the letter is
#: attached", "6 photos attached", "just uploaded it", "here's the log").
DELIVERED = rx(r"(?<!\b(?:will|['’]ll|to|not|n['’]t|be)\s+)\b(?:sent|attached|uploaded|emailed|"
               r"forwarded|submitted|posted|mailed|texted|paid|filed|dropped\s+off)\b|"
               r"\bplease\s+find\b|\bhere(?:['’]s|\s+is|\s+are)\b",
               regex.IGNORECASE, linear=True)
#: The user says something reached them or shows now, in more ways than the rules' cue:
#: "it's here", "just came in", "I see it now", "found it in spam", "is in my Outlook".
ARRIVED = rx(r"(?<!(?:n['’]t|\bnot|\bnever)\s+(?:yet\s+)?)\b(?:arrived|came\s+(?:in|through)|"
             r"turned\s+up|showed\s+up|(?:it|they|s?he)(?:['’]?s|['’]re|\s+is|\s+are)\s+here|"
             r"(?:see|got|received|found)\s+(?:it|them|the)\b|is\s+in\s+my\b|"
             r"(?:texted|emailed|called|rang|replied|got\s+back)\b)",
             regex.IGNORECASE, linear=True)
#: A commitment about what reaches the user: "you'll get a text", "it should reach you",
#: "will show on your statement", "will contact you", "goes back to you".
TO_USER = rx(r"\byou(?:['’]ll|\s+will|\s+should|\s+would)\s+(?:\w+\s+)?(?:get|receive|see|"
             r"have|hear)\b|\b(?:arriv\w*|reach\w*|show\w*|deliver\w*|land\w*)\b|"
             r"\b(?:contact|call|email|e-mail|text|ring|message)\s+you\b|\bback\s+to\s+you\b|"
             r"\bwith\s+you\b", regex.IGNORECASE, linear=True)
#: Words of a colleague's description that name nobody ("our claims team" -> "claims").
_ACTOR_FILLER = frozenset(stem(w) for w in (
    "the", "our", "their", "his", "her", "from", "team", "who", "will", "of", "and", "a",
    "an", "at", "in", "s"))


def modal_verb(text: str) -> str:
    """The stem of the verb after the first modal of ``text`` ("I'll run ..." -> "run")."""
    m = _MODAL_VERB.search(text)
    word = m.group("verb").lower() if m else ""
    return stem(word) if word and word not in _NO_VERB else ""


@dataclass(frozen=True)
class TurnEvidence:
    """What a turn offers as evidence, computed once per turn."""

    role: str
    terms: frozenset[str]
    words: frozenset[str]
    #: Each clause that reports an act done (and does not look ahead): span and terms.
    reports: tuple[tuple[int, int, frozenset[str]], ...]
    tool_ok: bool
    tool_keys: frozenset[str]
    #: The stems of the tool's name and of its arguments' and result's keys.
    tool_schema: frozenset[str]
    raw_arguments: str
    received: bool
    user_done: bool
    question: bool
    #: A handing-over said as done (:data:`DELIVERED`), by a user or the agent.
    delivered: bool = False
    #: The user says something reached them (:data:`ARRIVED`).
    arrived: bool = False
    #: A tool result that reports an error: it carries out nothing.
    failed: bool = False

    @classmethod
    def of(cls, turn: TurnView) -> TurnEvidence:
        """The evidence of ``turn``; read once however many scorers ask for it (the
        learned fulfilment and the offers carried out both read a tool turn)."""
        return _evidence(turn.role, turn.text, turn.tool_name, turn.tool_arguments)

    @classmethod
    def read(cls, role: str, text: str, tool_name: str | None,
             tool_arguments: str | None) -> TurnEvidence:
        """The evidence of a turn's role, text and (for a tool result) call."""
        reports: tuple[tuple[int, int, frozenset[str]], ...] = ()
        if role in ("assistant", "user"):
            reports = tuple((c.start, c.end, frozenset(terms(text[c.start:c.end])))
                            for c in reported_clauses(text)
                            if not AHEAD.search(text[c.start:c.end]))
        stated = [text[c.start:c.end] for c in clauses(text) if not c.question] \
            if role in ("assistant", "user") else []
        # what the user says arrived, or says they did (the features read it of users only)
        said = stated if role == "user" else []
        received = any(RECEIVED.search(s) for s in said)
        user_done = any(USER_DONE.search(s) for s in said)
        arrived = any(ARRIVED.search(s) for s in said)
        delivered = any(DELIVERED.search(s) for s in stated)
        evidence = text
        tool_ok = failed = False
        if role == "tool":
            failed = tool_failed(text)
            tool_ok = not (failed or tool_pending(text) or reads_only(tool_name))
            evidence = f"{argument_values(tool_arguments)}\n{argument_values(text)}"
        return cls(role=role, terms=frozenset(terms(evidence)),
                   words=frozenset(word_stems(evidence)), reports=reports,
                   tool_ok=tool_ok, tool_keys=frozenset(word_stems(tool_name)),
                   tool_schema=schema_words(tool_name, tool_arguments, text)
                   if role == "tool" else frozenset(),
                   raw_arguments=tool_arguments or "", received=received,
                   user_done=user_done, question=text.rstrip().endswith("?"),
                   delivered=delivered, arrived=arrived, failed=failed)


@lru_cache(maxsize=16)
def _evidence(role: str, text: str, tool_name: str | None,
              tool_arguments: str | None) -> TurnEvidence:
    return TurnEvidence.read(role, text, tool_name, tool_arguments)


@lru_cache(maxsize=4096)
def _commitment_side(text: str) -> tuple[frozenset[str], str, bool, bool, tuple[str, ...]]:
    """What a commitment's text gives every pair, computed once per text: its terms, its
    verb, whether it has a horizon or a condition, the code it quotes."""
    return (frozenset(terms(text)), modal_verb(text), bool(HORIZON.search(text)),
            bool(CONDITION.search(text)), tuple(m.group(1) for m in CODE_SPAN.finditer(text)))


@lru_cache(maxsize=4096)
def _to_user(text: str) -> bool:
    return bool(TO_USER.search(text))


@lru_cache(maxsize=1024)
def _actor_words(actor: str) -> frozenset[str]:
    return frozenset(word_stems(actor)) - _ACTOR_FILLER


def pair_features(text: str, actor: str | None, subtype: str, turn: TurnEvidence,
                  distance: int) -> dict[str, float]:
    """The features of (a commitment's ``text``, ``actor`` and ``subtype``; a turn that
    comes ``distance`` turns after it)."""
    own, verb, horizon, condition, code = _commitment_side(text)
    shared = own & turn.terms
    specific = any(is_specific(t) for t in shared)
    in_report = max((len(own & r) for _, _, r in turn.reports), default=0)
    third = actor not in (None, "assistant", "user")
    received = turn.received and turn.role == "user" and actor != "user"
    f = {
        "actor_user": float(actor == "user"),
        "actor_third": float(third),
        "agreed": float(subtype != "promised"),
        "horizon": float(horizon),
        "condition": float(condition),
        "role_tool": float(turn.role == "tool"),
        "role_user": float(turn.role == "user"),
        "tool_ok": float(turn.tool_ok),
        "tool_ok_shared": float(turn.tool_ok) * min(len(shared), 3) / 3,
        "tool_ok_verb": float(turn.tool_ok and bool(verb) and verb in turn.tool_keys),
        "tool_ok_code": float(turn.tool_ok and any(c in turn.raw_arguments for c in code)),
        "tool_ok_own": float(turn.tool_ok and actor in (None, "assistant")),
        # what kind of act the call was, in the promise's words ("set_spend_cap" for "a
        # spend cap on your line", {"recall": ...} for "I can place a recall on it")
        "tool_ok_schema": float(turn.tool_ok) * min(len(own & turn.tool_schema), 2) / 2,
        "reports": float(bool(turn.reports)),
        "report_shared": min(in_report, 3) / 3,
        "report_verb": float(bool(turn.reports) and bool(verb) and verb in turn.words),
        "shared": min(len(shared), 5) / 5,
        "shared_share": len(shared) / len(own) if own else 0.0,
        "specific": float(specific),
        # the user receiving something keeps the agent's promise, not the user's own
        "received": float(received),
        "received_shared": float(received) * min(len(shared), 3) / 3,
        "user_done_own": float(turn.user_done and turn.role == "user" and actor == "user"),
        "question": float(turn.question),
        "near": 1.0 / max(1, distance),
        # said in other words: the promise's own verb in a person's later turn ("ok added
        # the account" for "I'll add the account tonight"), a handing-over reported by
        # the side that promised it, what the user said would reach them arriving, and a
        # colleague named at work ("Email from Keller received")
        "verb_in_turn": float(turn.role in ("user", "assistant") and bool(verb)
                              and verb in turn.words),
        "delivered_own": float(turn.delivered and verb in DELIVERY_VERBS and (
            (actor == "user") == (turn.role == "user"))),
        "arrived_to_user": float(turn.arrived and actor != "user" and _to_user(text)),
        # the user handing something over after promising anything ("All uploaded now"
        # after "I'll dig the invoice out tonight", "Here's the photo" after "I'll fish
        # it out"): what a user promises in a support chat is mostly to find and send
        "user_delivered": float(turn.delivered and turn.role == "user" and actor == "user"),
        "actor_named": float(third and bool(_actor_words(actor or "") & turn.words)),
    }
    # the side that committed speaking again: the user for the user's own promise, the
    # agent for the agent's (conjunctions let the model weigh each pairing on its own)
    same_side = (actor == "user") == (turn.role == "user") and turn.role != "tool"
    f["same_side_verb"] = float(same_side) * f["verb_in_turn"]
    f["same_side_report"] = float(same_side) * f["report_shared"]
    f["user_own_verb"] = f["actor_user"] * f["role_user"] * f["verb_in_turn"]
    return f


def shipped() -> LinearModel | None:
    """The fulfilment model shipped with the package, or None without one."""
    return load(MODEL)


def learned_fulfilment(turn: TurnView, pending: list[Record],
                       model: LinearModel | None) -> list[Change]:
    """Fulfil each pending commitment the model scores at least :data:`THRESHOLD` for
    ``turn``; the evidence is the report clause that shares most with it, else the turn."""
    if model is None or not pending or turn.role == "system":
        return []
    evidence = TurnEvidence.of(turn)
    if evidence.failed:
        return []
    out = []
    for r in pending:
        actor = r.attrs.get("actor")
        features = pair_features(r.text, actor if isinstance(actor, str) else None,
                                 str(r.subtype), evidence, turn.number - r.turn)
        p = model.score(features)
        if p < THRESHOLD:
            continue
        own = _commitment_side(r.text)[0]
        best = max(evidence.reports, key=lambda rep: (len(own & rep[2]), -rep[0]),
                   default=(0, len(turn.text), frozenset()))
        out.append(Change.status(r, Status.FULFILLED, turn, best[0], best[1],
                                 note=f"fulfilment model {p:.2f}"))
    return out


def offers_carried_out(turn: TurnView, offers: list[Record], model: LinearModel | None,
                       threshold: float) -> list[Change]:
    """An offer nobody was seen to accept that a successful tool call then carries out
    ("I can place a recall on it", then ``place_recall`` returns ``{"recall": ...}``):
    the call is the acceptance acted on, so the offer ends ``agreed`` and ``fulfilled``
    (label guide: a picked option a tool result shows carried out), and the other options
    of its list are superseded. Scored by the same model as any fulfilment, from
    ``threshold``; of the offers one turn made, only the best scored is carried out. Terms
    that keep running once set up (a payment plan, a suspension) end ``agreed`` and stay
    ``active``."""
    if model is None or not offers or turn.role != "tool":
        return []
    evidence = TurnEvidence.of(turn)
    if not evidence.tool_ok:
        return []
    scored = [(model.score(pair_features(r.text, "assistant", str(r.subtype), evidence,
                                         turn.number - r.turn)), r) for r in offers]
    out = []
    for made in sorted({r.turn for r in offers}):
        # of the offers one turn made, the call carries out one: the best scored
        p, best = max(((p, r) for p, r in scored if r.turn == made),
                      key=lambda pr: (pr[0], -pr[1].start))
        if p < threshold:
            continue
        out.append(Change(record_id=best.id, field="subtype", new=CommitmentSubtype.AGREED,
                          note=f"carried out by {turn.tool_name or 'a tool'}",
                          attrs={"accepted_turn": turn.number}))
        if not RUNNING.search(best.text):  # a plan the call sets up keeps running: active
            out.append(Change.status(best, Status.FULFILLED, turn, 0, len(turn.text),
                                     note=f"fulfilment model {p:.2f}"))
        if isinstance(best.attrs.get("option"), int):  # the other options of its list
            out += [Change.status(r, Status.SUPERSEDED, turn, 0, len(turn.text),
                                  note="another option carried out")
                    for _, r in scored if r.turn == made and r is not best
                    and isinstance(r.attrs.get("option"), int)]
    return out


def done_by_tool(turn: TurnView, pending: list[Record]) -> list[Change]:
    """A successful action tool fulfils what its name, its arguments or its result name:
    ``cancel_hold`` for "I'll cancel the hold", ``change_booking(train="FR 9519")`` for
    the agreed move to FR 9519. A tool that only reads (``get_order``) or whose result
    waits for someone (``"status": "pending_approval"``) fulfils nothing."""
    if tool_failed(turn.text) or tool_pending(turn.text) or reads_only(turn.tool_name):
        return []
    keys = word_stems(turn.tool_name)
    # what was asked for, and the codes and times that came back ({"time": "16:00"}):
    # a short number of a result ties nothing ("30" in "2026-11-30" is no "day 30")
    done = terms(argument_values(turn.tool_arguments)) | {
        t for t in terms(argument_values(turn.text)) if is_specific(t) and len(t) >= 4}
    out = []
    for r in pending:
        if r.attrs.get("actor") not in (None, "assistant"):
            continue  # the agent's tool does not do what a colleague promised
        verb = r.attrs.get("verb", "")
        named = keys & (word_stems(r.label) | {verb})
        if named or ties(terms(r.text), done, extra=int(bool(verb) and verb in keys)) \
                or quotes_code_of(r.text, turn.tool_arguments):
            out.append(Change.status(r, Status.FULFILLED, turn, 0, len(turn.text),
                                     note=f"tool {turn.tool_name}"))
    return out
