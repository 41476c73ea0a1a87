"""Compaction: what a harness calls before each model request.

``compact(messages, pad=..., thread=..., window=N)`` ingests the conversation, and when
it no longer fits ``trigger × window`` tokens returns the system prompt(s) unchanged,
then one message holding the carried-forward block with the running summary below it,
then the most recent turns verbatim, in the input's format (OpenAI or Anthropic).

* The cut falls between whole turns (:mod:`scratchpad.cut`): no tool result without its
  call, the latest user message kept.
* The output can be fed back with new messages appended, again and again, and so can a
  history a framework rewrote: the input goes through :meth:`Scratchpad.sync`, so the
  block message (:func:`is_block`) and a framework's summary are neither extracted nor
  summarized (they stay in front, verbatim, except an earlier block, which the new one
  replaces), the kept turns are matched to their stored turn numbers by content hash, new
  messages continue the numbering, and only turns the running summary does not cover yet
  are summarized (the new part is appended to it; see
  :meth:`scratchpad.summary.Summary.followed_by`).
* The block comes from the store, never from the summarizer, so a pinned value never
  lives only in the summary. If the summarizer raises or runs past ``timeout``, the
  messages come back unchanged and the log says why; so do they when the compacted
  context would not be smaller than the messages (a short thread dense with pinned facts,
  compacted at a low trigger): compaction never makes a context bigger.
* The block has a budget of its own, ``block_tokens`` (by default a quarter of the
  window, :data:`BLOCK_SHARE`): past it, the block leaves out its least salient lines
  and says how many (:mod:`scratchpad.render`).
* Everything is counted to err high (:func:`scratchpad.tokens.message_tokens`: text,
  whole tool calls, per-message overheads). If the block and the recent turns still
  exceed the window, compaction keeps fewer recent turns (down to the latest user
  message), then drops the summary, then gives the block what is left. Only when the
  system prompt and the latest user message alone leave no room for the block's frame
  does the output exceed the window: then ``log["over_window"]`` is true.

Each call returns a :class:`Compaction` whose ``log`` is the JSON line the CLI prints.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from scratchpad import tokens
from scratchpad.cut import cut_point, is_user_text
from scratchpad.formats import as_chat
from scratchpad.history import block_flags
from scratchpad.history import is_block as is_block  # (re-exported: how to spot the block)
from scratchpad.messages import parse_message
from scratchpad.pipeline import Scratchpad
from scratchpad.summary import (
    DeterministicSummarizer,
    Summarizer,
    Summary,
    SummaryRequest,
    SummaryTurn,
)
from scratchpad.writing import Progress

#: Seconds a summarizer may take before compaction gives up and returns the input.
DEFAULT_TIMEOUT = 60.0
#: The block's default budget, as a share of the window (``block_tokens`` overrides it).
BLOCK_SHARE = 0.25


@dataclass
class Compaction:
    """The messages to send, and what compaction did (the CLI's JSON log line).

    For adapters that keep a framework's own message objects: ``kept`` are the indices
    of the input messages that are sent, in the order sent, the block message (when there
    is one) before ``kept[block_at]``, and ``block`` is its text.
    """

    messages: list[Any]
    log: dict[str, Any] = field(default_factory=dict)
    kept: list[int] = field(default_factory=list)
    block: str | None = None
    block_at: int | None = None

    @property
    def changed(self) -> bool:
        """Whether the messages differ from the input."""
        return bool(self.log.get("compacted"))


def anthropic(messages: Sequence[Mapping[str, Any]]) -> bool:
    """True when the messages use Anthropic's content blocks for tools."""
    for m in messages:
        content = m.get("content")
        if isinstance(content, list) and any(
                isinstance(p, Mapping) and p.get("type") in ("tool_use", "tool_result")
                for p in content):
            return True
    return False


def _block_message(text: str, as_anthropic: bool) -> dict[str, Any]:
    if as_anthropic:  # Anthropic takes the system prompt apart: the block is a user turn
        head, _, rest = text.partition("\n")
        return {"role": "user", "content": [{"type": "text", "text": head},
                                            {"type": "text", "text": rest}]}
    return {"role": "system", "content": text}


def stored_summary(pad: Scratchpad, thread: str) -> Summary | None:
    """``thread``'s running summary, as the last compaction left it (None before one)."""
    stored = pad.store.summary(thread)
    return Summary.model_validate_json(stored) if stored else None


def _chat(message: Any, line: int) -> dict[str, Any]:
    """A copy of ``message`` as a chat-message dict; one of no known format fails as
    the message reader says."""
    converted = as_chat(message)
    if not isinstance(converted, Mapping):
        parse_message(message, source="messages", line=line)  # raises the reader's error
    return dict(converted)


def _summarize(summarizer: Summarizer, request: SummaryRequest, timeout: float) -> Summary:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(summarizer.summarize, request).result(timeout=timeout)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


#: Why a compaction that would not shrink the context hands the messages back.
_NOT_SMALLER = ("not smaller: the compacted context would be {after} tokens, the messages "
                "are {before}")

def compact(
    messages: Sequence[Mapping[str, Any]],
    *,
    thread: str,
    window: int,
    trigger: float = 0.6,
    keep_recent: int = 6,
    summarizer: Summarizer | None = None,
    pad: Scratchpad | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    summary_cap: int | None = None,
    block_tokens: int | None = None,
    encoding: str | None = None,
    format: Literal["auto", "openai", "anthropic"] = "auto",
    progress: Progress | None = None,
) -> Compaction:
    """Return ``messages`` compacted to fit ``window`` tokens, or unchanged while they fit
    ``trigger × window`` (see the module docstring).

    ``messages`` may be of any format :func:`scratchpad.formats.as_chat` reads (chat
    dicts, Responses items, LangChain objects); the ones kept come back as given. The
    block message is a system message, or with ``format="anthropic"`` (the default when
    the messages use Anthropic's tool blocks) a user message of text blocks.

    ``pad`` keeps the thread between calls; without one, an in-memory store reads the
    whole conversation on every call (and cannot carry a summary forward). The running
    summary is folded (its oldest items dropped) once it passes ``summary_cap`` tokens,
    by default an eighth of the window. The block gets at most ``block_tokens``, by
    default a quarter of the window. ``progress`` is told (turns stored, turns to store)
    as the new turns are stored.
    """
    if window <= 0 or not 0 < trigger <= 1 or keep_recent < 0:
        raise ValueError("window must be positive, trigger in (0, 1], keep_recent >= 0")
    if block_tokens is not None and block_tokens <= 0:
        raise ValueError("block_tokens must be positive")
    if pad is None:
        with Scratchpad(":memory:") as scratch:
            return compact(messages, thread=thread, window=window, trigger=trigger,
                           keep_recent=keep_recent, summarizer=summarizer, pad=scratch,
                           timeout=timeout, summary_cap=summary_cap,
                           block_tokens=block_tokens, encoding=encoding, format=format,
                           progress=progress)
    cap = summary_cap if summary_cap is not None else window // 8
    started = time.perf_counter()
    summarizer = summarizer or DeterministicSummarizer()
    originals = list(messages)
    given = [_chat(m, i) for i, m in enumerate(originals, 1)]
    as_anthropic = anthropic(given) if format == "auto" else format == "anthropic"
    synced = pad.sync(thread, originals, progress=progress)
    index = {id(m): i for i, m in enumerate(given)}
    block_at = block_flags(given)
    # The system prompt, and what no stored turn stands for (a framework's summary, a
    # rewritten turn), stay in front, verbatim; an earlier block gives way to the new one.
    systems = [m for m, n, b in zip(given, synced.numbers, block_at, strict=True)
               if n is None and not b]
    turns = [m for m, n in zip(given, synced.numbers, strict=True) if n is not None]
    numbers = [n for n in synced.numbers if n is not None]
    # Turns cost what the store counted when they were ingested (never re-tokenized);
    # only the system prompt, an earlier block message and turns stored before the
    # counting rules changed are counted here.
    stored = pad.store.turn_tokens(thread, numbers)
    turn_costs = [stored[n] if n in stored else _count(m, encoding)
                  for n, m in zip(numbers, turns, strict=True)]
    other = [m for m, n in zip(given, synced.numbers, strict=True) if n is None]
    before = tokens.messages_tokens(
        [_count(m, encoding) for m in other] + turn_costs)
    log: dict[str, Any] = {"thread": thread, "tokens_before": before, "window": window,
                           "compacted": False, "summarizer": summarizer.name,
                           "summarizer_calls": 0}

    def unchanged(reason: str, **more: Any) -> Compaction:
        log.update(tokens_after=before, reason=reason, **more,
                   seconds=round(time.perf_counter() - started, 4))
        return Compaction(originals, log, kept=list(range(len(originals))))

    if before <= trigger * window or not turns:
        return unchanged("under the trigger" if turns else "no turns to compact")

    previous = stored_summary(pad, thread)
    covered = previous.turns_covered[1] if previous and previous.turns_covered else 0
    start = cut_point(turns, keep_recent, keep_last_user=False)
    # The latest user message stays, verbatim, even when the recent turns after it are
    # too many to keep: it goes right after the block, before the recent turns.
    last_user = max((i for i, m in enumerate(turns) if is_user_text(m)), default=None)
    pinned_user = [turns[last_user]] if last_user is not None and last_user < start else []
    names = _tool_names(turns)
    # Only turns the running summary does not cover yet are summarized.
    fresh = [SummaryTurn(turn=n, role=str(m.get("role")), text=parse_message(m).text,
                         tool_name=names.get(str(m.get("tool_call_id"))))
             for i, (n, m) in enumerate(zip(numbers[:start], turns[:start], strict=True))
             if n > covered and i != last_user]
    budget = block_tokens if block_tokens is not None else int(window * BLOCK_SHARE)
    block = pad.render(thread, max_tokens=budget)
    head_costs = [_count(m, encoding) for m in systems] + (
        [turn_costs[last_user]] if pinned_user and last_user is not None else [])
    # Within the window nothing is shrunk, and a summary only adds: when the block and
    # the kept turns alone already cost what the messages do, no summarizer call can help.
    least = tokens.messages_tokens(
        head_costs + [_count({"role": "system", "content": block}, encoding)]
        + turn_costs[start:])
    if before <= least <= window:
        return unchanged(_NOT_SMALLER.format(after=least, before=before))
    summary = previous
    if fresh:
        log["summarizer_calls"] = 1
        try:
            new = _summarize(summarizer, SummaryRequest(turns=fresh, pinned=block,
                                                        previous=previous), timeout)
        except Exception as exc:  # any failure: never an error string as a summary
            return unchanged(f"summarizer failed: {exc!r}"[:300])
        summary = previous.followed_by(new) if previous else new
        if tokens.count(summary.render(), encoding) > cap:
            summary = summary.folded(lambda s: tokens.count(s.render(), encoding) <= cap)
            log["summary_folded"] = True
        pad.store.save_summary(thread, summary.model_dump_json(),
                               summary.turns_covered[1] if summary.turns_covered else covered)

    shrunk: list[str] = []
    text, final_block, after, kept = _assemble(pad, thread, block, head_costs, summary,
                                               turns[start:], turn_costs[start:], window,
                                               encoding, shrunk)
    if after >= before:  # a short thread dense with facts: the block would cost more
        return unchanged(_NOT_SMALLER.format(after=after, before=before),
                         over_window=before > window)
    pins = sum(1 for line in final_block.splitlines() if line and not line.startswith("==="))
    first_kept = len(turns) - len(kept)
    kept_numbers = ([numbers[last_user]] if pinned_user and last_user is not None else []) \
        + numbers[first_kept:]
    kept_set = set(kept_numbers)
    log.update(compacted=True, tokens_after=after, pins=pins, block_budget=budget,
               block_tokens=tokens.count(final_block, encoding),
               summary_tokens=tokens.count(summary.render(), encoding) if summary else 0,
               kept_turns=kept_numbers, dropped_turns=[n for n in numbers if n not in kept_set],
               shrunk=shrunk, over_window=after > window,
               seconds=round(time.perf_counter() - started, 4))
    head = [index[id(m)] for m in systems]
    after_block = [index[id(m)] for m in pinned_user + kept]
    return Compaction([originals[i] for i in head] + [_block_message(text, as_anthropic)]
                      + [originals[i] for i in after_block], log, kept=head + after_block,
                      block=text, block_at=len(head))


def _tool_names(turns: list[dict[str, Any]]) -> dict[str, str]:
    """Each tool call's function name, by call id."""
    return {str(call.get("id")): str((call.get("function") or {}).get("name"))
            for m in turns for call in m.get("tool_calls") or [] if isinstance(call, Mapping)}


def _count(message: Mapping[str, Any], encoding: str | None) -> int:
    return tokens.message_tokens(parse_message(message), encoding)


def _assemble(pad: Scratchpad, thread: str, block: str, head_costs: list[int],
              summary: Summary | None, kept: list[dict[str, Any]], kept_costs: list[int],
              window: int, encoding: str | None, shrink: list[str]
              ) -> tuple[str, str, int, list[dict[str, Any]]]:
    """Build the block message's text and fit it with the kept turns in ``window``:
    fewer recent turns first, then no summary, then a block that leaves out its least
    salient lines. Returns (message text, block, tokens, kept turns)."""
    summary_text = summary.render() if summary else ""

    def text_of(block_text: str, with_summary: bool) -> str:
        return block_text + ("\n\n" + summary_text if with_summary and summary_text else "")

    def total(text: str, turns: list[dict[str, Any]]) -> int:
        costs = kept_costs[len(kept_costs) - len(turns):] if turns else []
        return tokens.messages_tokens(
            head_costs + [_count({"role": "system", "content": text}, encoding)] + costs)

    text = text_of(block, True)
    while kept and total(text, kept) > window:
        # the oldest turns that may go; never the latest user message, nor a tool result
        # without its call (a call and its result go together)
        start = next((s for k in range(len(kept) - 1, -1, -1)
                      if (s := cut_point(kept, k)) > 0), 0)
        if start == 0:
            break
        kept = kept[start:]
        if "fewer recent turns" not in shrink:
            shrink.append("fewer recent turns")
    if total(text, kept) > window and summary_text:
        text = text_of(block, False)
        shrink.append("summary dropped")
    if total(text, kept) > window:
        budget = window - total("", kept)
        block = pad.render(thread, max_tokens=max(budget, 1))
        text = block
        shrink.append("block lines dropped")
    return text, block, total(text, kept), kept
