"""Severity and priority levels of a ticket or incident: "P1", "Sev 2", "severity: high",
"urgent priority".

A level is pinned only where the text says what it grades: a code that is a level by
its shape ("P2", "SEV-1", "S3") next to a severity or priority word, or a severity or
priority word with its grade ("priority: high", "severity level 2", "critical
severity"). "Urgent" alone is tone, not a level. Kind ``identifier``, subtype
``severity``, label ``severity`` or ``priority``; ``value["level"]`` is the grade as
written, upper-cased ("P2", "HIGH").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind
from extractors.text import guard
from extractors.text.guard import rx

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "levels.regex.v1"
SCORE = 0.85
#: Grades a level can have: a number, a word, or a code ("P2", "SEV-1").
_CODE = r"(?:P|SEV)[-\ ]?[0-4]"
_GRADE = (rf"(?:{_CODE}|S[0-4]|[0-4]|one|two|three|four|critical|blocker|urgent|high|medium|"
          r"moderate|normal|low|minor|major)")
_WORD = r"(?:sev(?:erity)?|priority|prio|urgency|impact)"
#: "priority: high", "severity level 2", "Sev 1", "priority of P2", "set priority to urgent".
_AFTER = (rf"(?P<word>{_WORD})(?:\ level)?(?:\s*[:=]\s*|\s+(?:is|was|of|as|to|at|set\ to)\s+"
          rf"|\s*[-\ ]?)(?:(?:a|an)\s+)?[`'\"]?(?P<grade>{_GRADE})")
#: "high priority", "critical severity", "P1 incident": a grade before what it grades.
_BEFORE = (rf"(?P<grade2>{_GRADE})[-\ ](?P<word2>{_WORD}|incident|ticket|issue|case|outage|"
           r"bug)")
PATTERN = rx(rf"(?<![\w-])(?:{_AFTER}|{_BEFORE}|(?P<code>{_CODE}))(?![\w-])",
                        regex.IGNORECASE | regex.V0, linear=True)
_BARE_CODE = rx(_CODE, regex.IGNORECASE)
#: What makes a bare "P1" a level: the turn is about tickets or incidents.
_CONTEXT = rx(
    r"\b(?:sev(?:erity)?|priority|prio|urgen\w*|incident|ticket|case|outage|escalat\w*|"
    r"sla|triage|on-?call|page[ds]?|(?:resolution|response)\s+target|"
    r"(?:rais|lower|bump|downgrad|upgrad)(?:e|ed|es|ing)\s+(?:[\w-]+\s+){0,3}to)\b",
    regex.IGNORECASE, linear=True)
#: Before a thing (not a severity word), only a code or a strong word grades it: "P1
#: incident", "critical bug", but not "high incident rate" or "normal case".
_GRADES_A_THING = rx(rf"{_CODE}|critical|blocker|urgent", regex.IGNORECASE)
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4"}


def _level(grade: str) -> str:
    grade = " ".join(grade.split()).upper()
    return _NUMBER_WORDS.get(grade.lower(), grade)


def _grade(m: regex.Match[str], text: str) -> tuple[str, str] | None:
    """(grade, label) of a match, or None when it grades nothing."""
    if m.group("code"):
        return (m.group("code"), "priority") if _CONTEXT.search(text) else None
    if m.group("word"):
        word, grade = m.group("word").lower(), m.group("grade")
    else:
        word, grade = m.group("word2").lower(), m.group("grade2")
        if not guard.match(_WORD, word, regex.IGNORECASE) and not _GRADES_A_THING.fullmatch(
                grade):
            return None
    label = "priority" if word.startswith(("prio", "urgen")) or grade.upper().startswith(
        "P") else "severity"
    return grade, label


class Levels:
    """Pin severity and priority levels."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        text = turn.text
        if not _CONTEXT.search(text) and not _BARE_CODE.search(text):
            return []
        out = []
        for m in PATTERN.finditer(text):
            found = _grade(m, text)
            if found is None:
                continue
            level = _level(found[0])
            out.append(Candidate.of(text, m.start(), m.end(), kind=Kind.IDENTIFIER,
                                    subtype="severity", score=SCORE, extractor=NAME,
                                    why="severity or priority level", label=found[1],
                                    value={"level": level, "normalized": level}))
        return out
