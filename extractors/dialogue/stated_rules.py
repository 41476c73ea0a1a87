"""Rules the user states by calling them rules: the items of a list under a heading such
as "Ground rules:" and the parts of a sentence that opens with "rules:". What follows
such a heading is a constraint however it is worded ("AWS_PROFILE=acme-staging-admin,
region eu-west-1", "tests on iPhone 15 sim, iOS 17.5"): the user has said what it is.
Read by :mod:`extractors.dialogue.constraints` where its other rules read nothing.
"""

from __future__ import annotations

import bisect

import regex

from extractors.dialogue.constraint_patterns import WITHDRAW
from extractors.records import ConstraintSubtype
from extractors.text.guard import rx
from extractors.text.lists import headed_items
from extractors.text.sentences import sentences, span_at
from extractors.text.spans import merged

_I = regex.IGNORECASE

#: A heading that calls what follows it the rules of the task: on a line of its own over
#: a list ("Ground rules:", "rules, please stick to them:", "**Constraints**:") or before
#: the rules in its own sentence ("rules: no new dependencies, and it goes on a branch").
#: What follows is constraints however it is worded ("AWS_PROFILE=acme-staging, region
#: eu-west-1", "tests on the iPhone 15 simulator"): the user has said what it is.
RULES_HEADING = rx(
    r"^\W*(?:(?:ground|house|hard|some|a|few|couple|of|two|three|four|five|my|our|the|"
    r"important|strict|one)\s+){0,3}(?:rules?|constraints?|requirements?|restrictions?|"
    r"conditions?|guidelines?|non[- ]negotiables?|must[- ]haves?)\b(?:\*\*)?"
    # what may follow the noun: "..., please stick to them", "... from our side"
    r"(?:,[^:\n]{0,40}|\s+(?:for|from|on|of|in|to)\s[^:\n]{0,30})?:[*_]*", _I,
    linear=True)
#: A listed rule's subtype by its words: a ban, a wish, else a requirement.
_BAN = rx(r"\b(?:don['’]?t|do\s+not|never|no|not|nothing|without|stays?|keep)\b", _I, linear=True)
_WISH = rx(r"\b(?:prefer(?:ably)?|rather|ideally|if\s+possible|please|pls)\b", _I, linear=True)
#: What a listed rule ends with that is no part of it: an aside in brackets ("use that
#: (tfenv is installed)") and the closing punctuation.
_ASIDE = rx(r"(?:\s*\([^()\n]{0,80}\))?[\s.;,!]*$", linear=True)
#: The parts of a rules sentence ("rules: no new deps, don't touch alembic/, and it goes
#: on a branch"), each without its "and"; a part that gives a reason is none.
_PART = rx(r"[^,;]+", linear=True)
_AND = rx(r"^(?:and|or|also|plus)\s+", _I, linear=True)
_REASON = rx(r"^(?:because|since|as|which|otherwise|so\s+that|that['’]?s|it['’]?s|its)\b", _I,
             linear=True)


def _heading_line(line: str) -> bool:
    """Whether ``line`` is a rules heading on its own ("Ground rules:")."""
    m = RULES_HEADING.match(line)
    return m is not None and not line[m.end():].strip()


def _rule_spans(text: str) -> list[tuple[int, int]]:
    """Where the user states rules by calling them so: the first sentence of each item
    under a rules heading (a later one is mostly its reason: "UI suite takes 25 min"),
    and each part of a sentence that opens with "rules:"."""
    bounds = sentences(text)  # no sentence crosses a line, so an item's first one is here
    spans = []
    for start, end in headed_items(text, _heading_line):
        _, first_end = span_at(bounds, start)
        spans.append((start, min(first_end, end)))
    for start, end in bounds:
        sentence = text[start:end]
        m = RULES_HEADING.match(sentence)
        if m is None or not sentence[m.end():].strip():
            continue
        for part in _PART.finditer(sentence, m.end()):
            words = part.group().lstrip()
            joined = _AND.match(words)
            words = words[joined.end():] if joined else words
            if words and not _REASON.match(words):
                spans.append((start + part.end() - len(words), start + part.end()))
    return spans


def stated_rules(text: str, taken_spans: list[tuple[int, int]]
                 ) -> list[tuple[int, int, ConstraintSubtype]]:
    """The (start, end, subtype) of each rule the user stated as such (:func:`_rule_spans`)
    that overlaps none of ``taken_spans`` (what other rules read, pasted block lines)."""
    taken = merged(taken_spans)
    starts = [s for s, _ in taken]
    out: list[tuple[int, int, ConstraintSubtype]] = []
    last = -1
    for s, e in sorted(_rule_spans(text)):
        aside = _ASIDE.search(text[s:e])  # always matches (at the end at least)
        e = s + aside.start() if aside else e
        rule = text[s:e]
        before = bisect.bisect_left(starts, e) - 1  # the last found span starting before e
        if e - s < 3 or s < last or rule.endswith("?") or WITHDRAW.search(rule) \
                or (before >= 0 and taken[before][1] > s):
            continue
        out.append((s, e, ConstraintSubtype.PROHIBITION if _BAN.search(rule) else
                    ConstraintSubtype.PREFERENCE if _WISH.search(rule) else
                    ConstraintSubtype.REQUIREMENT))
        last = e
    return out
