"""The two ways of compacting a conversation that the benchmark compares.

**A, rolling summary** (the seeds' baseline): everything older than the recent turns is
sent to the model with an instruction to summarize the conversation so far, and the
reply replaces those turns. On the next round the model re-summarizes its own summary
with the turns that have aged out since. No pins.

**B, Scratchpad**: :func:`scratchpad.compaction.compact` with the same model writing the
summary (:class:`scratchpad.instructor_summarizer.InstructorSummarizer`): the
carried-forward block, the summary below it, the recent turns verbatim. Between rounds
the Scratchpad store keeps the thread, as a harness would.

Both keep the same recent turns (the last ``keep_recent`` messages, and the latest user
message when it is older) and may put the same number of tokens in front of them: A's
summary may be as long as B's block budget plus B's summary cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchmarks.fidelity.context import Message, message_text
from benchmarks.fidelity.llm import Model
from scratchpad import Scratchpad
from scratchpad.compaction import BLOCK_SHARE, compact
from scratchpad.cut import cut_point, is_user_text
from scratchpad.instructor_summarizer import InstructorSummarizer
from scratchpad.messages import parse_message
from scratchpad.tokens import message_tokens, messages_tokens

ROLLING_PROMPT = (
    "You summarize the earlier part of a conversation between a user and an assistant "
    "(with tool calls) so that the assistant can continue the work without it. Write the "
    "summary as plain text, at most {words} words.")
SUMMARY_MARK = "Summary of the conversation so far:\n"


@dataclass(frozen=True)
class Settings:
    """The compaction settings both conditions share."""

    window: int
    trigger: float
    keep_recent: int = 6

    @property
    def front_tokens(self) -> int:
        """What may sit in front of the recent turns: B's block budget + summary cap."""
        return int(self.window * BLOCK_SHARE) + self.window // 8


def tokens_of(messages: list[Message]) -> int:
    """The messages' token count, as compaction counts it."""
    return messages_tokens([message_tokens(parse_message(m)) for m in messages])


def _is_summary(message: Message) -> bool:
    return message.get("role") == "system" and str(message.get("content") or ""
                                                   ).startswith(SUMMARY_MARK)


def rolling(model: Model, messages: list[Message], settings: Settings
            ) -> tuple[list[Message], str | None]:
    """Condition A: (the compacted messages, the new summary or None when under the
    trigger). ``messages`` may start with A's own earlier output."""
    if tokens_of(messages) <= settings.trigger * settings.window:
        return messages, None
    systems = [m for m in messages if m.get("role") == "system" and not _is_summary(m)]
    previous = next((str(m["content"])[len(SUMMARY_MARK):] for m in messages
                     if _is_summary(m)), None)
    turns = [m for m in messages if m.get("role") != "system"]
    # As compaction does: the last messages verbatim, and the latest user message kept
    # apart (right after the summary) when it is older than them.
    start = cut_point(turns, settings.keep_recent, keep_last_user=False)
    if start == 0:
        return messages, None
    last_user = max((i for i, m in enumerate(turns) if is_user_text(m)), default=None)
    pinned_user = [turns[last_user]] if last_user is not None and last_user < start else []
    lines = [f"{m.get('role')}: {message_text(m)}" for i, m in enumerate(turns[:start])
             if i != last_user]
    prior = f"The summary so far:\n{previous}\n\n" if previous else ""
    words = max(40, settings.front_tokens // 3)
    summary = model.chat([
        {"role": "system", "content": ROLLING_PROMPT.format(words=words)},
        {"role": "user", "content": prior + "Conversation to summarize:\n" + "\n".join(lines)},
    ], max_tokens=settings.front_tokens).strip()
    return systems + [{"role": "system", "content": SUMMARY_MARK + summary}] \
        + pinned_user + turns[start:], summary


class Pinned:
    """Condition B for one conversation: a Scratchpad thread compacted round by round."""

    def __init__(self, model: Model, thread: str, settings: Settings, mode: str):
        self.pad = Scratchpad(":memory:")
        self.thread = thread
        self.settings = settings
        self.summarizer = InstructorSummarizer(base_url=model.base_url, model=model.name,
                                               mode=mode, timeout=model.timeout,
                                               max_retries=2, temperature=0.0,
                                               max_tokens=max(256, settings.window // 4))
        self.timeout = model.timeout

    def compact(self, messages: list[Message]) -> tuple[list[Message], dict[str, Any]]:
        """(the compacted messages, compaction's log)."""
        result = compact(messages, thread=self.thread, window=self.settings.window,
                         trigger=self.settings.trigger, keep_recent=self.settings.keep_recent,
                         summarizer=self.summarizer, pad=self.pad, timeout=self.timeout)
        return [dict(m) for m in result.messages], dict(result.log) | {
            "block": result.block}

    def pins(self) -> list[tuple[int, str]]:
        """(turn, text) of every record the thread holds (what the block can carry)."""
        return [(r.turn, r.text) for r in self.pad.records(self.thread)]

    def close(self) -> None:
        self.pad.close()
