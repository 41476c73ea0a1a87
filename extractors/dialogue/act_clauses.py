"""The act model's second opinion: commitments and constraints where the rules are silent.

The trained sentence classifier (:mod:`extractors.trained.acts`) scores every sentence of
a user or assistant turn. A sentence it is confident about becomes a candidate of its
own -- an offer, a promise, a grant or a refusal of the agent; a promise or a constraint
of the user -- with a score below every rule's, so that where a rule found a clause in
the same place, the rule's span and subtype win (:mod:`extractors.merge`): the model adds
recall where the rules have nothing, it never overrides them.

Not candidates, whatever the score: questions (an offer asked as a question is a
question), sentences in quotation marks or pasted block lines, and the narration of a
message that calls tools ("I'm opening an incident now", "I'll pull up your account" +
the call; a grant there is the call's own act). Only what such a message promises for
later ("If you paste the output, I'll go through it", "the password will be texted to you
at 08:00 on Monday") is read there: a promise like any other. (Its offers are left to the
rules: read by the model, "the courier can do Thursday or Monday" beside a release call in
the espresso conversation became an agreement line the block does not need.)
"""

from __future__ import annotations

from typing import ClassVar

import regex

from extractors.base import Candidate, Needs, TurnView
from extractors.dialogue.commitment_rules import IF_CLAUSE
from extractors.dialogue.commitment_shapes import THIRD_PARTY
from extractors.dialogue.commitments import TRAILING_IF, hypothetical
from extractors.dialogue.constraints import STATED
from extractors.dialogue.fulfilment import modal_verb
from extractors.records import Kind
from extractors.text.clauses import QUOTED
from extractors.text.guard import rx
from extractors.text.sentences import sentences, span_at
from extractors.trained.acts import ActScorer

NAME = "acts.textcat.v1"
#: Scores from which a sentence becomes a candidate, per label (chosen on the dev split
#: of ``commitments_blind.jsonl``; see the README's figures).
THRESHOLDS = {"OFFER": 0.7, "PROMISE": 0.3, "GRANT": 0.5, "DECLINE": 0.3, "CONSTRAINT": 0.5}
#: A rule's constraint whose sentence the model scores below this is not pinned: "We
#: need a `currency` column" states the task, not how it must be done (chosen on dev).
VETO_CONSTRAINT = 0.03
#: A user's own promise needs more: "I'll have 0 bags" states a need, not an act.
USER_PROMISE = 0.7
#: The agent's acts and the commitment subtype each gives.
AGENT_ACTS = {"OFFER": "offered", "PROMISE": "promised", "GRANT": "granted",
              "DECLINE": "declined"}
#: Below every rule's confidence: on the same span, a rule's candidate wins.
SCORE = 0.5
_NEGATION = rx(r"(?i)\b(?:don't|do\s+not|never|no|not|nothing|without|stop|avoid)\b",
               linear=True)
_PREFERENCE = rx(r"(?i)\b(?:please|rather|prefer(?:ably)?|ideally|if\s+possible)\b", linear=True)
#: A sentence of a message that calls tools and says what the call does now ("Let me run
#: the tests", "I'll check the logs first", "Starting the loop:").
NARRATION = rx(r"\b(?:now|let\s+me|let['’]s|first|next|then|going\s+to|about\s+to|before|"
               r"(?:I['’]m|I\s+am)\s+\w+ing)\b|^\W*\w+ing\b|:\s*$",
               regex.IGNORECASE, linear=True)
#: What a promise made beside a tool call waits for: a condition ("If you paste the output,
#: I'll go through it") or a later time ("texted to you at 08:00 on Monday").
LATER = rx(r"\b(?:if|once|when|as\s+soon\s+as|after|tomorrow|tonight|(?:mon|tues|wednes|thurs|"
           r"fri|satur|sun)day)\b", regex.IGNORECASE, linear=True)
_QUOTED = rx(r"^[\"“'‘]|[\"”'’]$", linear=True)
def _hypothetical_sentence(sentence: str) -> bool:
    """A sentence under someone else's approval or a counterfactual ("If the manager
    approves, I'll refund €5,000"): what the rules would not pin, the model must not."""
    m = IF_CLAUSE.match(sentence) or TRAILING_IF.search(sentence)
    return m is not None and hypothetical(m.group("cond"))


#: What the third-party shape also takes for a name and is none: the agent's own side or
#: the user ("We'll review it", "You'll only hear from us"), a sentence's opening
#: subordinate clause ("While I'm in there I'll add a case").
_NOT_THIRD = rx(r"^(?:You|We|While|If|When|Once|After|Before|As|Since)\b|\bI\b", linear=True)


def _actor(sentence: str, label: str) -> str:
    """Who an agent's sentence binds: the colleague, team or role it promises for ("The
    courier will ask for you at reception", "Dana from billing will call you"), as the
    rules record it, else the agent."""
    who = THIRD_PARTY.match(sentence.lstrip()) if label == "PROMISE" else None
    if who is None or _NOT_THIRD.search(who.group("who")):
        return "assistant"
    return who.group("who")


