"""The lossy summary that sits below the carried-forward block, and who writes it.

A summary has a fixed schema (:class:`Summary`): what was asked, what was decided and
why, where values came from, what was tried and failed, what is still open, the next
step, and the turns it covers. A :class:`Summarizer` fills it from the turns being
compacted away, told what the block already pins (``SummaryRequest.pinned``) so it does
not restate those facts as prose; the block is re-attached whatever the summary says.

:class:`DeterministicSummarizer` needs no model: it copies the sentences that carry each
field (the first request, decision and failure sentences, the last stated next step),
each with its turn, so its output is extractive and the same for the same turns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import regex
from pydantic import BaseModel, ConfigDict, Field

from extractors.text.guard import rx
from extractors.text.sentences import sentences

_DECISION = rx(
    r"\b(?:decided|decision|going\s+with|go\s+with|went\s+with|switched?\s+to|chose|"
    r"opted|instead\s+of|rather\s+than|the\s+fix\s+(?:is|was)|root\s+cause|settled\s+on|"
    r"we['’]ll\s+use|let['’]s\s+use)\b", regex.IGNORECASE)
_WHY = rx(r"\b(?:because|since|so\s+that|as\s+it|due\s+to)\b.*", regex.IGNORECASE)
_FAILED = rx(
    r"\b(?:fail(?:s|ed|ing|ure)?|error|didn['’]t\s+work|doesn['’]t\s+work|still\s+(?:fails|"
    r"broken|failing)|no\s+luck|timed?\s+out|exception|traceback|not\s+found|denied)\b|"
    r"\"exit_code\"\s*:\s*[1-9]", regex.IGNORECASE)
_NEXT = rx(r"\b(?:next|then\s+I['’]ll|I['’]ll|I\s+will|we['’]ll|let\s+me)\b",
                      regex.IGNORECASE)
#: Longest sentence a deterministic field copies (longer ones are cut with an ellipsis).
MAX_SENTENCE = 240
#: Most items a deterministic list field keeps (the newest win when there are more).
MAX_ITEMS = 12


class Decision(BaseModel):
    """A decision taken in the covered turns, with its reason when one was given."""

    model_config = ConfigDict(frozen=True)

    decision: str
    why: str | None = None
    turn: int | None = None


class Established(BaseModel):
    """A value the conversation settled, and where it came from."""

    model_config = ConfigDict(frozen=True)

    value: str
    source: str


class Summary(BaseModel):
    """The fixed summary schema. Lists are in the order things happened."""

    model_config = ConfigDict(frozen=True)

    request: str = ""
    decisions: list[Decision] = Field(default_factory=list)
    established: list[Established] = Field(default_factory=list)
    tried_and_failed: list[str] = Field(default_factory=list)
    open: list[str] = Field(default_factory=list)
    next_step: str | None = None
    turns_covered: tuple[int, int] | None = None

    def followed_by(self, newer: Summary) -> Summary:
        """Carry this summary forward: ``newer`` (of later turns) appends to the lists,
        replaces the next step, keeps the first request, and widens the turns covered."""
        first = self.turns_covered or newer.turns_covered
        last = newer.turns_covered or self.turns_covered
        return Summary(
            request=self.request or newer.request,
            decisions=self.decisions + newer.decisions,
            established=self.established + newer.established,
            tried_and_failed=self.tried_and_failed + newer.tried_and_failed,
            open=newer.open or self.open,
            next_step=newer.next_step or self.next_step,
            turns_covered=(first[0], last[1]) if first and last else None,
        )

    def folded(self, fits: Callable[[Summary], bool]) -> Summary:
        """Return this summary cut down until ``fits`` accepts it: the oldest decisions,
        established values and failures go first (the request, what is open and the next
        step stay). How a running summary is kept under its cap."""
        folded = self
        while not fits(folded):
            lists = {name: list(getattr(folded, name))
                     for name in ("decisions", "established", "tried_and_failed")}
            longest = max(lists, key=lambda name: len(lists[name]))
            if not lists[longest]:
                break
            lists[longest].pop(0)
            folded = folded.model_copy(update=lists)
        return folded

    def render(self) -> str:
        """Return the summary as the text that sits below the block (same summary, same
        bytes). Empty fields are left out; lists grow at their end."""
        span = (f" (turns {self.turns_covered[0]}-{self.turns_covered[1]})"
                if self.turns_covered else "")
        # What changes from one compaction to the next (the turns covered, the next step)
        # comes last, so the text before it stays a stable prefix for provider caches.
        lines = ["=== Summary of earlier turns ==="]
        if self.request:
            lines.append(f"Request: {self.request}")
        for d in self.decisions:
            why = f" (why: {d.why})" if d.why else ""
            lines.append(f"Decided: {d.decision}{why}{_at(d.turn)}")
        lines.extend(f"Established: {e.value} (from {e.source})" for e in self.established)
        lines.extend(f"Tried and failed: {t}" for t in self.tried_and_failed)
        lines.extend(f"Open: {o}" for o in self.open)
        if self.next_step:
            lines.append(f"Next step: {self.next_step}")
        lines.append(f"=== End of summary{span} ===")
        return "\n".join(lines)


def _at(turn: int | None) -> str:
    return f" [turn {turn}]" if turn is not None else ""


class SummaryTurn(BaseModel):
    """One turn as a summarizer sees it."""

    model_config = ConfigDict(frozen=True)

    turn: int
    role: str
    text: str
    tool_name: str | None = None


class SummaryRequest(BaseModel):
    """What a summarizer is given: the turns to summarize (those not covered by the
    previous summary), what the carried-forward block already pins, and the previous
    summary (which the new one is appended to, not rewritten)."""

    model_config = ConfigDict(frozen=True)

    turns: list[SummaryTurn]
    pinned: str = ""
    previous: Summary | None = None


@runtime_checkable
class Summarizer(Protocol):
    """Writes a :class:`Summary` of the request's turns. May raise; compaction then
    returns the conversation unchanged."""

    name: str

    def summarize(self, request: SummaryRequest) -> Summary: ...


def _clip(sentence: str) -> str:
    sentence = " ".join(sentence.split())
    return sentence if len(sentence) <= MAX_SENTENCE else sentence[:MAX_SENTENCE - 1] + "…"


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentences(text)]


class DeterministicSummarizer:
    """Fill the schema by copying the sentences that carry each field; no model."""

    name = "deterministic"

    def summarize(self, request: SummaryRequest) -> Summary:
        """Return the extractive summary of ``request.turns``."""
        turns = request.turns
        if not turns:
            return Summary()
        ask = next((t for t in turns if t.role == "user" and t.text.strip()), None)
        decisions: list[Decision] = []
        failed: list[str] = []
        next_step: str | None = None
        for t in turns:
            if t.role == "tool":
                if _FAILED.search(t.text):
                    first = _sentences(t.text)[:1] or [t.text]
                    failed.append(f"{t.tool_name or 'tool'}: {_clip(first[0])}{_at(t.turn)}")
                continue
            for sentence in _sentences(t.text):
                if sentence in request.pinned:
                    continue  # the block carries it verbatim already
                if t.role == "assistant" and _DECISION.search(sentence):
                    why = _WHY.search(sentence)
                    decisions.append(Decision(decision=_clip(sentence),
                                              why=_clip(why.group()) if why else None,
                                              turn=t.turn))
                elif t.role == "assistant" and _FAILED.search(sentence):
                    failed.append(f"{_clip(sentence)}{_at(t.turn)}")
                elif t.role == "assistant" and _NEXT.search(sentence):
                    next_step = f"{_clip(sentence)}{_at(t.turn)}"
        request_text = ""
        if ask is not None and not (request.previous and request.previous.request):
            request_text = f"{_clip(' '.join(_sentences(ask.text)[:2]))}{_at(ask.turn)}"
        return Summary(
            request=request_text,
            decisions=decisions[-MAX_ITEMS:],
            tried_and_failed=failed[-MAX_ITEMS:],
            next_step=next_step,
            turns_covered=(turns[0].turn, turns[-1].turn),
        )
