"""User constraints: requirements, prohibitions and preferences stated in user turns.

A constraint is a standing condition on what the agent may do or deliver ("a refund, not
store credit", "don't touch migrations/", "reply in French", "no calls before 9am",
"I'm not paying a restocking fee on top of that", "I need it by Friday"). Requests for a
task ("check my order") and the user's own to-dos ("I need to check with my partner") are
not constraints. One candidate per clause; the span is the clause verbatim.

Their lifecycle (``satisfied``, ``withdrawn``) is :mod:`extractors.dialogue.constraint_lifecycle`.
Clauses come from :mod:`extractors.text.clauses`, their features from
:mod:`extractors.text.clause_features`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, Needs, TurnView
from extractors.dialogue.commitments import CARRIED_LINE
from extractors.dialogue.constraint_patterns import ASKED_INSTEAD, PATTERNS, REMARK, WITHDRAW
from extractors.dialogue.question_cues import AUX, WH
from extractors.dialogue.stated_rules import stated_rules
from extractors.records import ConstraintSubtype, Kind
from extractors.text import guard
from extractors.text.clause_features import WORD, Features, features, label_tokens
from extractors.text.clauses import INTRO, clauses, cue_sentences
from extractors.text.guard import rx
from extractors.text.lexicon import (
    COORDINATORS,
    FIRST_PERSON,
    function_words,
    stem,
)
from extractors.text.nlp import doc_of

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "constraints.rules.v1"
RESOLVER = "constraints.lifecycle.v1"
#: The rules whose shape says by itself that the clause is a rule of the task: an item the
#: user headed as rules, a setting written as one (``TZ=UTC``). The act model's veto
#: (:mod:`extractors.dialogue.act_clauses`) does not apply to them: on train and dev all
#: 69 items under a rules heading and 24 of the 25 settings are labelled, and the model
#: scored some of them as no rule at all ("run them with TZ=UTC, otherwise ... flake").
STATED = frozenset({"listed", "env_setting"})

_I = regex.IGNORECASE
PATH = rx(r"(?<![\w/])(?:\.{0,2}/)?[\w.-]+/[\w./-]*|\b[\w-]+\.(?:py|js|ts|md|toml|"
                     r"json|ya?ml|sql|cfg|ini|txt|rs|go)\b")
#: Verbs a user refuses with ("I'm not paying", "I won't accept", "I don't want", "I do
#: not wish to").
REFUSAL_VERBS = frozenset(stem(w) for w in "pay accept want wish take agree sign".split())
#: Verbs a user requires with, when they have a noun object ("I need a refund").
NEED_VERBS = frozenset(stem(w) for w in "need want require expect".split())
#: "I won't be at home" tells where the user is, not what the agent may do.
_STATE_VERBS = frozenset(stem(w) for w in "be have know need".split())
#: The first person, which the feature-reading rules (i_refuse, i_wont, i_need) want.
NOT_A_THING = frozenset("problem problems worries worry thanks thank idea need way rush "
                        "hurry i i'm it that this you we they there one thats that's its "
                        "it's im keep just not need sorry ok okay big".split())


#: What a want names when it wants nothing in particular.
_VAGUE = frozenset(stem(w) for w in "help information info assistance thing something "
                   "anything".split())
#: What a refusal names when it refuses nothing in particular.
_NOTHING_NAMED = frozenset(stem(w) for w in "problem problems trouble repeat risk this that "
                           "it".split())


#: A refusal in the past said with "did" (which the parse reads as no past tense). Read
#: here, not in the clause features: a past "did" there made the agent's emphatic "We did
#: send reminders" a grant.
_DID_NOT = rx(r"\b(?:I|we)\s+(?:did\s+not|didn['’]?t)\b", _I, linear=True)


def _head(label: str) -> str:
    """The stem of a label's last word, the thing it names ("restocking fee" -> fee)."""
    return stem(label.split()[-1])


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


#: What a rule is scoped to, before a comma: "For tests, ./gradlew test needs Docker
#: running", "On Fridays, nothing after 3" (what follows still has a few words of its own).
_SCOPE = rx(r"^(?:for|in|on|during|with)\s+(?:the\s+|my\s+|our\s+)?[\w./`-]+(?:\s+[\w./`-]+)?,"
            r"\s+(?=(?:\S+\s+){2,}\S)", _I, linear=True)


#: A figure put right ("48213 not 48123", "not 3031"): a correction, not a rule.
_FIGURE = r"[$€£]?\s?\d[\d,.:]*\s?(?:[$€£]|eur|gbp|usd|chf)?"
FIGURE_CORRECTION = rx(rf"^(?:not\s+{_FIGURE}|{_FIGURE},?\s+not\s+{_FIGURE})\W*$", _I,
                       linear=True)


#: A clause that asks, wherever it stands in its sentence (or states the condition of
#: what is asked: "and if he must order some part, how long does it take?"): the
#: question rules' own openers (:mod:`extractors.dialogue.question_cues`).
ASKING = rx(rf"^\W*(?:(?:and|but|so|or|also|oh|ok(?:ay)?|then)\W+)*(?:{AUX}|{WH}|if|whether|"
            r"any|anything)\b", _I, linear=True)


