"""The task: what the user first asks the agent to do.

"Please fix the flaky upload test", "Can you add retry logic to the uploader?", "I need
you to bump lodash to 4.17.21": the opening request frames the whole session, and in a
long one it is the first thing a rolling summary blurs. Only the user's first turn with
text is read, and in it the first sentence that asks for work:

* "can/could/would/will you (please) <verb>", "please <verb>", "I need/want/'d like you
  to <verb>", "help me <verb>", "I need help with", "we need <something>";
* or a sentence that opens with a work verb in the imperative ("Fix ...", "Add ...",
  "Refactor ...", "Investigate ...").

Kind ``note``, subtype ``requested``, role user; the span is the sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind, NoteSubtype
from extractors.text.clauses import statements
from extractors.text.guard import rx

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: Below every commitment rule's score: where a clause is also an offer, a grant or a
#: promise, that reading wins the merge.
SCORE = 0.5
NAME = "requests.regex.v1"
_F = regex.IGNORECASE | regex.V0
_VERBS = (
    "add|adjust|audit|build|bump|change|check|clean|convert|create|debug|delete|deploy|"
    "diagnose|document|downgrade|drop|enable|disable|extract|figure|find|fix|get|handle|"
    "implement|improve|investigate|look|make|merge|migrate|move|optimi[sz]e|patch|port|"
    "profile|refactor|reduce|remove|rename|replace|repair|reproduce|resolve|restore|"
    "revert|review|rewrite|run|set|sort|speed|split|support|switch|test|track|troubleshoot|"
    "update|upgrade|write")
ASK = rx(
    rf"\b(?:(?:can|could|would|will)\s+you\s+(?:please\s+|help\s+(?:me\s+)?|also\s+)?|please\s+|"
    rf"(?:I|we)\s+(?:need|want|would\s+like|['’]d\s+like)\s+(?:you|your\s+help)\s+to\s+|"
    rf"^(?:(?:I|we)\s+)?need\s+to\s+(?={_VERBS}\b)|help\s+me\s+(?:to\s+)?|(?:I|we)\s+need\s+help\s+(?:with|to)\s+|"
    rf"(?:I|we)\s+(?:need|want|would\s+like|['’]d\s+like)\s+to\s+(?={_VERBS}\b)|"
    rf"we\s+(?:need|want)\s+(?!to\b|you\b|help\b)(?:a\s+|an\s+|the\s+)?[\w-]+\s+\w+|"
    rf"your\s+task\s+is\s+to\s+|the\s+task\s+is\s+to\s+)(?:\w+\b)", _F, linear=True)
IMPERATIVE = rx(rf"^(?:{_VERBS})\b(?!\s+(?:you|I|we)\b)", _F, linear=True)


class Requests:
    """Pin the user's opening request."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        if turn.role != "user" or "user" in turn.previous_by_role:
            return []
        text = turn.text
        for start, end, _ in statements(text):
            sentence = text[start:end]
            if ASK.search(sentence) or IMPERATIVE.match(sentence):
                if len(sentence) < 8:
                    continue
                return [Candidate.of(text, start, end, kind=Kind.NOTE,
                                     subtype=NoteSubtype.REQUESTED, score=SCORE,
                                     extractor=NAME, why="the opening request", label=None)]
        return []
