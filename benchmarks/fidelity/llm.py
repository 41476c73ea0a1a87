"""Plain chat calls to the benchmark's model: the rolling summary and the QA probe.

Both conditions' summaries, and every answer, come from the same model on the same
server, at temperature 0 (greedy), so the runs are repeatable on one machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import openai


@dataclass
class Model:
    """A model behind an OpenAI-compatible endpoint."""

    base_url: str
    name: str
    timeout: float = 600.0

    def __post_init__(self) -> None:
        self._client = openai.OpenAI(base_url=self.base_url, api_key="not-needed",
                                     timeout=self.timeout, max_retries=0)

    def chat(self, messages: list[dict[str, Any]], max_tokens: int) -> str:
        """The model's reply to ``messages`` (greedy, at most ``max_tokens``)."""
        reply = self._client.chat.completions.create(
            model=self.name, messages=messages,  # type: ignore[arg-type]
            max_tokens=max_tokens, temperature=0.0, seed=0)
        return reply.choices[0].message.content or ""
