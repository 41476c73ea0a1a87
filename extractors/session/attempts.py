"""What was already tried and did not work: "I've already restarted the router", "I tried
pinning requests to 2.31 but the import error persists", "Bumping the timeout to 30s
didn't help".

Troubleshooting steps and failed approaches are what a summary drops first and an agent
then repeats. A sentence says an attempt when

* a first person *tried* something ("I tried X", "we've tried X"), or
* a first person *already* did something ("I've already reset it"), or
* a first-person past action shares its sentence with a failure ("I reinstalled the app
  but it still crashes"), or
* a gerund subject fails ("Pinning the version didn't help", "Increasing the pool size
  made no difference").

The pinned span is the clause of the attempt (up to ", but" and the like). Kind
``note``, subtype ``tried``; ``attrs["outcome"]`` is ``failed`` when the sentence
says so. Tool output is data, never an attempt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind, NoteSubtype
from extractors.text.clauses import statements, trim
from extractors.text.guard import rx

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: Below every commitment rule's score: where a clause is also an offer, a grant or a
#: promise, that reading wins the merge.
SCORE = 0.5
NAME = "attempts.regex.v1"
_F = regex.IGNORECASE | regex.V0
#: A past tense or participle: a regular "-ed" form or a common irregular one.
_PAST = (r"(?:(?:re-?)?[a-z]{2,}ed|reset|rebuilt|re-?ran|rang|set|put|did|done|made|swapped|"
         r"took|taken|gave|given|went|sent|got|held|kept|left|wiped|cleaned|redid|reinstalled|"
         r"tried|flashed|switched|pulled|turned|plugged|unplugged|rebooted|restarted|re-?sent|"
         r"redid|re-?ran|rewrote|remade)")
_WE = r"(?:I|we)(?:['’]ve|\s+have|\s+had|['’]d)?"
#: "I've tried X", and without the subject: "tried wireguard", "..., also tried 3 games".
TRIED = rx(
    rf"\b{_WE}\s+(?:already\s+|also\s+|even\s+)*tried\b|"
    r"(?:^|(?<=[,;]\s)|(?<=\b(?:and|also|even|then|already)\s))tried\s+(?!to\s+(?:call|reach|"
    r"contact|get\s+through)\b)", _F, linear=True)
#: The sentence opens with a past action, its subject dropped ("yep turned bluetooth off
#: and on", "ok did the rebuild database thing").
OPENS_WITH_ACTION = rx(
    r"^(?:(?:yep|yes|yeah|ok|okay|so|and|also|even|already|then|oh|well|um|no|nope)\b[,.!]?\s+)*"
    rf"(?P<verb>{_PAST})\b", _F, linear=True)
#: Troubleshooting steps: an attempt even when no failure is said.
TROUBLESHOOT = frozenset("""restarted rebooted reinstalled reset cleared cleaned unplugged
replugged reconnected repaired re-paired power-cycled uninstalled disabled re-enabled toggled
flushed rebuilt reseated re-seated swapped reflashed flashed relogged rescanned
re-synced resynced""".split())
_OFF_AND_ON = rx(r"\b(?:turned|switched|toggled)\b[^.!?]{0,30}\b(?:off|on)\b", _F)
#: "I've already reset it", "already took the batteries out", "also restarted the bridge":
#: what was done before or besides, the subject often dropped.
ALREADY = rx(
    rf"(?:\b{_WE}\s+(?:already|also\s+already|also|even)|^(?:already|also|and\s+also)|"
    rf"(?<=[,;]\s)(?:already|also|even)|\beven|"
    # someone else did it: "Dealer already did a software update", "IT already reset it"
    r"^(?:(?:the|our|my|his|her|their)\s+)?[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?\s+already)\s+"
    rf"(?:\w+ly\s+)?(?P<verb>{_PAST})\b", _F, linear=True)
#: "I've rebooted it", "we reinstalled it", "I then cleared the cache": an action of ours,
#: an attempt when a failure follows in its sentence or the next.
OUR_ACTION = rx(
    rf"\b(?:I|we)(?:['’]ve|\s+have)?\s+(?:also\s+|then\s+|even\s+|just\s+|\w+ly\s+)?"
    rf"(?P<verb>{_PAST})\b", _F, linear=True)
FAILED = rx(
    r"\b(?:still|(?:didn['’]?t|did\s+not|doesn['’]?t|does\s+not|won['’]?t|wouldn['’]?t|"
    r"hasn['’]?t|has\s+not|haven['’]?t)\s+(?:help|work|fix|change|solve|resolve|make|do|"
    r"seem|stop|go|let)\w*|no\s+(?:luck|joy|change|difference|effect|dice|improvement)|"
    r"made\s+no\s+difference|had\s+no\s+effect|same\s+(?:error|problem|issue|result|thing|"
    r"failure|black|crash|message)|nothing\s+(?:changed|helped|worked)|^nothing\b|"
    r"persists?|keeps?\s+\w+ing|fails?\b|failed|gave\s+up|to\s+no\s+avail|"
    r"without\s+(?:any\s+)?(?:luck|success)|didn['’]?t\s+do\s+anything)", _F, linear=True)
GERUND_FAILED = rx(
    r"^(?:\w+ing)\b[^.!?]{0,120}?\b(?:didn['’]?t|did\s+not|doesn['’]?t|does\s+not)\s+"
    r"(?:help|work|fix|change|solve|resolve)\b|^(?:\w+ing)\b[^.!?]{0,120}?\b(?:made\s+no\s+"
    r"difference|had\s+no\s+effect|changed\s+nothing|fixed\s+nothing)", _F, linear=True)
#: An approach named and said to fail: "Tom's approach, switching PHP's global timezone
#: around the calculation, doesn't work" -- the attempt is what the apposition names.
APPROACH_FAILED = rx(
    r"\b(?:approach|idea|fix|workaround|attempt|suggestion|solution|plan)\s*(?:[,:—–]|\s-)\s*"
    r"(?P<what>[^,;—–]{8,160}?)\s*(?:[,—–]|\s-)\s*(?:(?:unfortunately|sadly|still)\s+)?"
    r"(?:doesn['’]?t|does\s+not|didn['’]?t|did\s+not|won['’]?t|will\s+not|can['’]?t)\s+"
    r"(?:work|help|fix|solve)\b", _F, linear=True)
#: Where a sentence's attempts part: ", and I turned the box off", ", and one of the devs
#: tried from his phone" -- a new subject's attempt after a list of ours.
NEXT_ATTEMPT = rx(
    rf",\s+and\s+(?=(?:(?:I|we)\s+(?:also\s+|then\s+)?{_PAST}\b|"
    r"(?:[\w'’-]+\s+){1,4}(?:tried|already)\b))", _F, linear=True)
#: Where the attempt's clause ends: before ", but", "and it still", a dash or semicolon.
CLAUSE_END = rx(
    r",?\s+(?:but|yet|however|though|and\s+(?:it|that|this|they|the\s+\w+)\s+(?:still|"
    r"didn|did\s+not|doesn|does\s+not|wouldn|won))\b|\s*;\s*|\s+[—–-]{1,2}\s+|,\s+(?:still|"
    r"no\s+(?:luck|change|joy|difference)|same\s+\w+|nothing)\b", _F)
#: Past actions that are not attempts at a fix: what happened to us, or what we bought.
_NOT_ATTEMPT = frozenset("""need needed wanted asked called ordered booked paid received
noticed wondered hoped expected used bought waited signed subscribed registered emailed
contacted mentioned said told explained charged billed moved started opened noted
checked created placed submitted sent transferred deposited purchased shipped""".split())


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    cut = CLAUSE_END.search(text, start, end)
    if cut is not None and cut.start() > start + 8:
        end = cut.start()
    return trim(text, start, end)


class Attempts:
    """Pin steps already tried and approaches that failed."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        if turn.role == "tool":
            return []
        text = turn.text
        out = []
        sentences = statements(text)
        for i, (start, end, asks) in enumerate(sentences):
            sentence = text[start:end]
            if not sentence or asks:
                continue
            following = sentences[i + 1][:2] if i + 1 < len(sentences) else (end, end)
            failed = FAILED.search(sentence) is not None
            failed_near = failed or FAILED.search(text[following[0]:following[1]]) is not None
            named = APPROACH_FAILED.search(sentence)
            if named is not None:
                out.append(Candidate.of(
                    text, start + named.start("what"), start + named.end("what"),
                    kind=Kind.NOTE, subtype=NoteSubtype.TRIED, score=SCORE,
                    extractor=NAME, why="an approach named and said to fail", label=None,
                    attrs={"outcome": "failed"}))
                continue
            found = min(_attempts(sentence, turn.role, failed_near), default=None)
            if found is None:
                continue
            a, b = _clause(text, start + found[0], end)
            for x, y in _parts(text, a, b):
                out.append(Candidate.of(
                    text, x, y, kind=Kind.NOTE, subtype=NoteSubtype.TRIED,
                    score=SCORE, extractor=NAME, why=found[1], label=None,
                    attrs={"outcome": "failed"} if failed_near else {}))
        return out


