"""Plans that failed: "I'll raise the `TIMEOUT` constant to 30s" becomes a failed
approach when a later turn says "still fails ... not waiting 30s for anything".

A resolver. When a user or assistant turn reports that something did not work
(:data:`FAILED_RESULT`: "still fails", "same error", "no change", "didn't help"), each of the
assistant's earlier plans -- a ``planned`` record (:mod:`extractors.session.plans`), or a
promised, offered or agreed commitment with a verb of change ("raise", "switch", "reuse",
"add", ...), made within :data:`WINDOW` turns -- that shares a number, a code or two
uncommon words with the failing sentence and the one after it (one word, for the latest
plan) is re-read as ``tried``, with the failing sentence as evidence and
``attrs["outcome"] = "failed"``: a plan that failed is a fact of the session, so a
commitment re-read so becomes a ``note`` (:func:`extractors.records.kind_after`). A
promise to send, call or refund is never a plan of this kind, so support promises that
are late are not "failed approaches".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Change, TurnView
from extractors.records import CommitmentSubtype, Kind, NoteSubtype, Record
from extractors.text.clauses import statements
from extractors.text.guard import rx
from extractors.text.lexicon import terms, ties

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "approaches.failed.v1"
#: How many turns back a plan may be and still be what a failure reports on.
WINDOW = 12
PLAN_SUBTYPES = frozenset({CommitmentSubtype.PROMISED, CommitmentSubtype.OFFERED,
                           CommitmentSubtype.AGREED, NoteSubtype.PLANNED})
CHANGE_VERB = rx(
    r"\b(?:raise|lower|bump|increase|decrease|reduce|widen|narrow|add|remove|drop|switch|"
    r"swap|use|reuse|replace|rewrite|refactor|move|make|change|set|unset|pin|unpin|revert|"
    r"downgrade|upgrade|patch|wrap|retry|disable|enable|cache|batch|split|merge|inline|"
    r"extract|try|tweak|adjust|convert|increase|limit|skip|mock|stub|build|run|rerun|"
    r"re-run|restart)\b", regex.IGNORECASE, linear=True)
#: A report that something did not work: "still fails", "still 3/20 failures", "same
#: error", "no real change", "didn't help", "a static utility can't receive the mock".
#: Not the bare "fails" of a design ("fails fast"), nor a refusal ("I can't add that").
FAILED_RESULT = rx(
    r"\bstill\s+(?:[\w/.,-]+\s+){0,4}?(?:fail\w*|flak\w*|errors?|broken|crash\w*|"
    r"times?\s+out|timing\s+out|hangs?|slow|drops?|the\s+same)\b|"
    r"\bsame\s+(?:error|failure|problem|result|exception|crash|thing|timeout)\b|"
    r"\bno\s+(?:real\s+|visible\s+)?(?:change|difference|improvement|luck|effect)\b|"
    r"\b(?:didn['’]?t|did\s+not|doesn['’]?t|does\s+not)\s+(?:help|work|fix|solve|change\s+"
    r"anything|make\s+(?:a|any)\s+difference)\b|\bmade\s+(?:no\s+difference|it\s+worse|"
    r"things\s+worse)\b|\bthat['’]?s\s+the\s+\S+\s+problem\b|"
    r"(?<!\bI\s)(?<!\bwe\s)(?<!\bI\s\w{3,12}\s)\b(?:can['’]?t|cannot)\s+(?:run|work|receive|"
    r"handle|load|be\s+used)\b", regex.IGNORECASE, linear=True)


class FailedApproaches:
    """Re-read the assistant's plans as failed attempts when a later turn says they failed."""

    name: ClassVar[str] = NAME
    kinds: ClassVar[frozenset[Kind]] = frozenset({Kind.COMMITMENT, Kind.NOTE})

    def resolve(self, turn: TurnView, doc: Doc | None, new: list[Record],
                live: list[Record]) -> list[Change]:
        if turn.role == "tool":
            return []
        plans = [r for r in live if r.role == "assistant" and r.subtype in PLAN_SUBTYPES
                 and turn.number - WINDOW <= r.turn < turn.number
                 and (r.subtype == NoteSubtype.PLANNED or CHANGE_VERB.search(r.text))]
        if not plans:
            return []
        text = turn.text
        changes: list[Change] = []
        done: set[str] = set()
        sentences = statements(text)
        for i, (start, end, _) in enumerate(sentences):
            sentence = text[start:end]
            if not FAILED_RESULT.search(sentence):
                continue
            # The failing sentence and the one after it, which often says what failed.
            after = sentences[i + 1][:2] if i + 1 < len(sentences) else (end, end)
            said = terms(sentence) | terms(text[after[0]:after[1]])
            latest = max(p.turn for p in plans)
            for plan in plans:
                # One shared word is enough for the latest plan ("The index made no
                # difference" after "I'll add an index ...").
                if plan.id in done or not ties(said, terms(plan.text),
                                               extra=int(plan.turn == latest)):
                    continue
                done.add(plan.id)
                changes.append(Change(record_id=plan.id, field="subtype",
                                      new=NoteSubtype.TRIED,
                                      evidence_start=start, evidence_end=end,
                                      note=f"failed, turn {turn.number}",
                                      attrs={"outcome": "failed"}))
        return changes
