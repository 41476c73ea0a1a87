"""Clause features: read who does what, when, and whether in a clause.

Each clause (:mod:`extractors.text.clauses`) is read for its subject person, modal,
tense/aspect, voice, negation, main verb and the label of the thing it is about -- from
the dependency parse when the Doc has one, else from a small token scanner. The rule
families (commitments, constraints) classify these features; this module knows nothing
of subtypes.

Decisions: an offer frame ("would you like me to X", "shall I X", "I'd be happy to X")
is read as a first-person clause about X with modal ``offer``; a third-person clause whose
subject is an entitlement noun (:data:`ENTITLEMENT`: "the refund is issued ...") is
labelled by that noun.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import regex

from extractors.text import guard
from extractors.text.clauses import Clause, clauses
from extractors.text.guard import rx
from extractors.text.lexicon import (
    PARTICIPLE_IRREGULAR,
    function_words,
    stem,
    word_class,
    words,
)
from extractors.text.nlp import parsed_span

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token


#: Nouns whose subject position makes a third-person clause about the agent's side.
ENTITLEMENT = frozenset("""
refund credit reimbursement payment replacement compensation voucher discount fee charge
amount waiver exchange repair return refunds money
""".split())
OFFER_FRAME = rx(
    r"\b(?:(?:would|do)\s+you\s+(?:like|want)\s+(?:me|us)\s+to|want\s+me\s+to|"
    r"(?:shall|should|can|could|may)\s+(?:I|we)|how\s+about\s+(?:I|we)|"
    r"(?:I|we)(?:\s+would|['’]d)\s+be\s+(?:happy|glad)\s+to)\s+(?:also\s+)?(?P<verb>\w+)",
    regex.IGNORECASE,
)
WORD = rx(r"[\w€$£%]+(?:[-/][\w€$£%]+)*|['’]\w+|[^\w\s]")
_MODALS = {"can": "can", "ca": "can", "could": "could", "will": "will", "wo": "will",
           "'ll": "will", "’ll": "will", "shall": "will", "would": "would", "'d": "would",
           "’d": "would", "should": "should", "may": "may", "might": "may", "must": "must",
           "cannot": "can"}
#: Words that cannot be part of a clause's label.
_STOP = function_words("the a an this that these those your our my his her their its it them "
                       "you me us him any some all both each every of")
_FILLER = word_class("weekdays", "day words") | function_words(
    "even though just really now then still already here there away straight usually instead")
_PREPS = function_words("for to as on in at from with by against until within of about into "
                        "onto over under after before since once when if while and or but so "
                        "too also well because unless")


_S_ENT = frozenset(stem(w) for w in ENTITLEMENT)


@dataclass(frozen=True)
class Features:
    """What a clause says about who does what, when, and whether."""

    person: int = 0  # 1 I/we, 2 you, 3 anything else, 0 no subject
    subject: str = ""  # stem of the subject head
    modal: str = ""  # can could will would should may must able offer
    perfect: bool = False
    past: bool = False
    progressive: bool = False
    passive: bool = False
    negated: bool = False
    verb: str = ""  # stem of the main verb
    verb_text: str = ""
    label: str | None = None


def _person(word: str) -> int:
    w = word.lower()
    if w in {"i", "we", "me", "us"}:
        return 1
    if w == "you":
        return 2
    return 3


def _modifiers(tok: Token) -> list[Token]:
    out: list[Token] = []
    for c in tok.children:
        if c.i < tok.i and c.dep_ in {"compound", "amod"} and c.pos_ != "PROPN" \
                and not c.like_num and (c.pos_ in {"NOUN", "VERB"} or c.dep_ == "compound"):
            out += [*_modifiers(c), c]
    return out


def np_label(head: Token) -> str | None:
    if head.pos_ in {"PRON", "SYM"} or head.like_num or not guard.search(r"[^\W\d_]", head.text):
        return None
    mods = sorted(_modifiers(head), key=lambda t: t.i)
    if head.pos_ == "PROPN" and not mods:
        return None
    parts = []
    for m in mods:
        gap = head.doc[m.i + 1].text if m.i + 1 < head.i else ""
        parts.append(m.text.lower() + ("-" if gap == "-" else " "))
    return ("".join(parts) + head.lemma_.lower()).replace("- ", "-")


def label_tokens(words: list[str]) -> str | None:
    kept: list[str] = []
    for w in words:
        lw = w.lower()
        if lw in _PREPS or not guard.match(r"\w", w):
            if kept:
                break
            continue
        if lw in _STOP:
            if kept:
                break
            continue
        if lw in _FILLER:
            continue
        if guard.fullmatch(r"[\d.,:%-]+", w) or lw in _MODALS:
            continue
        kept.append(lw)
    return " ".join(kept[-3:]) if kept else None


def _features_parse(text: str, clause: Clause, span: Span) -> Features | None:
    inside = {t.i for t in span}
    subjects = [t for t in span if t.dep_ in {"nsubj", "nsubjpass", "expl"}
                and t.head.i in inside]
    subjects.sort(key=lambda t: (t.head.dep_ in {"advcl", "relcl", "acl", "pcomp"}, t.i))
    if subjects:
        subj, pred = subjects[0], subjects[0].head
    else:
        verbs = [t for t in span if t.pos_ in {"VERB", "AUX"} and t.dep_ not in {"aux",
                 "auxpass", "amod"} and not (t.dep_ == "xcomp" and t.head.i in inside)]
        if not verbs:
            return None
        subj, pred = None, verbs[0]
    modal, negated = "", False
    heads = [pred]
    # descend through frames: "going to X", "(un)able to X", "happy to X", "be happy to X"
    for _ in range(3):
        frame = pred
        if pred.lemma_ == "be" or pred.pos_ == "AUX":
            adj = [c for c in pred.children if c.dep_ == "acomp"]
            frame = adj[0] if adj else pred
        xcomp = [c for c in frame.children if c.dep_ == "xcomp" and c.pos_ in {"VERB", "AUX"}]
        if not xcomp or frame.lemma_ not in {"go", "able", "unable", "happy", "glad", "be"}:
            break
        if frame.lemma_ == "go":
            modal = modal or "will"
        elif frame.lemma_ in {"able", "unable"}:
            modal = modal or "can"
            negated = negated or frame.lemma_ == "unable"
        else:
            modal = "offer" if modal in {"", "would", "will"} else modal
        heads.append(frame)
        pred = xcomp[0]
        heads.append(pred)
    perfect = progressive = passive = False
    for h in heads:
        for c in h.children:
            if c.dep_ == "neg":
                negated = True
            if c.dep_ in {"aux", "auxpass"}:
                lemma = c.lemma_.lower()
                if c.tag_ == "MD" or c.lower_ in _MODALS:
                    modal = modal or _MODALS.get(c.lower_, _MODALS.get(lemma, lemma))
                    if c.lower_ == "cannot":
                        negated = True
                elif lemma == "have" and pred.tag_ == "VBN":
                    perfect = True
                elif lemma == "be" and pred.tag_ == "VBG":
                    progressive = True
            if c.dep_ == "auxpass":
                passive = True
    if subj is not None and subj.dep_ == "nsubjpass":
        passive = True
    past = (pred.tag_ == "VBD" and not modal) or any(h.tag_ == "VBD" for h in heads[:-1])
    perfect = perfect or any(c.lemma_ == "have" and c.dep_ == "aux" for h in heads[:-1]
                             for c in h.children)
    label = None
    objects = [c for c in pred.children if c.dep_ in {"dobj", "attr", "oprd"}]
    if passive and subj is not None:
        objects.insert(0, subj)
    if pred.lemma_ == "be" and subj is not None:
        objects.insert(0, subj)
    for obj in objects:
        label = np_label(obj)
        if label:
            break
    if label is None:
        for prep in (c for c in pred.children if c.dep_ in {"prep", "dative"}):
            for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                label = label or np_label(pobj)
    if label is None and any(c.dep_ == "dobj" and (c.like_num or c.pos_ in {"NUM", "SYM"}
                                                    or c.ent_type_ == "MONEY")
                             for c in pred.children):
        label = pred.lemma_.lower()  # "refund the full €89": the action is the thing
    if label is None:
        after = [t.text for t in span if t.i > pred.i]
        label = label_tokens(after)
    subject = subj.lemma_.lower() if subj is not None else ""
    return Features(
        person=_person(subj.text) if subj is not None else 0,
        subject=stem(subject) if subject else "",
        modal=modal, perfect=perfect, past=past, progressive=progressive, passive=passive,
        negated=negated, verb=stem(pred.lemma_), verb_text=pred.text, label=label,
    )


#: Words between a subject and its main verb: auxiliaries, negations, adverbs, and the
#: frames "going to", "(un)able to", "happy to".
_AUX_WORDS = word_class("be", "have", "do", "modals", "clitics", "negative stems") | function_words(
    "cannot not never also just already now then still really certainly definitely going to"
) | words("able unable happy glad")
_BE_FORMS = function_words("am are is was were be been 'm 're 's")


def _features_lexical(text: str, clause: Clause) -> Features:
    words = [m.group().replace("’", "'") for m in WORD.finditer(text, clause.start,
                                                                  clause.end)]
    low = [w.lower() for w in words]
    subj_i = next((i for i, w in enumerate(low[:8])
                   if w in {"i", "we", "you", "they", "he", "she", "it"}), None)
    if subj_i is None:
        subj_i = next((i for i, w in enumerate(low[:5]) if stem(w) in _S_ENT and i + 1 < len(low)
                       and low[i + 1] in _AUX_WORDS), None)
    i = subj_i + 1 if subj_i is not None else 0
    aux: list[str] = []
    while i < len(low) and low[i] in _AUX_WORDS:
        aux.append(low[i])
        i += 1
    verb = low[i] if i < len(low) else ""
    if aux and aux[-1] in _BE_FORMS and not (verb.endswith(("ed", "en", "ing"))
                                              or verb in PARTICIPLE_IRREGULAR):
        verb, i = "be", i - 1
    modal = next((_MODALS[a] for a in aux if a in _MODALS), "")
    if "won" in aux:
        modal = modal or "will"
    if "going" in aux:
        modal = modal or "will"
    if "able" in aux or "unable" in aux:
        modal = modal or "can"
    if ("happy" in aux or "glad" in aux) and modal in {"", "would", "will"}:
        modal = "offer"
    negated = any(a in {"not", "never", "'t", "cannot", "unable"} for a in aux)
    participle = verb.endswith(("ed", "en")) or verb in PARTICIPLE_IRREGULAR
    has_have = any(a in {"have", "has", "had", "'ve"} for a in aux)
    has_be = any(a in {"am", "are", "is", "was", "were", "be", "been", "'m", "'re", "'s"}
                 for a in aux)
    perfect = has_have and participle
    passive = has_be and participle and not verb.endswith("ing")
    progressive = has_be and verb.endswith("ing") and "going" not in aux
    past = (not aux and participle and not modal) or any(a in {"was", "were"} for a in aux)
    perfect = perfect or (has_have and "been" in aux)
    subject = low[subj_i] if subj_i is not None else ""
    label = label_tokens(words[i + 1:])
    if subject and stem(subject) in _S_ENT and (stem(verb) == "be" or passive):
        label = subject
    return Features(
        person=_person(subject) if subject else 0,
        subject=stem(subject) if subject else "", modal=modal, perfect=perfect, past=past,
        progressive=progressive, passive=passive, negated=negated, verb=stem(verb),
        verb_text=verb, label=label,
    )


def _offer_frame(text: str, clause: Clause, doc: Doc | None, f: Features) -> Features:
    """Point an offer question's features at the offered verb ("... me to hold X")."""
    m = OFFER_FRAME.match(text, clause.start, clause.end)
    if m is None:
        return f
    label = None
    tok = parsed_span(doc, m.start("verb"), m.end("verb"))
    if tok is not None:
        for obj in (c for c in tok[0].children if c.dep_ in {"dobj", "attr"}):
                label = label or np_label(obj)
    if label is None:
        words = [w.group() for w in WORD.finditer(text, m.end("verb"), clause.end)]
        label = label_tokens(words)
    return replace(f, person=1, verb=stem(m.group("verb")), verb_text=m.group("verb"),
                   label=label, modal="offer")