def _parts(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """The attempts of the clause ``text[a:b]``, one per :data:`NEXT_ATTEMPT` part (at
    least 8 characters each; shorter ones stay with the part before)."""
    out: list[tuple[int, int]] = []
    start = a
    for m in NEXT_ATTEMPT.finditer(text, a, b):
        if m.start() - start >= 8 and b - m.end() >= 8:
            out.append(trim(text, start, m.start()))
            start = m.end()
    out.append(trim(text, start, b))
    return [(x, y) for x, y in out if y - x >= 8]


def _attempts(sentence: str, role: str, failed_near: bool) -> list[tuple[int, str]]:
    """(start, why) of every reading of ``sentence`` as an attempt; the earliest wins."""
    out = []
    if m := TRIED.search(sentence):
        out.append((m.start(), NoteSubtype.TRIED))
    if (m := ALREADY.search(sentence)) and m.group("verb").lower() not in _NOT_ATTEMPT:
        out.append((m.start(), "already or also done"))
    if (m := _our_action(sentence)) and (failed_near or _troubleshooting(m.group("verb"),
                                                                          sentence)):
        out.append((m.start(), "our action, then a failure or a troubleshooting step"))
    if role == "user" and (m := OPENS_WITH_ACTION.match(sentence)) and (
            m.group("verb").lower() not in _NOT_ATTEMPT) and (
            failed_near or _troubleshooting(m.group("verb"), sentence)):
        out.append((m.start("verb"), "an action, its subject dropped"))
    if GERUND_FAILED.search(sentence):
        out.append((0, "a gerund that failed"))
    if out and (m := _our_action(sentence)):  # "I've resent them, tried Firefox, ...": a list
        out.append((m.start(), "our action in a list of attempts"))
    return out


def _troubleshooting(verb: str, sentence: str) -> bool:
    return verb.lower() in TROUBLESHOOT or _OFF_AND_ON.search(sentence) is not None


def _our_action(sentence: str) -> regex.Match[str] | None:
    for m in OUR_ACTION.finditer(sentence):
        if m.group("verb").lower() not in _NOT_ATTEMPT and m.start() <= len(sentence) // 2 + 20:
            return m
    return None
