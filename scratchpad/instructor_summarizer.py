"""A summarizer that asks a model, through instructor, for the fixed summary schema.

Any OpenAI-compatible chat-completions endpoint works (a local llama.cpp or vLLM server,
or a hosted one): ``InstructorSummarizer(base_url=..., model=...)``. instructor validates
the reply against :class:`scratchpad.summary.Summary` and retries a bounded number of
times; the HTTP client has its own timeout and no retries of its own, and
``max_tokens`` caps each reply (a small model asked for JSON can otherwise write until
its context is full; a reply cut short is invalid, so compaction keeps the history).
The model is told what the carried-forward block already pins, and not to restate it:
the block is re-attached by compaction whatever the summary says.
"""

from __future__ import annotations

from typing import Any

from extractors.llm_client import Endpoint
from scratchpad.summary import Summary, SummaryRequest

SYSTEM_PROMPT = """You summarize the earlier part of a conversation between a user and an \
assistant (with tool calls) so that the assistant can continue the work without it.
Fill the schema: request (what the user wants), decisions (with why), established \
(value -> where it came from), tried_and_failed, open, next_step, turns_covered.
Be brief and concrete. Do NOT restate anything the pinned block below already holds: \
those facts are carried forward verbatim next to your summary.

Pinned block:
{pinned}"""


class InstructorSummarizer:
    """Summaries from a model behind an OpenAI-compatible endpoint, via instructor."""

    name = "instructor"

    def __init__(self, *, base_url: str | None = None, model: str | None = None,
                 api_key: str | None = None, mode: str = "JSON", temperature: float = 0.1,
                 max_retries: int = 1, timeout: float = 60.0, max_tokens: int | None = None):
        endpoint = Endpoint.of("InstructorSummarizer", base_url, model, api_key)
        self.base_url, self.model = endpoint.base_url, endpoint.model
        self._client = endpoint.client(mode=mode, timeout=timeout)
        self.temperature = temperature
        self.max_retries = max_retries
        self.max_tokens = max_tokens

    def messages(self, request: SummaryRequest) -> list[dict[str, Any]]:
        """The chat messages the model is sent for ``request``."""
        lines = [f"[turn {t.turn}] {t.role}{f' ({t.tool_name})' if t.tool_name else ''}: "
                 f"{t.text}" for t in request.turns]
        previous = (f"\n\nThe summary so far (append to it, do not repeat it):\n"
                    f"{request.previous.render()}" if request.previous else "")
        return [{"role": "system", "content": SYSTEM_PROMPT.format(pinned=request.pinned)},
                {"role": "user", "content": "Turns to summarize:\n" + "\n".join(lines)
                 + previous}]

    def summarize(self, request: SummaryRequest) -> Summary:
        """Ask the model; raise on any failure (compaction then keeps the history)."""
        limit = {"max_tokens": self.max_tokens} if self.max_tokens else {}
        summary = self._client.chat.completions.create(
            model=self.model, response_model=Summary, messages=self.messages(request),
            temperature=self.temperature, max_retries=self.max_retries, **limit)
        summary = Summary.model_validate(summary.model_dump())  # not instructor's subclass
        if request.turns and summary.turns_covered is None:
            summary = summary.model_copy(update={
                "turns_covered": (request.turns[0].turn, request.turns[-1].turn)})
        return summary