def core_of_question(text: str) -> str:
    """A clause without its list number, filler, scope or discourse words (its "can you"
    kept)."""
    return INTRO.sub("", _SCOPE.sub("", _OPENER.sub("", text, count=1), count=1), count=1)


def core(text: str) -> str:
    """The clause without its opening number, discourse words and polite "can you"."""
    return _POLITE.sub("", core_of_question(text), count=1)


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
#: A want and what it is for: "I need the VPN for the demo environment", "I require an
#: official transcript for a job offer" -- the request and its reason, no rule (1 of 12
#: such clauses on train and dev is labelled, and it says how: "with the data of my
#: company").
_WANT_FOR = rx(r"\b(?:need|want|require|expect)s?\s+(?:\S+\s+){0,4}?for\s+(?:my|the|a|an|"
               r"our|his|her|their|work|school)\b", _I, linear=True)


def _says_how(text: str) -> bool:
    """Whether a want is a rule for the task rather than the bare request for it, or the
    request and what it is for."""
    return bool(_HOW.search(text)) or not (_BARE_WANT.search(text) or _WANT_FOR.search(text))


#: What a clause states: (subtype, rule, score, label, attrs).
Found = tuple[str, str, float, str | None, dict]


def _classify(text: str, f: Features) -> Found | None:
    """Return (subtype, rule, score, label, attrs) for one user clause, or None."""
    if WITHDRAW.search(text):
        return None  # dropping a constraint is not a new one
    text = core(text)
    if FIGURE_CORRECTION.match(text) or REMARK.match(text):
        return None
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
        elif p.name == "env_setting":
            label = groups["rest"]  # the setting as written: "TZ=UTC"
        else:
            label = _label(text, groups.get("rest"))
        return p.subtype, p.name, p.score, label, {}
    # "I'm not paying postage" -- not what the user did not want then ("I did not want
    # renew", "we haven't accepted it yet") nor a wish about nothing in particular ("I
    # don't want problem with them", "I do not want a repeat of this")
    if f.person == 1 and f.negated and f.verb in REFUSAL_VERBS and f.label \
            and not f.past and not f.perfect and not _DID_NOT.search(text) \
            and _head(f.label) not in _NOTHING_NAMED:
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
        if f.label and not needs_to and _head(f.label) not in _VAGUE \
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
    found = clauses(text, doc, skip)
    last = {c.sentence: n for n, c in enumerate(found)}
    for n, clause in enumerate(found):
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
        # a statement before the question of its sentence is no question ("I'd rather
        # not go in person, it's 2h each way - can I dial in?")
        asks = clause.question and (last[clause.sentence] == n or ASKING.match(ctext))
        if asks and not guard.match(
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
    return out + _listed(text, [*((c.start, c.end) for c in out), *skip])


def _listed(text: str, taken: list[tuple[int, int]]) -> list[Candidate]:
    """The rules the user stated as such (:mod:`extractors.dialogue.stated_rules`) where
    no other rule read anything and no pasted block line stands (``taken``)."""
    return [Candidate.of(text, start, end, kind=Kind.CONSTRAINT, subtype=subtype, score=0.6,
                         extractor=NAME, why="rule 'listed'",
                         label=_label(text[start:end], None), attrs={"rule": "listed"})
            for start, end, subtype in stated_rules(text, taken)]


#: Where a clause holds a rule beside its reason or its context: "Same rule as the
#: adjuster though, nobody before 10", "Repo is ~/src/x, branch off main as chore/y".
_SEGMENT = rx(r"[^,;]+", linear=True)


#: The patterns specific enough to read a part of a clause on its own (a bare "not X" or
#: "no X" there is mostly a remark: "no big deal", "its not my fault").
_SEGMENT_RULES = frozenset({"dont_imperative", "nothing_may", "nothing_touched", "nothing_when",
                            "nothing_that", "off_limits", "branch_base", "leave_alone",
                            "under_no_circumstances", "unavailable", "shouted_not",
                            "better_for_me", "must_stay", "stays", "make_sure", "prefer",
                            "ask_me_first", "send_to_mine", "work_form", "on_condition",
                            "routed_to_me", "not_before", "env_setting", "run_only"})
_SEGMENT_PATTERNS = tuple(p for p in PATTERNS if p.name in _SEGMENT_RULES)


def _segments(ctext: str) -> list[tuple[int, int, Found]]:
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
        found = _segment_rule(ctext[a:b])
        if found is not None:
            out.append((a, b, found))
    return out


def _segment_rule(seg: str) -> Found | None:
    """What :func:`_classify` says of a part of a clause, by the specific patterns only."""
    if WITHDRAW.search(seg):
        return None
    text = core(seg)
    for p in _SEGMENT_PATTERNS:
        m = p.pattern.search(text)
        if m is not None:
            return p.subtype, p.name, p.score, _label(text, m.groupdict().get("rest")), {}
    return None


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
