"""User constraints: requirements, prohibitions and preferences stated in user turns.

A constraint is a standing condition on what the agent may do or deliver ("a refund, not
store credit", "don't touch migrations/", "reply in French", "no calls before 9am",
"I'm not paying a restocking fee on top of that", "I need it by Friday"). Requests for a
task ("check my order") and the user's own to-dos ("I need to check with my partner") are
not constraints. One candidate per clause; the span is the clause verbatim.

The lifecycle resolver marks a constraint ``satisfied`` when a later assistant clause meets
it (a concession on the same thing for a prohibition of paying, a grant or promise of the
required thing -- never an undo of it, "I'm cancelling the refund"), and ``withdrawn`` when
the user drops it ("never mind the French"). Clauses come from
:mod:`extractors.text.clauses`, their features from :mod:`extractors.text.clause_features`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, Change, Needs, TurnView
from extractors.dialogue.commitments import CARRIED_LINE
from extractors.dialogue.constraint_patterns import ASKED_INSTEAD, PATTERNS
from extractors.dialogue.reports import reported_clauses
from extractors.dialogue.tool_evidence import argument_values, reads_only, tool_failed
from extractors.records import CommitmentSubtype, ConstraintSubtype, Kind, Record, Status
from extractors.text import guard
from extractors.text.clause_features import WORD, Features, features, label_tokens
from extractors.text.clauses import INTRO, Clause, clauses, cue_sentences
from extractors.text.guard import rx
from extractors.text.lexicon import (
    COORDINATORS,
    FIRST_PERSON,
    function_words,
    is_specific,
    stem,
    terms,
    word_stems,
)
from extractors.text.nlp import doc_of

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "constraints.rules.v1"
RESOLVER = "constraints.lifecycle.v1"

_I = regex.IGNORECASE
PATH = rx(r"(?<![\w/])(?:\.{0,2}/)?[\w.-]+/[\w./-]*|\b[\w-]+\.(?:py|js|ts|md|toml|"
                     r"json|ya?ml|sql|cfg|ini|txt|rs|go)\b")
#: Verbs a user refuses with ("I'm not paying", "I won't accept", "I don't want").
REFUSAL_VERBS = frozenset(stem(w) for w in "pay accept want take agree sign".split())
#: Verbs a user requires with, when they have a noun object ("I need a refund").
NEED_VERBS = frozenset(stem(w) for w in "need want require expect".split())
#: "I won't be at home" tells where the user is, not what the agent may do.
_STATE_VERBS = frozenset(stem(w) for w in "be have know need".split())
#: The first person, which the feature-reading rules (i_refuse, i_wont, i_need) want.
NOT_A_THING = frozenset("problem problems worries worry thanks thank idea need way rush "
                        "hurry i i'm it that this you we they there one thats that's its "
                        "it's im keep just not need sorry ok okay big".split())


_VAGUE = frozenset(stem(w) for w in "help information info assistance thing something "
                   "anything".split())
#: What a refusal names when it refuses nothing in particular.
_NOTHING_NAMED = frozenset(stem(w) for w in "problem problems trouble repeat risk this that "
                           "it".split())


#: A refusal in the past said with "did" (which the parse reads as no past tense).
_DID_NOT = rx(r"\b(?:I|we)\s+(?:did\s+not|didn['’]?t)\b", _I, linear=True)


def _vague(label: str) -> bool:
    return stem(label.split()[-1].lower()) in _NOTHING_NAMED


def _label(text: str, rest: str | None) -> str | None:
    path = PATH.search(rest or text)
    if path:
        return path.group()
    words = [w.group() for w in WORD.finditer(rest or text)]
    return label_tokens(words)


def _tail_label(words: list[str]) -> str | None:
    """Return the last noun-ish words of a phrase ("I want a refund" -> "refund")."""
    tail: list[str] = []
    for w in reversed(words[-6:]):
        if not guard.match(r"\w", w) or w.lower() in _STOPWORDS:
            break
        tail.insert(0, w.lower())
    return " ".join(tail[-3:]) or None


_STOPWORDS = function_words("a an the this that my your our some any i you we it is be want "
                            "like need get prefer would rather please just")


def _deadline(text: str) -> str | None:
    m = guard.search(r"\b(?:by|before|until|no\s+later\s+than)\s+\w+(?:\s+\d{1,2}(?:am|pm)?)?",
                     text, _I)
    return m.group() if m else None


#: A polite request opener: "can you please reply in French" instructs. Discourse words
#: before it ("Fine,", "And please") are :data:`extractors.text.clauses.INTRO`, which clause
#: spans drop too, but not from every clause a sentence starts with.
_POLITE = rx(r"^(?:(?:can|could|would|will)\s+you\s+(?:(?:please|pls|plz)\s+)?)", _I)


#: What opens a clause before what it says: a list's number or letter ("1) nothing before
#: 9:30"), a filler ("like nothing before 5pm"), an answer before a "but" ("Yes please but
#: NOT a monday").
_OPENER = rx(r"^(?:\(?(?:\d{1,2}|[a-h])[.)]\s+|[-•*]\s+)?(?:(?:like|(?:yes\s+)?(?:please|pls)\s+"
             r"(?:but|and))\b,?\s*)?", _I, linear=True)


def core(text: str) -> str:
    """The clause without its opening number, discourse words and polite "can you"."""
    return _POLITE.sub("", INTRO.sub("", _OPENER.sub("", text, count=1), count=1), count=1)


def core_of_question(text: str) -> str:
    """A question clause without its list number or filler (its "can you" kept)."""
    return INTRO.sub("", _OPENER.sub("", text, count=1), count=1)


def polite_imperative(text: str) -> bool:
    """True if a question clause is an instruction ("can you please reply in French")."""
    rest = core(text)
    return rest != text and any(p.pattern.search(rest) for p in PATTERNS
                                if p.name in ("dont_imperative", "manner_imperative"))


#: What makes a want say how the task is done, not what it is: a time, a way, a thing
#: ruled out or the only one wanted ("I need it by Thursday", "I want that in writing",
#: "I want their pad thai not some other restaurant").
_HOW = rx(r"\b(?:not|no|only|just|without|with|in\s+writing|by|before|after|until|from|"
          r"today|tomorrow|tonight|this\s+week|on\s+(?:the|my|them|it)|as|per|each|every)\b|\d",
          _I, linear=True)
#: The want itself and at most this many words: "I want a refund", "I need this sorted",
#: "I want the money back" -- the request the conversation is about, not a rule for it.
_BARE_WANT = rx(r"\b(?:need|want|require|expect|like)s?\s+(?:\S+\s+){0,3}\S+\W*$", _I,
                linear=True)


def _says_how(text: str) -> bool:
    """Whether a want is a rule for the task rather than the bare request for it."""
    return bool(_HOW.search(text)) or not _BARE_WANT.search(text)


def _classify(text: str, f: Features) -> tuple[str, str, float, str | None, dict] | None:
    """Return (subtype, rule, score, label, attrs) for one user clause, or None."""
    if WITHDRAW.search(text):
        return None  # dropping a constraint is not a new one
    text = core(text)
    for p in PATTERNS:
        m = p.pattern.search(text)
        if m is None:
            continue
        groups = m.groupdict()
        if p.name == "x_not_y":
            x = _tail_label([w.group() for w in WORD.finditer(groups["x"])])
            if not x or guard.search(r"\b(?:I|you|it)\b", groups["y"]):
                continue
            y = label_tokens([w.group() for w in WORD.finditer(groups["y"])])
            return p.subtype, p.name, p.score, x, {"instead_of": y}
        if p.name == "no_x" and groups["x"].lower() in NOT_A_THING:
            continue
        if p.name == "no_x":
            label = _label(text, groups["x"] + groups["rest"])
        elif p.name == "manner_imperative" and groups.get("lang"):
            label = groups["lang"]
        else:
            label = _label(text, groups.get("rest"))
        return p.subtype, p.name, p.score, label, {}
    # "I'm not paying postage" -- not what the user did not want then ("I did not want
    # renew", "we haven't accepted it yet") nor a wish about nothing in particular ("I
    # don't want problem with them", "I do not want a repeat of this")
    if f.person == 1 and f.negated and f.verb in REFUSAL_VERBS and f.label \
            and not f.past and not f.perfect and not _DID_NOT.search(text) \
            and not _vague(f.label):
        return ConstraintSubtype.PROHIBITION, "i_refuse", 0.8, f.label, {}
    if (f.person == 1 and f.negated and f.modal in ("will", "would") and f.label
            and f.verb not in _STATE_VERBS):
        return ConstraintSubtype.PROHIBITION, "i_wont", 0.7, f.label, {}  # "I won't fly via London"
    wants = f.verb in NEED_VERBS and not f.modal or f.verb == stem("like") and f.modal == "would"
    if f.person == 1 and not f.negated and wants:
        needs_to = guard.search(r"\b(?:need|want|like)s?\s+to\b", text, _I)
        you_to = guard.search(r"\b(?:need|want|require)s?\s+(?:you|it|them|this)\b", text, _I)
        deadline = _deadline(text)
        if needs_to and not you_to:
            return None  # the user's own to-do
        if deadline and (you_to or not f.label):
            return ConstraintSubtype.REQUIREMENT, "need_by", 0.75, deadline, {"deadline": deadline}
        if f.label and not needs_to and stem(f.label.split()[-1]) not in _VAGUE \
                and _says_how(text):
            attrs = {"deadline": deadline} if deadline else {}
            return ConstraintSubtype.REQUIREMENT, "i_need", 0.55, f.label, attrs
    return None


def analyze_constraints(turn: TurnView, doc: Doc | None) -> list[Candidate]:
    """Return the constraint candidates of one user turn."""
    text = turn.text
    if turn.role != "user" or not text.strip():
        return []
    doc = doc_of(doc, text)
    skip = [m.span() for m in CARRIED_LINE.finditer(text)]
    out: list[Candidate] = []
    for clause in clauses(text, doc, skip):
        ctext = text[clause.start:clause.end]
        # asked with or without its "?" ("can they text first tho, not just show up")
        asked = ASKED_INSTEAD.match(core_of_question(ctext))
        if asked is not None:
            out.append(Candidate.of(text, clause.start, clause.end, kind=Kind.CONSTRAINT,
                                    subtype=ConstraintSubtype.PREFERENCE, score=0.6,
                                    extractor=NAME, why="rule 'asked_instead'",
                                    label=_label(text, asked["rest"]),
                                    attrs={"rule": "asked_instead"}))
            continue
        if clause.question and not guard.match(
                r"(?:(?:please|pls|plz)\s+)?(?:don['’]?t|do\s+not)\b", ctext, _I) \
                and not polite_imperative(ctext):
            continue
        found = _classify(ctext, features(text, clause, doc))
        spans = [(clause.start, clause.end, found)] if found is not None else [
            (clause.start + a, clause.start + b, f) for a, b, f in _segments(ctext)]
        for start, end, hit in spans:
            subtype, rule, score, label, attrs = hit
            out.append(Candidate.of(text, start, end, kind=Kind.CONSTRAINT,
                                    subtype=subtype, score=score, extractor=NAME,
                                    why=f"rule '{rule}'", label=label,
                                    attrs={"rule": rule, **attrs}))
    return out


#: Where a clause holds a rule beside its reason or its context: "Same rule as the
#: adjuster though, nobody before 10", "Repo is ~/src/x, branch off main as chore/y".
_SEGMENT = rx(r"[^,;]+", linear=True)


#: The patterns specific enough to read a part of a clause on its own (a bare "not X" or
#: "no X" there is mostly a remark: "no big deal", "its not my fault").
_SEGMENT_RULES = frozenset({"dont_imperative", "nothing_may", "nothing_touched", "nothing_when",
                            "nothing_that", "off_limits", "branch_base", "leave_alone",
                            "under_no_circumstances", "unavailable", "shouted_not",
                            "better_for_me", "must_stay", "stays", "make_sure", "prefer"})


def _segments(ctext: str) -> list[tuple[int, int, tuple[str, str, float, str | None, dict]]]:
    """The comma-separated parts of a clause that state a rule by a pattern of their own
    (read only when the whole clause states none)."""
    parts = [(m.start(), m.end()) for m in _SEGMENT.finditer(ctext)]
    if len(parts) < 2:
        return []
    out = []
    for a, b in parts:
        seg = ctext[a:b]
        a += len(seg) - len(seg.lstrip())
        b -= len(seg) - len(seg.rstrip())
        if b - a < 4:
            continue
        found = _classify(ctext[a:b], Features())
        if found is not None and found[1] in _SEGMENT_RULES:
            out.append((a, b, found))
    return out


class ConstraintRules:
    """Find what the user requires, forbids or prefers."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = True

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return one candidate per constraining clause of a user turn."""
        return analyze_constraints(turn, doc)

    def needs(self, turn: TurnView) -> Needs:
        """The parse of each user sentence with a first person (the rules that read
        features want one) or a coordinator (the parse may cut the clause there)."""
        if turn.role != "user":
            return Needs()
        return Needs(parse=cue_sentences(turn.text, FIRST_PERSON | COORDINATORS))


# -- lifecycle -------------------------------------------------------------------------

#: What makes a constraint a standing rule rather than one to meet once: contact
#: channels, "only", "never", "again", "until", "from now on".
STANDING = rx(r"\b(?:only|never|again|anywhere|ever|always|until|till|any\s?more|"
              r"from\s+now\s+on|going\s+forward|e-?mails?|phone|calls?|ring|texts?|sms|"
              r"whatsapp|teams|post|letters?|contact)\b", _I, linear=True)
WITHDRAW = rx(
    r"\b(?:never\s*mind|forget\s+(?:about\s+)?|scratch\s+that|"
    r"(?:ignore|scrap|scratch|disregard|forget)\s+what\s+I\s+said|"
    r"no\s+longer\s+(?:need|matters?)|doesn['’]?t\s+matter\s+any\s?more|"
    r"(?:is|are)\s+(?:fine|ok(?:ay)?)\s+after\s+all|you\s+can\s+(?:touch|use|change|edit)|"
    r"drop\s+the)\b", _I)
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

