"""Scratchpad: pin the facts that matter in LLM agent conversations, verbatim.

>>> from scratchpad import Scratchpad
>>> pad = Scratchpad("scratchpad.db")            # doctest: +SKIP
>>> pad.ingest("refund-42", messages)            # doctest: +SKIP
>>> print(pad.render("refund-42"))               # doctest: +SKIP
"""

from scratchpad.errors import (
    InputError,
    ScratchpadError,
    TurnConflictError,
    UnknownExtractorError,
    UnknownThreadError,
)
from scratchpad.messages import Message, read_messages
from scratchpad.records import Event, Kind, Money, Record, Status

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
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # The pipeline imports the extractors package, which imports scratchpad.records;
    # loading it lazily lets either package be imported first.
    if name in ("Scratchpad", "IngestResult"):
        from scratchpad import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'scratchpad' has no attribute {name!r}")
