"""Find questions and requests for information in user and assistant turns.

``questions.rules.v1`` (extractor) returns one ``question`` candidate per interrogative
clause or request for information ("What's the address?", "Is it furnished", "Could you
confirm the address", "Let me know which slot works"). Courtesy closings ("Anything
else?"), "Please confirm: ..." read-backs and requests for action ("Can you book it?")
are not questions. Text inside code blocks, inline code and ``>`` quoted lines is ignored.

Subtypes: ``wh``, ``yesno``, ``choice`` (options offered: "Tuesday or Thursday?"),
``request`` ("tell me the order number") and ``suggestion`` -- the asker proposes
something rather than asking for information ("How about the 10:40 bus?", "What do you
think of Shazam!?", "How does that sound?"); a suggestion asking about an information
noun ("What about the price?") is a plain ``wh`` question. Linking answers is
:mod:`extractors.dialogue.answers`; the text helpers it shares (masking, subject terms)
live here, the cue patterns and word lists in :mod:`extractors.dialogue.question_cues`.

Patterns are data (named regexes); the parse is optional and only refines the label.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, Needs, TurnView
from extractors.dialogue.question_cues import (
    ACTION_REQUEST,
    ALT_FIRST,
    ALT_SPLIT,
    ANYWHERE,
    CLAUSE_LEAD,
    CONFIRMATION,
    COURTESY,
    DEFERRAL,
    EXPECTS,
    FLAGS,
    GOES_ON_STATING,
    INTENT,
    INTERJECTION,
    LIST_SPLIT,
    MASK,
    OPENERS,
    PROPOSAL,
    QUESTION_MARK,
    RELATIVE,
    STOPWORDS,
    SUGGESTION,
    WH,
    WISH_OR_ORDER,
    WORD,
)
from extractors.records import Kind, QuestionSubtype
from extractors.text import guard
from extractors.text.clauses import sentences_around
from extractors.text.guard import Guarded
from extractors.text.lexicon import stem
from extractors.text.nlp import doc_of, parsed_span
from extractors.text.sentences import sentences

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

NAME = "questions.rules.v1"
#: Longest sentence (characters) considered; longer runs are not questions.
MAX_SENTENCE = 600


# ---------------------------------------------------------------------------
# Text helpers
# ---------------------------------------------------------------------------


def masked(text: str) -> str:
    """Return ``text`` with code, quoted lines and quoted questions blanked, and curly
    apostrophes made straight (same length, same offsets)."""
    text = text.replace("’", "'")  # one character for one: offsets hold
    try:
        spans = [(m.start(), m.end()) for m in MASK.finditer(text)]
    except TimeoutError:
        return text
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def subject_terms(text: str) -> frozenset[str]:
    """Return the subject terms of ``text``: the stems of its words, short ones and
    numbers-with-letters included ("5pm", "id"), that are not :data:`STOPWORDS` --
    what a question is about, and what an answer must mention. (For the terms that tie
    a later turn to an earlier one, see :func:`extractors.text.lexicon.terms`.)"""
    out = set()
    for m in WORD.finditer(text):
        word = m.group().lower().replace("’", "'")
        if word in STOPWORDS or len(word) < 2 or word.isdigit():
            continue
        out.add(stem(word.removesuffix("'s")))
    return frozenset(out)


def search(pattern: Guarded, text: str) -> regex.Match[str] | None:
    """Return the first match of ``pattern`` in ``text``, or None (also on timeout)."""
    try:
        return pattern.search(text)
    except TimeoutError:
        return None


# ---------------------------------------------------------------------------
# Detection
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Clause:
    start: int
    end: int
    subtype: str
    score: float
    why: str


def _openers(sentence: str) -> list[tuple[int, str, float, str]]:
    """Return (offset, subtype, score, name) of every opener at a clause start."""
    found: dict[int, tuple[int, str, float, str]] = {}
    for name, pattern, subtype, score in OPENERS:
        for m in pattern.finditer(sentence):
            pos = m.start()
            if pos > 0 and (sentence[pos - 1].isalnum() or sentence[pos - 1] == "'"):
                continue
            lead = sentence[:pos]
            if (name not in ANYWHERE and lead.strip()
                    and not CLAUSE_LEAD.search(lead[-40:])):
                continue
            if pos not in found or score > found[pos][2]:
                found[pos] = (pos, subtype, score, name)
    return sorted(found.values())


#: Openers after which a later opener in the same sentence starts a second question.
_MAIN = frozenset({"wh_main", "aux_subject", "wh_contracted", "how_many", "tell_me",
                   "let_me_know", "get_info", "find_out"})


def _clauses(text: str, start: int, end: int) -> list[_Clause]:
    """Return the question clauses of one sentence ``text[start:end]``."""
    sentence = text[start:end]
    if end - start > MAX_SENTENCE or search(COURTESY, sentence):
        return []
    if (search(CONFIRMATION, sentence) or INTERJECTION.match(sentence)
            or search(DEFERRAL, sentence)):
        return []
    asked = bool(QUESTION_MARK.search(sentence))
    picked: list[tuple[int, str, float, str]] = []
    action = False
    for pos, subtype, score, name in _openers(sentence):
        if not asked and WISH_OR_ORDER.match(sentence, pos):
            continue
        if not asked and RELATIVE.match(sentence, pos) and (
                pos == 0 and sentence[0].islower() or sentence[:pos].rstrip().endswith(",")):
            continue
        if not asked and pos > 0 and guard.search(r"\band\s*$", sentence[:pos]) \
                and GOES_ON_STATING.match(sentence, pos):
            continue
        if picked:
            # A later opener starts a new question only as a main clause after "and"
            # or a comma; "or <clause>" continues a choice question.
            lead = sentence[picked[-1][0]:pos]
            if name not in _MAIN or guard.search(r"\bor\s*$", lead):
                continue
            if not guard.search(r"(?:[,;]|\band|\balso)\s*$", lead):
                continue
        if search(ACTION_REQUEST, sentence[pos:]):
            action = True
            continue
        picked.append((pos, subtype, score, name))
    if picked and (first := search(ALT_FIRST, sentence[:picked[0][0]])) is not None:
        _, subtype, score, name = picked[0]  # "Is X out yet, or do we wait?": the whole
        picked[0] = (first.start(), QuestionSubtype.CHOICE, score, name)  # choice
    out: list[_Clause] = []
    for i, (pos, subtype, score, name) in enumerate(picked):
        stop = picked[i + 1][0] if i + 1 < len(picked) else len(sentence)
        piece = guard.sub(r"(?:[\s,;]|\band\b|\balso\b)+$", "", sentence[pos:stop])
        out.append(_Clause(start + pos, start + pos + len(piece), subtype, score,
                           f"pattern {name!r}"))
    if not out and asked and not action and not search(INTENT, sentence):
        stripped = guard.sub(r"^(?:(?:yes|yeah|ok|okay|sure|so|and|but|great|thanks)\W+)+", "",
                             sentence, flags=FLAGS)
        offset = start + len(sentence) - len(stripped)
        wh = guard.search(rf"\b(?:{WH})\b", stripped, flags=FLAGS)
        if stripped and not search(ACTION_REQUEST, stripped) \
                and not guard.match(r"no\b(?!\s+(?:way|one|idea)\b)", stripped, flags=FLAGS):
            # "No, I do not want tickets right now?" answers; it asks nothing
            subtype = QuestionSubtype.WH if wh else QuestionSubtype.YESNO
            out.append(_Clause(offset, end, subtype, 0.7, "question mark"))
    return out


def _options(text: str) -> list[str]:
    """Return the verbatim items of an "A, B or C" list ending ``text`` (maybe empty)."""
    body = text.rstrip(" ?.!")
    parts = [p for p in LIST_SPLIT.split(body) if p.strip()]
    last_or = list(guard.finditer(r"\s+or\s+", body))
    if len(parts) < 2 or not last_or:
        return []
    right = guard.sub(r"^(?:the|a|an|your|my|their)\s+", "", parts[-1].strip(), flags=FLAGS)
    width = max(1, len(right.split()))
    if width > 6:
        return []
    items = []
    for part in parts[:-1]:
        words = part.split()
        if len(words) > width + 1:
            words = words[-width:]
        item = " ".join(words)
        item = guard.sub(r"^(?:the|a|an|your|my|their|on|at|in|for|to)\s+", "", item, flags=FLAGS)
        if item not in part:
            return []
        items.append(item)
    items.append(right)
    return [i for i in items if i]


def _choices(text: str, clause: _Clause, previous: tuple[int, int] | None) -> list[str]:
    """Return the options offered by a clause (inline, or listed in the sentence before)."""
    span = text[clause.start:clause.end]
    halves = ALT_SPLIT.split(span.rstrip(" ?.!"), maxsplit=1)
    if len(halves) == 2:
        second = halves[1]
        if any(p.match(second) for _, p, _, _ in OPENERS[:4]):
            return [halves[0].strip(" ,"), second.strip()]
        options = _options(span)
        if options:
            return options
    if previous is not None and guard.match(r"(?:which|what)\b|let\s+me\s+know\s+which", span,
                                            flags=FLAGS):
        prev = text[previous[0]:previous[1]]
        if " or " in prev and "?" not in prev:
            return _options(prev)
    return []


def _expects(span: str, subtype: str, choices: list[str]) -> str:
    """Return the type of answer a question expects (a suggestion expects a yes or no)."""
    if choices:
        return "choice"
    if subtype == SUGGESTION:
        return "yesno"
    for name, pattern in EXPECTS:
        if pattern.search(span):
            return name
    return "yesno" if subtype == QuestionSubtype.YESNO else "text"


def _noun_chunks(span: Span) -> Iterator[Span]:
    """The noun chunks inside ``span``. ``Span.noun_chunks`` walks the whole Doc for
    each call; the language's chunk iterator takes the span itself."""
    doc = span.doc
    chunker = getattr(doc, "noun_chunks_iterator", None)
    if chunker is None:
        yield from span.noun_chunks
        return
    for start, end, _ in chunker(span):
        yield doc[start:end]


