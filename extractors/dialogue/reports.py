"""Reports of acts done, as later turns word them: the agent's "Done —", "I've emailed
it", "it's escalated"; the user's "Sent.", "the e-ticket just arrived"; and the weekdays,
times and amounts that tell the alternatives of one offer apart. Data for the fulfilment
rules of :mod:`extractors.dialogue.commitment_lifecycle`."""

from __future__ import annotations

from collections.abc import Iterator

import regex

from extractors.text.clauses import Clause, clauses
from extractors.text.guard import rx
from extractors.text.lexicon import terms, word_stems

#: A sentence opening with a bare report ("Done — it's escalated ..."): each of its
#: clauses reports an act done.
DONE_LEAD = rx(r"^\W*(?:done|all\s+set|completed?|sorted|good\s+news)\b", regex.IGNORECASE)
DONE = rx(
    r"^\W*(?:done|all\s+set|completed?|sorted)\b|\b(?:has|have)\s+(?:now\s+)?been\s+\w+ed\b|"
    r"\b(?:it|that|this|they)(?:['’]s|\s+is|['’]re|\s+are)\s+(?:now\s+)?\w+ed\b|"
    r"\b(?:I|we)\s*(?:['’]ve|\s+have)\s+(?:now\s+|just\s+)?\w+|\bis\s+now\s+\w+ed\b|"
    r"\b(?:is|are)\s+(?:held|booked|issued|processed|sent|done|confirmed|reserved)\b|"
    r"\b(?:has|have)\s+(?:now\s+|just\s+|already\s+)?\w+ed\b|"
    r"\b(?:went|has\s+gone|have\s+gone)\s+(?:out|off|over|through|to)\b",
    regex.IGNORECASE,
)
#: A clause that still looks ahead: what it names is not done yet.
AHEAD = rx(r"\b(?:will|won['’]t|going\s+to|once|if|when|until|so\s+(?:you|that))\b|['’]ll\b",
           regex.IGNORECASE, linear=True)
#: The user says a promised thing reached them ("the e-ticket just arrived").
RECEIVED = rx(
    r"(?<!(?:n['’]t|\bnot|\bnever)\s+(?:yet\s+|still\s+)?)"  # "hasn't arrived" is the opposite
    r"\b(?:(?:just\s+|has\s+|have\s+)?(?:arrived|came\s+through|come\s+through)|"
    r"(?:I['’]ve\s+|I\s+have\s+|I\s+|just\s+)?(?:got|received)\s+(?:it|them|the|your|"
    r"(?:[\w-]+['’]s\s+)?(?:e-?mail|text|sms|call|letter|message|code|link|parcel|refund))|"
    r"showed\s+up|turned\s+up|"
    # "I see it now", "found it in spam"
    r"(?:I\s+)?(?:can\s+)?see\s+(?:it|them)|found\s+(?:it|them))\b",
    regex.IGNORECASE)
#: Words for one channel: "got the text" receives what "I'll send you an SMS" promised.
CHANNELS = ({"text", "sms", "messag"}, {"email", "e-mail", "mail"}, {"call", "ring", "phone"})
CHANNEL_WORDS = frozenset().union(*CHANNELS)


def receipt_terms(text: str) -> set[str]:
    """The terms of ``text`` (:func:`terms`) and every word for the channels it names,
    short ones included ("got the text" and "I'll send you an SMS" share "sms")."""
    out = terms(text) | (word_stems(text) & CHANNEL_WORDS)
    for channel in CHANNELS:
        if channel & out:
            out |= channel
    return out


#: A user reporting their own act done: "Sent.", "Done", "I've uploaded them".
USER_DONE = rx(r"^\W*(?:done|sent|uploaded|submitted|posted|emailed|attached|signed)\b|"
               r"\bI\s*(?:['’]ve|\s+have)\s+(?:now\s+|just\s+)?(?:sent|uploaded|submitted|"
               r"posted|emailed|attached|signed|called|booked|paid|done|checked|asked|"
               r"forwarded|filled)\b|\bjust\s+(?:sent|uploaded|submitted|emailed)\b|"
               r"\bI\s+(?:just\s+|already\s+)?(?:sent|uploaded|submitted|emailed|posted|"
               r"attached|signed|called|paid|forwarded)\b",
               regex.IGNORECASE, linear=True)
#: A report of the agent's own act ("I've emailed"): not a colleague's promise kept.
SELF_REPORT = rx(r"\bI\s*(?:['’]ve|\s+have)\b", regex.IGNORECASE, linear=True)
#: What tells alternatives of one offer apart: a weekday, a clock time, an amount.
ALTERNATIVE = rx(r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}:\d\d)\b|"
                 r"[€$£]\s?\d(?:[\d,.]*\d)?", regex.IGNORECASE, linear=True)


def alternatives(text: str) -> set[str]:
    """The weekdays, times and amounts ``text`` names, lower-cased."""
    return {m.group().lower() for m in ALTERNATIVE.finditer(text)}


#: Verbs too common to tie a report to one promise ("I've sent ..." after "I'll send").
GENERIC_ACTS = frozenset({"send", "make", "check", "look", "take", "give", "keep"})


def reported_clauses(text: str) -> Iterator[Clause]:
    """The statement clauses of ``text`` that report an act done: each one ``DONE``
    matches, and every clause of a sentence that opens with a bare report ("Done -- it's
    escalated under CR-5521")."""
    led: set[int] = set()
    for clause in clauses(text):
        if clause.question:
            continue
        ctext = text[clause.start:clause.end]
        if DONE_LEAD.search(ctext):
            led.add(clause.sentence)
        if clause.sentence in led or DONE.search(ctext):
            yield clause
