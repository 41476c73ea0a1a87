"""What a new turn offers as an answer, sentence by sentence (:class:`Reply`): the
statements that may answer, its yes or no, a deferral, a withdrawal, failure reports, and
the readings the answer linker (:mod:`extractors.dialogue.answers`) asks of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from extractors.dialogue.answer_cues import (
    AFFIRM,
    ASK_BACK,
    FAILURE,
    HEDGE,
    NEGATION,
    NUMBER,
    REFERS_BACK,
    VALUE_PATTERNS,
    WITHDRAWAL,
    YES_NO,
)
from extractors.dialogue.question_cues import COURTESY, DEFERRAL, PROPOSAL, QUESTION_MARK
from extractors.dialogue.questions import masked, search, subject_terms
from extractors.text.sentences import sentences


@dataclass(frozen=True)
class Reply:
    """What a new turn offers as an answer, sentence by sentence. Its readings are worked
    out once per turn, however many open questions ask them."""

    text: str
    #: Sentences that may answer: statements with content, and yes/no or "can you ..."
    #: proposals ("How about a two bedroom in Fairfield?"), not asked-back wh-questions.
    statements: tuple[tuple[int, int], ...]
    deferral: tuple[int, int] | None
    withdrawal: tuple[int, int] | None
    failure: bool
    yes_no: tuple[int, int] | None
    #: Sentences reporting a failed action: searched for values only.
    failures: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, text: str) -> Reply:
        """Split ``text`` into the parts an answer linker reads."""
        text = masked(text)
        statements: list[tuple[int, int]] = []
        failures: list[tuple[int, int]] = []
        deferral = withdrawal = yes_no = None
        for start, end in sentences(text):
            sentence = text[start:end]
            if search(DEFERRAL, sentence):
                deferral = deferral or (start, end)
                continue
            if search(WITHDRAWAL, sentence):
                withdrawal = withdrawal or (start, end)
                if yes_no is None and search(YES_NO, sentence):
                    yes_no = (start, end)  # "No, never mind." still says no
                continue
            if search(FAILURE, sentence):
                failures.append((start, end))
                continue
            if QUESTION_MARK.search(sentence) and not search(PROPOSAL, sentence) and (
                    (courtesy := search(COURTESY, sentence)) or ASK_BACK.match(sentence)):
                # a proposal ("What do you think of X?") answers "what else?"; a run-on
                # "the venue is 235 West 46th St, shall I help with anything else?" states
                # before it asks
                head = _head(sentence, courtesy.start()) if courtesy else 0
                if head and (subject_terms(sentence[:head]) or NUMBER.search(sentence[:head])):
                    statements.append((start, start + head))
                continue
            if yes_no is None and search(YES_NO, sentence):
                yes_no = (start, end)
            if subject_terms(sentence) or NUMBER.search(sentence) or yes_no == (start, end):
                statements.append((start, end))
        return cls(text, tuple(statements), deferral, withdrawal, bool(failures), yes_no,
                   tuple(failures))

    def after_failure(self) -> tuple[int, int] | None:
        """The first statement after the reply's failure reports that speaks of what was
        asked about ("They are located at 71 North Street"), if any."""
        last = max(end for _, end in self.failures)
        for start, end in self.statements:
            sentence = self.text[start:end]
            if start >= last and not QUESTION_MARK.search(sentence) \
                    and search(REFERS_BACK, sentence):
                return start, end
        return None

    @cached_property
    def goes_on(self) -> bool:
        """Whether a statement follows the deferral: "One moment... I found 10 films you
        might like" fills a pause, it does not put the answer off."""
        return self.deferral is not None and any(
            start >= self.deferral[1] and not QUESTION_MARK.search(self.text[start:end])
            for start, end in self.statements)

    @cached_property
    def only_asks(self) -> bool:
        """Whether the reply only asks back: it asks a question (not a courtesy), and
        says nothing else of substance ("I'm sure we can find something. Which part of
        town?") and no failure ("Sorry, I couldn't book it, anything else?" closes the
        matter rather than asking about it)."""
        asks = [(s, e) for s, e in sentences(self.text) if QUESTION_MARK.search(self.text[s:e])
                and not search(COURTESY, self.text[s:e])]
        return bool(asks) and not self.failure and self.substantive is None

    @cached_property
    def first(self) -> tuple[int, int] | None:
        """Return the reply's first sentence, whatever it says."""
        return next(iter(sentences(self.text)), None)

    @cached_property
    def substantive(self) -> tuple[int, int] | None:
        """Return the first statement that says more than a bare yes or no."""
        for span in self.statements:
            if span != self.yes_no:
                return span
        if self.yes_no:
            rest = self.text[self.yes_no[0]:self.yes_no[1]]
            match = YES_NO.match(rest)
            tail = rest[match.end():] if match else ""
            if subject_terms(tail) or NUMBER.search(tail):
                return self.yes_no
        return None

    def value(self, expects: str) -> tuple[int, int] | None:
        """Return the span of a statement holding a value of the expected type."""
        pattern = VALUE_PATTERNS.get(expects)
        if pattern is None:
            return None
        for start, end in sorted(self.statements + self.failures):
            if search(pattern, self.text[start:end]):
                return start, end
        return None

    def chosen(self, choices: list[str], strict: bool) -> tuple[tuple[int, int] | None, bool]:
        """Return (span of a picked option, whether an option was turned down)."""
        keys = [subject_terms(c) for c in choices]
        shared = frozenset.intersection(*keys) if keys else frozenset()
        rejected = False
        for start, end in self.statements:
            sentence = self.text[start:end]
            words = subject_terms(sentence)
            if not any((key - shared) & words for key in keys):
                continue
            if search(NEGATION, sentence):
                rejected = True
            elif not search(HEDGE, sentence) and (not strict or search(AFFIRM, sentence)):
                return (start, end), rejected
        return None, rejected

    def overlap(self, subject: frozenset[str], minimum: int = 2) -> tuple[int, int] | None:
        """Return the statement sharing the most subject terms, if enough are shared."""
        best, best_n = None, 0
        for start, end in self.statements:
            n = len(subject & subject_terms(self.text[start:end]))
            if n > best_n:
                best, best_n = (start, end), n
        if best is not None and (best_n >= minimum or best_n / len(subject) >= 0.5):
            return best
        return None


def _head(sentence: str, before: int) -> int:
    """Where the statement ahead of a trailing question clause ends: at the last comma or
    semicolon before ``before``, or 0 when there is none."""
    return max(sentence.rfind(",", 0, before), sentence.rfind(";", 0, before), 0)