def _label(text: str, doc: Doc | None, start: int, end: int) -> str | None:
    """Return a few words naming the question's subject, from the parse if there is one."""
    span = parsed_span(doc, start, end)
    if span is None:
        return None
    for chunk in _noun_chunks(span):
        root = chunk.root
        if root.pos_ not in ("NOUN", "PROPN") or root.lower_ in STOPWORDS:
            continue
        words = [t for t in chunk if t.i <= root.i and t.pos_ in ("NOUN", "PROPN")
                 and t.dep_ in ("compound", "ROOT", "nsubj", "dobj", "pobj", "attr", "nsubjpass")
                 or t.i == root.i]
        tail = []
        for token in reversed(words):
            if tail and token.i != tail[-1].i - 1:
                break
            tail.append(token)
        tail.reverse()
        return text[tail[0].idx:tail[-1].idx + len(tail[-1].text)]
    return None


class RuleQuestions:
    """Find questions and requests for information in user and assistant turns."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = True

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return one ``question`` candidate per question clause of the turn."""
        found = _questions(turn.role, turn.text)
        if doc_of(doc, turn.text) is None:
            return list(found)
        return [c.model_copy(update={"label": _label(turn.text, doc, c.start, c.end)})
                for c in found]

    def needs(self, turn: TurnView) -> Needs:
        """The parse of each sentence holding a question: it names the question's subject."""
        spans = [(c.start, c.end) for c in _questions(turn.role, turn.text)]
        return Needs(parse=sentences_around(turn.text, spans))


