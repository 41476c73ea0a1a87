"""An optional extractor that fills a domain schema with a model, for what the rules miss.

:class:`LLMSchemaExtractor` sends the schema's pinned fields and the numbered turns to any
OpenAI-compatible chat-completions endpoint through instructor, and asks for
:class:`Quotes`: per value, the field, the turn it is quoted from and the exact words.

The grounding rule: a value is kept only if its text (surrounding whitespace and quote
marks stripped) occurs verbatim (``str.find``, first occurrence) in the text of the turn it
cites. The kept :class:`~schemas.base.Pinned` is built from the turn itself (its text is
``turn_text[start:end]``, its record ``llm:{turn}:{start}-{end}``), never from the model's
words. Anything else (empty text, an unknown field, a turn that does not exist, words the
turn does not contain) becomes a :class:`Rejection` and is logged: the model can add
recall, never invent a value. :func:`merge` then fills only what the rules left empty.

A failed call (HTTP error, timeout, a reply that stays malformed after the retries) does
not raise: :meth:`LLMSchemaExtractor.extract` returns an :class:`LLMResult` with ``error``
set and nothing found.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from extractors.llm_client import Endpoint
from extractors.values.amounts import money_value
from schemas.base import Binding, DomainState, Pinned

log = logging.getLogger(__name__)

#: A turn as the extractor takes it: (turn number, role, text).
Turn = tuple[int, str, str]

#: Quote marks a model may wrap its quote in (stripped before the verbatim check).
QUOTE_MARKS = "\"'`“”‘’«»"

SYSTEM_PROMPT = """You extract facts from a conversation into the fields listed below.
For every value, return the field name, the number of the turn it comes from, and the \
EXACT words of that turn (copy them character for character; do not paraphrase, \
normalize, translate or combine turns). A value that is not quoted verbatim from the \
turn you cite is discarded. Leave out anything you cannot quote. A list field may have \
several quotes; any other field takes one.

