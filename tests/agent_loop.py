"""A scripted agent loop for the framework adapters' tests: a chat model (LangChain's
own ``BaseChatModel``) that calls the lookup tool for each user message and then
answers, recording every input it gets; the agreement falls in its sixth call."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool

from scratchpad.messages import parse_message
from scratchpad.render import HEADER
from scratchpad.tokens import message_tokens, messages_tokens

WINDOW = 700
FILLER = ("The courier portal shows the parcel moving between depots, with the usual "
          "scans at each hub and nothing unusual in the notes. ") * 3
AGREED = "€930"


class ScriptedModel(BaseChatModel):
    """Calls the lookup tool for each user message, then answers; records its input."""

    calls: list[list[BaseMessage]] = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:  # type: ignore[override]
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None,
                  run_manager: Any = None, **kwargs: Any) -> ChatResult:
        self.calls.append(list(messages))
        last = messages[-1]
        n = len(self.calls)
        if isinstance(last, HumanMessage):
            reply = AIMessage("", tool_calls=[{"name": "lookup", "args": {"order": "A-77215"},
                                               "id": f"call_{n}"}])
        elif n == 6:  # the reply to the user's third message: the agreement
            reply = AIMessage(f"Agreed: I will refund {AGREED} to your card for A-77215.")
        else:
            reply = AIMessage(f"Update {n}: {FILLER}")
        return ChatResult(generations=[ChatGeneration(message=reply)])


@tool
def lookup(order: str) -> str:
    """Look an order up."""
    return f"Order {order}: in transit. {FILLER}"



def user_text(k: int) -> str:
    """The k-th user message (from 0): a long opening, the acceptance third, then news."""
    return (f"Can you refund the espresso machine? {FILLER}" if k == 0 else
            "Yes, please go ahead with that refund." if k == 2 else f"Any news? ({k})")


def tokens(messages: list[BaseMessage]) -> int:
    """What the request costs, counted as compaction counts it (to err high)."""
    return messages_tokens([message_tokens(parse_message(m)) for m in messages])


def check_calls(calls: list[list[BaseMessage]], window: int) -> int:
    """Every call fits ``window``, carries the agreed refund (in the block) after the
    agreement, and holds no tool result without its call; returns how many calls had the
    block."""
    compacted = 0
    for n, messages in enumerate(calls, 1):
        assert tokens(messages) <= window, n
        text = "\n".join(str(m.content) for m in messages if m.type == "system")
        compacted += HEADER in text
        if n > 6:
            assert HEADER in text and AGREED in text, n
        called = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
        assert all(m.tool_call_id in called for m in messages if isinstance(m, ToolMessage)), n
    return compacted