@lru_cache(maxsize=256)
def _questions(role: str, source: str) -> tuple[Candidate, ...]:
    """The question candidates of one turn, without labels (they need the parse).
    Cached: the pipeline asks for them once to plan the parse and once to extract."""
    if role not in ("user", "assistant") or not source:
        return ()
    text = masked(source)
    out: list[Candidate] = []
    previous: tuple[int, int] | None = None
    try:
        spans = list(sentences(text))
    except TimeoutError:
        return ()
    for start, end in spans:
        try:
            clauses = _clauses(text, start, end)
        except TimeoutError:
            clauses = []
        for clause in clauses:
            choices = _choices(text, clause, previous)
            asks_info = clause.subtype != QuestionSubtype.REQUEST
            subtype = QuestionSubtype.CHOICE if choices and asks_info else clause.subtype
            span = source[clause.start:clause.end]
            if asks_info and search(PROPOSAL, text[clause.start:clause.end]):
                subtype = SUGGESTION  # keeps its choices: "How about A, B or C?"
            out.append(Candidate.of(
                source, clause.start, clause.end, kind=Kind.QUESTION, subtype=subtype,
                score=clause.score, extractor=NAME, why=clause.why,
                attrs={"asker": role, "expects": _expects(span, subtype, choices),
                       "choices": choices},
            ))
        previous = (start, end)
    return tuple(out)
