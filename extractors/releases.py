"""Retire identifiers that a later turn releases, cancels or replaces.

"I'm releasing the hold", a tool result ``{"released": "HLD-30417"}``, "booking
BK-1 was cancelled": when a new turn mentions an identifier the thread already
holds, in the same sentence as a cancellation cue (or as the value of a JSON key
that is one), every live record of that identifier becomes ``superseded``, with the
mention as evidence. A mention without such a cue changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Change, TurnView, register_resolver
from scratchpad.records import Kind, Record, Status

if TYPE_CHECKING:
    from spacy.tokens import Doc

CUES = regex.compile(
    r"\b(?:releas(?:e|ed|es|ing)|cancel(?:l?ed|l?ing|s|lation)?|void(?:ed)?|expired?|"
    r"revok(?:e|ed|ing)|invalidat(?:e|ed|ing)|withdr(?:aw|awn|ew)|delet(?:e|ed|ing)|"
    r"replac(?:e|ed|ing)|supersed(?:e|ed|ing)|no longer (?:valid|active|needed))\b",
    regex.IGNORECASE,
)
#: A sentence boundary: the cue must be in the same sentence as the identifier.
BOUNDARY = regex.compile(r"[.!?;\n]\s|[\n{}\[\]]")
#: How far (characters) around the mention a cue may be, within the sentence.
WINDOW = 80


def identity(record: Record) -> str:
    """Return what makes two identifier mentions the same identifier."""
    value = record.value or {}
    normalized = value.get("normalized")
    return str(normalized) if normalized else record.text.upper()


def _sentence_window(text: str, start: int, end: int) -> tuple[int, int]:
    lo, hi = max(0, start - WINDOW), min(len(text), end + WINDOW)
    before = [m.end() for m in BOUNDARY.finditer(text, lo, start)]
    after = BOUNDARY.search(text, end, hi)
    return (before[-1] if before else lo, after.start() if after else hi)


@register_resolver("identifiers.releases.v1")
class IdentifierReleases:
    """Mark identifiers superseded when a later turn releases or cancels them."""

    name: ClassVar[str] = "identifiers.releases.v1"
    kinds: ClassVar[frozenset[Kind]] = frozenset({Kind.IDENTIFIER})

    def resolve(self, turn: TurnView, doc: Doc | None, new: list[Record],
                live: list[Record]) -> list[Change]:
        changes: list[Change] = []
        released: set[str] = set()
        for mention in new:
            key = identity(mention)
            if key in released:
                continue
            earlier = [r for r in live if identity(r) == key and r.turn < turn.number]
            if not earlier:
                continue
            lo, hi = _sentence_window(turn.text, mention.start, mention.end)
            cue = CUES.search(turn.text, lo, hi)
            if cue is None:
                continue
            released.add(key)
            start, end = min(cue.start(), mention.start), max(cue.end(), mention.end)
            for record in [r for r in live if identity(r) == key]:
                changes.append(Change.status(record, Status.SUPERSEDED, turn, start, end,
                                             note=f"{cue.group(0).lower()} in turn {turn.number}"))
        return changes
