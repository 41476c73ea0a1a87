"""Scratchpad: pin the facts that matter in LLM agent conversations, verbatim.

>>> from scratchpad import Scratchpad
>>> pad = Scratchpad("scratchpad.db")            # doctest: +SKIP
>>> pad.ingest("refund-42", messages)            # doctest: +SKIP
>>> print(pad.render("refund-42"))               # doctest: +SKIP
"""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from scratchpad.errors import (
    InputError,
    ScratchpadError,
    TurnConflictError,
    UnknownExtractorError,
    UnknownThreadError,
)

__all__ = [
    "Event",
    "IngestResult",
    "InputError",
    "Kind",
    "Message",
    "Money",
    "Record",
    "Scratchpad",
    "ScratchpadError",
    "Status",
    "TurnConflictError",
    "UnknownExtractorError",
    "UnknownThreadError",
    "read_messages",
]
#: The installed distribution's version (pyproject.toml is its one source).
__version__ = version("scratchpad")

if TYPE_CHECKING:
    from scratchpad.messages import Message, read_messages
    from scratchpad.pipeline import Scratchpad
    from scratchpad.records import Event, Kind, Money, Record, Status
    from scratchpad.writing import IngestResult

#: Names imported at first use: the pipeline pulls in the store and the extractors, the
#: records and messages are pydantic models; ``scratchpad --help`` needs none of them.
_LAZY = {"IngestResult": "scratchpad.writing", "Scratchpad": "scratchpad.pipeline",
         **dict.fromkeys(("Message", "read_messages"), "scratchpad.messages"),
         **dict.fromkeys(("Event", "Kind", "Money", "Record", "Status"), "scratchpad.records")}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'scratchpad' has no attribute {name!r}")

