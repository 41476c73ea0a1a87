"""The one place a model client is made: any OpenAI-compatible chat-completions endpoint
through instructor, with the HTTP client's own timeout and no retries of its own
(instructor's bounded retries are the only ones). Used by the instructor summarizer and
the LLM schema extractor."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Endpoint:
    """Where the model is: base URL and model name, from the arguments or the environment
    (``SCRATCHPAD_LLM_BASE_URL``, ``SCRATCHPAD_LLM_MODEL``, ``SCRATCHPAD_LLM_API_KEY``)."""

    base_url: str
    model: str
    api_key: str

    @classmethod
    def of(cls, who: str, base_url: str | None, model: str | None,
           api_key: str | None) -> Endpoint:
        url = base_url or os.environ.get("SCRATCHPAD_LLM_BASE_URL")
        if not url:
            raise ValueError(f"{who} needs base_url (or SCRATCHPAD_LLM_BASE_URL)")
        return cls(base_url=url,
                   model=model or os.environ.get("SCRATCHPAD_LLM_MODEL") or "default",
                   api_key=api_key or os.environ.get("SCRATCHPAD_LLM_API_KEY") or "not-needed")

    def client(self, *, mode: str, timeout: float) -> Any:
        """An instructor client in ``mode`` ("JSON", "TOOLS", ...)."""
        import instructor
        import openai

        raw = openai.OpenAI(base_url=self.base_url, timeout=timeout, max_retries=0,
                            api_key=self.api_key)
        return instructor.from_openai(raw, mode=instructor.Mode[mode.upper()])