def features(text: str, clause: Clause, doc: Doc | None) -> Features:
    """Read a clause's features from the parse when there is one, else lexically."""
    span = parsed_span(doc, clause.start, clause.end)
    f = _features_parse(text, clause, span) if span is not None else None
    if f is None:
        f = _features_lexical(text, clause)
    return _offer_frame(text, clause, doc, f)


def read(text: str, doc: Doc | None = None, skip: list[tuple[int, int]] | None = None
         ) -> Iterator[tuple[Clause, Features]]:
    """Yield each clause of ``text`` with its features, outside the ``skip`` ranges.

    A coordinated clause without its own subject, modal or negation ("... and cancelled
    the booking") inherits them from the clause before it in the same sentence.
    """
    skip = skip or []
    prev: tuple[Clause, Features] | None = None
    for clause in clauses(text, doc, skip):
        if any(a <= clause.start < b for a, b in skip):
            continue
        f = features(text, clause, doc)
        if (prev is not None and prev[0].sentence == clause.sentence and clause.coordinated
                and f.person == 0 and not f.modal and not f.negated):
            p = prev[1]
            f = replace(f, person=p.person, subject=p.subject, modal=p.modal,
                        perfect=p.perfect, negated=p.negated,
                        progressive=p.progressive and f.verb_text.lower().endswith("ing"),
                        past=f.past and not p.modal)
        prev = (clause, f)
        yield clause, f