Fields:
{fields}"""


class Quote(BaseModel):
    """One value as the model must return it."""

    field: str
    turn: int
    text: str


class Quotes(BaseModel):
    quotes: list[Quote]


@dataclass(frozen=True)
class Rejection:
    """A quote that was not kept, and why."""

    field: str
    turn: int
    text: str
    reason: str


@dataclass
class LLMResult:
    """Grounded values per field (in turn then position order) and the rejected quotes."""

    found: dict[str, list[Pinned]] = field(default_factory=dict)
    rejected: list[Rejection] = field(default_factory=list)
    error: str | None = None


def describe(name: str, binding: Binding, description: str | None = None) -> str:
    """One prompt line for a field: name, one value or a list, and what it holds."""
    if not description:
        what = " or ".join(binding.kinds)
        if binding.subtypes:
            what += f" ({', '.join(binding.subtypes)})"
        if binding.labels:
            what += f" about {' or '.join(binding.labels)}"
        description = f"a {what}"
    shape = "a list, one quote per item" if binding.pick == "all" else "one value"
    required = ", required" if binding.required else ""
    return f"- {name} ({shape}{required}): {description}"


def _is_question(binding: Binding) -> bool:
    return binding.kinds[0] == "question"


def _pinned(name: str, binding: Binding, turn: int, text: str, start: int, end: int
            ) -> Pinned:
    kind = binding.kinds[0]
    span = text[start:end]
    # Amounts and commitments carry their money value, as the rules' records do.
    value = money_value(span) if kind in ("amount", "commitment") else None
    return Pinned(text=span, turn=turn, value=value, kind=kind,
                  subtype=binding.subtypes[0] if binding.subtypes else "llm",
                  status="open" if _is_question(binding) else "active",
                  label=name.replace("_", " "), records=[f"llm:{turn}:{start}-{end}"],
                  turns=[turn])


def ground(schema: type[DomainState], turns: Sequence[Turn], quotes: Sequence[Quote]
           ) -> LLMResult:
    """Keep the quotes found verbatim in the turn they cite; reject (and log) the rest."""
    bindings = schema.bindings()
    texts: dict[int, str] = {}
    for number, _role, text in turns:
        texts.setdefault(number, text)
    spans: dict[tuple[str, int, int, int], Pinned] = {}
    rejected: list[Rejection] = []
    for quote in quotes:
        needle = quote.text.strip().strip(QUOTE_MARKS).strip()
        reason: str | None = None
        start = -1
        if quote.field not in bindings:
            reason = "unknown field"
        elif quote.turn not in texts:
            reason = "no such turn"
        elif not needle:
            reason = "empty text"
        else:
            start = texts[quote.turn].find(needle)
            if start < 0:
                reason = f"not found verbatim in turn {quote.turn}"
        if reason is not None:
            rejection = Rejection(quote.field, quote.turn, quote.text, reason)
            if rejection not in rejected:
                rejected.append(rejection)
                log.warning("llm quote rejected (%s): %s @ turn %s: %r", reason,
                            quote.field, quote.turn, quote.text)
            continue
        key = (quote.field, quote.turn, start, start + len(needle))
        if key not in spans:
            spans[key] = _pinned(quote.field, bindings[quote.field], quote.turn,
                                 texts[quote.turn], start, start + len(needle))
    found: dict[str, list[Pinned]] = {}
    for name in bindings:
        keys = sorted(k for k in spans if k[0] == name)
        if keys:
            found[name] = [spans[k] for k in keys]
    return LLMResult(found=found, rejected=rejected)


class LLMSchemaExtractor:
    """Fill a schema's fields from a model behind an OpenAI-compatible endpoint, grounded."""

    name = "llm"

    def __init__(self, *, base_url: str | None = None, model: str | None = None,
                 api_key: str | None = None, mode: str = "JSON", temperature: float = 0.0,
                 max_retries: int = 1, timeout: float = 60.0):
        endpoint = Endpoint.of("LLMSchemaExtractor", base_url, model, api_key)
        self.base_url, self.model = endpoint.base_url, endpoint.model
        self._client = endpoint.client(mode=mode, timeout=timeout)
        self.temperature = temperature
        self.max_retries = max_retries

    def messages(self, schema: type[DomainState], turns: Sequence[Turn]
                 ) -> list[dict[str, Any]]:
        """The chat messages the model is sent for ``schema`` over ``turns``."""
        fields = [describe(name, binding, schema.model_fields[name].description)
                  for name, binding in schema.bindings().items()]
        lines = [f"[turn {number}] {role}: {text}" for number, role, text in turns]
        return [{"role": "system", "content": SYSTEM_PROMPT.format(fields="\n".join(fields))},
                {"role": "user", "content": "Conversation:\n" + "\n".join(lines)}]

    def extract(self, schema: type[DomainState], turns: Sequence[Turn]) -> LLMResult:
        """Ask the model and ground its quotes; a failed call sets ``error`` (never raises)."""
        if not turns or not schema.bindings():
            return LLMResult()
        try:
            reply = self._client.chat.completions.create(
                model=self.model, response_model=Quotes,
                messages=self.messages(schema, turns),  # type: ignore[arg-type]
                temperature=self.temperature, max_retries=self.max_retries)
        except Exception as exc:  # any model, server or validation failure
            cause = exc.__cause__ if isinstance(exc.__cause__, Exception) else exc
            detail = " ".join(str(cause).split())[:300]  # instructor's error wraps the last
            error = f"{type(cause).__name__}: {detail}" if detail else type(cause).__name__
            log.warning("llm extraction failed for %s: %s", schema.__name__, error)
            return LLMResult(error=error)
        return ground(schema, turns, reply.quotes)


def merge(state: DomainState, result: LLMResult) -> DomainState:
    """Fill only what the rules left empty: a single field that is None takes the first
    grounded value; a list field gets the grounded values that do not overlap (one text
    containing the other) any item it already has; ``missing`` is recomputed."""
    schema = type(state)
    updates: dict[str, Any] = {}
    missing: list[str] = []
    for name, binding in schema.bindings().items():
        current = getattr(state, name)
        values = result.found.get(name, [])
        if binding.pick == "all":
            items = list(current)
            for value in values:
                if not any(value.text in item.text or item.text in value.text
                           for item in items):
                    items.append(value)
            if len(items) > len(current):
                updates[name] = current = items
        elif current is None and values:
            updates[name] = current = values[0]
        if binding.required and not current:
            missing.append(binding.missing_line(name))
    return state.model_copy(update={**updates, "missing": missing})
