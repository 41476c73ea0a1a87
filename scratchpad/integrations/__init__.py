"""Adapters for agent frameworks, each in its own module and behind its own extra:

* :mod:`scratchpad.integrations.langchain`: ``ScratchpadMiddleware``, a LangChain v1
  agent middleware (extra ``langchain``);
* :mod:`scratchpad.integrations.langgraph`: ``pre_model_hook`` for LangGraph's prebuilt
  ``create_react_agent`` (extra ``langgraph``);
* :mod:`scratchpad.integrations.openai_agents`: ``ScratchpadInputFilter`` for
  ``RunConfig.call_model_input_filter`` and ``ScratchpadSession`` over any SDK session
  (extra ``openai-agents``);
* :mod:`scratchpad.integrations.llama_index`: ``ScratchpadMemoryBlock`` for LlamaIndex
  ``Memory`` (extra ``llama-index``);
* :mod:`scratchpad.integrations.anthropic`: ``compact_for_anthropic`` for the Messages
  API's ``system`` and ``messages`` (no extra).

Each adapter syncs the framework's history into a pad (:meth:`scratchpad.Scratchpad.sync`)
and hands the model a compacted request (:func:`scratchpad.compaction.compact`), built
from the framework's own message objects; the framework's stored history is never
changed.
"""
