"""Scratchpad: pin the facts that matter in LLM agent conversations, verbatim.

>>> from scratchpad import Scratchpad
>>> pad = Scratchpad("scratchpad.db")            # doctest: +SKIP
>>> pad.ingest("refund-42", messages)            # doctest: +SKIP
>>> print(pad.render("refund-42"))               # doctest: +SKIP
"""

from importlib.metadata import version

from scratchpad.errors import (
    InputError,
    ScratchpadError,
    TurnConflictError,
    UnknownExtractorError,
    UnknownThreadError,
)
from scratchpad.messages import Message, read_messages
from scratchpad.pipeline import IngestResult, Scratchpad
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
#: The installed distribution's version (pyproject.toml is its one source).
__version__ = version("scratchpad")

