"""Retire identifiers that a later turn releases, cancels or replaces.

"I've cancelled booking BK-1", a tool result ``{"released": "HLD-30417"}``,
"INC-7 was replaced by INC-8": when a new turn mentions an identifier the thread
already holds and a cancellation cue governs that mention -- the cue comes just before
it (at most a few words, no clause break between) or just after it in a passive ("...
was cancelled") -- every live record of that identifier becomes ``superseded``, with
the cue and the mention as evidence. A cue elsewhere in the sentence ("I'm releasing
the hold and adding a note for +353 ...") changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Change, TurnView
from extractors.records import Kind, Record, Status
from extractors.text.guard import rx

if TYPE_CHECKING:
    from spacy.tokens import Doc

CUES = rx(
    r"\b(?:releas(?:e|ed|es|ing)|cancel(?:l?ed|l?ing|s|lation)?|void(?:ed)?|expired?|"
    r"revok(?:e|ed|ing)|invalidat(?:e|ed|ing)|withdr(?:aw|awn|ew)|delet(?:e|ed|ing)|"
    r"replac(?:e|ed|ing)|supersed(?:e|ed|ing)|no longer (?:valid|active|needed))\b",
    regex.IGNORECASE,
)
#: What may stand between a cue and its mention: a few words, quotes or a colon (JSON
#: keys, "Released: X"), but no clause break.
GAP_AFTER_CUE = rx(
    r"""(?:[\s"':=]+|\b(?!(?:and|but|or|then|while|for|to)\b)[\w-]+\b){0,8}""",
    regex.IGNORECASE,
)
GAP_BEFORE_CUE = rx(
    r"""[\s"':,]*(?:(?:is|was|were|are|has|have|had|been|be|got|now|just|already|also|"""
    r"""successfully|being)\s+){0,4}""",
    regex.IGNORECASE,
)
#: Most words a cue may stand before its mention.
MAX_WORDS_BETWEEN = 4


def identity(record: Record) -> str:
    """Return what makes two identifier mentions the same identifier."""
    value = record.value or {}
    normalized = value.get("normalized")
    return str(normalized) if normalized else record.text.upper()


def governing_cue(text: str, start: int, end: int) -> regex.Match[str] | None:
    """Return the cancellation cue that governs the mention ``text[start:end]``."""
    for cue in CUES.finditer(text, max(0, start - 60), start):
        gap = text[cue.end():start]
        if (GAP_AFTER_CUE.fullmatch(gap)
                and len(gap.split()) <= MAX_WORDS_BETWEEN):
            return cue
    after = GAP_BEFORE_CUE.match(text, end, min(len(text), end + 60))
    if after is not None:
        return CUES.match(text, after.end())
    return None


class IdentifierReleases:
    """Mark identifiers superseded when a later turn releases or cancels them."""

    name: ClassVar[str] = "identifiers.releases.v1"
    kinds: ClassVar[frozenset[Kind]] = frozenset({Kind.IDENTIFIER})

    def resolve(self, turn: TurnView, doc: Doc | None, new: list[Record],
                live: list[Record]) -> list[Change]:
        if not new:
            return []  # only a mention in this turn can release something
        changes: list[Change] = []
        released: set[str] = set()
        by_key: dict[str, list[Record]] = {}
        for record in live:
            by_key.setdefault(identity(record), []).append(record)
        known = {key for key, records in by_key.items() if records[0].turn < turn.number}
        for mention in new:
            key = identity(mention)
            if key in released or key not in known:
                continue
            cue = governing_cue(turn.text, mention.start, mention.end)
            if cue is None:
                continue
            released.add(key)
            start, end = min(cue.start(), mention.start), max(cue.end(), mention.end)
            for record in by_key[key]:
                changes.append(Change.status(record, Status.SUPERSEDED, turn, start, end,
                                             note=f"{cue.group(0).lower()} in turn {turn.number}"))
        return changes