def _later_promise(sentence: str) -> bool:
    """Whether a sentence of a message that calls tools may promise something: it waits
    for a condition or a later time and does not narrate the call ("Let me run the
    tests", "I'll pull up your account")."""
    return bool(LATER.search(sentence)) and not NARRATION.search(sentence)


class ActClauses:
    """Commitment and constraint candidates from the sentence act model."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def __init__(self, scorer: ActScorer | None = None) -> None:
        self._scorer = scorer if scorer is not None else ActScorer.shipped()

    def needs(self, turn: TurnView) -> Needs:
        """Nothing of the spaCy pass: the model reads the raw sentence."""
        return Needs()

    def extract(self, turn: TurnView, doc: object = None) -> list[Candidate]:
        """Return a candidate per sentence the model is confident about."""
        if self._scorer is None or turn.role not in ("user", "assistant"):
            return []
        text = turn.text
        spans = [(s, e) for s, e in sentences(text)
                 if not text[s:e].rstrip().endswith("?") and not _QUOTED.search(text[s:e])
                 and not text[s:e].lstrip().startswith(("===", ">"))
                 and not _hypothetical_sentence(text[s:e])
                 and (not turn.calls_tools or _later_promise(text[s:e]))]
        if not spans:
            return []
        out = []
        # quoted words are someone else's ("Our terms say 'we will refund'"): the model
        # reads the sentence with them masked
        scored = self._scorer.scores([QUOTED.sub(" quote ", text[s:e]) for s, e in spans],
                                     turn.role)
        for (start, end), scores in zip(spans, scored, strict=True):
            found = self._candidate(turn, start, end, scores)
            if found is not None:
                out.append(found)
        return out

    def review(self, turn: TurnView, candidates: list[Candidate]) -> list[Candidate]:
        """Drop the rules' constraints whose sentence the model scores as no constraint
        at all (below :data:`VETO_CONSTRAINT`): the rules decide span and subtype, the
        model vetoes only what it is sure of. Commitments are not vetoed (on dev, a veto
        there costs as many right commitments as wrong ones), nor the rules whose shape
        says it is a rule (:data:`extractors.dialogue.constraints.STATED`)."""
        if self._scorer is None or turn.role != "user":
            return candidates
        bounds = sentences(turn.text)
        where = {id(c): span_at(bounds, c.start) for c in candidates
                 if c.kind is Kind.CONSTRAINT and c.extractor != NAME
                 and c.attrs.get("rule") not in STATED}
        spans = sorted({(s, e) for s, e in where.values() if e > s})
        if not spans:
            return candidates
        scored = self._scorer.scores([QUOTED.sub(" quote ", turn.text[s:e]) for s, e in spans],
                                     turn.role)
        low = {span for span, scores in zip(spans, scored, strict=True)
               if scores["CONSTRAINT"] < VETO_CONSTRAINT}
        return [c for c in candidates if where.get(id(c)) not in low]

    def _candidate(self, turn: TurnView, start: int, end: int,
                   scores: dict[str, float]) -> Candidate | None:
        sentence = turn.text[start:end]
        if turn.role == "assistant":
            label = max(AGENT_ACTS, key=lambda k: (scores[k], k))
            if scores[label] < THRESHOLDS[label]:
                return None
            if turn.calls_tools and label != "PROMISE":
                return None  # a grant or an offer beside a call is the call's own act
            return Candidate(kind=Kind.COMMITMENT, subtype=AGENT_ACTS[label], start=start,
                             end=end, text=sentence, score=SCORE, extractor=NAME,
                             why=f"act model: {label} {scores[label]:.2f}",
                             attrs={"actor": _actor(sentence, label), "rule": "act_model",
                                    "verb": modal_verb(sentence),
                                    "polarity": "negative" if label == "DECLINE"
                                    else "positive"})
        if scores["CONSTRAINT"] >= THRESHOLDS["CONSTRAINT"] \
                and scores["CONSTRAINT"] >= scores["PROMISE"]:
            negative = _NEGATION.search(sentence) is not None
            subtype = "preference" if _PREFERENCE.search(sentence) else \
                "prohibition" if negative else "requirement"
            return Candidate(kind=Kind.CONSTRAINT, subtype=subtype,
                             start=start, end=end, text=sentence, score=SCORE, extractor=NAME,
                             why=f"act model: CONSTRAINT {scores['CONSTRAINT']:.2f}",
                             attrs={"rule": "act_model",
                                    "polarity": "negative" if negative else "positive"})
        if scores["PROMISE"] >= USER_PROMISE:
            return Candidate(kind=Kind.COMMITMENT, subtype="promised", start=start, end=end,
                             text=sentence, score=SCORE, extractor=NAME,
                             why=f"act model: PROMISE {scores['PROMISE']:.2f}",
                             attrs={"actor": "user", "rule": "act_model",
                                    "verb": modal_verb(sentence),
                                    "polarity": "positive"})
        return None
