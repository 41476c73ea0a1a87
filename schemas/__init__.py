"""Domain schemas: pydantic models (a refund, a ticket, a coding session) whose fields
are filled from a thread's pins. See :mod:`schemas.base` for declaring your own.

Shipped: :class:`schemas.refund.Refund` (``refund``),
:class:`schemas.ticket.SupportTicket` (``ticket``) and
:class:`schemas.coding.CodingSession` (``coding``). ``SHIPPED`` maps each schema's name
(as ``scratchpad state --schema`` takes it) to its class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemas.base import DomainState, Pinned, pin
    from schemas.coding import CodingSession
    from schemas.refund import Refund
    from schemas.ticket import SupportTicket

    SHIPPED: dict[str, type[DomainState]]

#: The shipped schemas' names, in ``SHIPPED``'s order, known without importing them (the
#: command line's help lists them); ``tests/test_schemas.py`` holds it to ``SHIPPED``.
SHIPPED_NAMES = ("refund", "ticket", "coding")
#: Where each exported name lives, imported at first use (pydantic models cost start-up).
_LAZY = {**dict.fromkeys(("DomainState", "Pinned", "pin"), "schemas.base"),
         "Refund": "schemas.refund", "SupportTicket": "schemas.ticket",
         "CodingSession": "schemas.coding"}


def __getattr__(name: str) -> Any:
    import importlib

    if name == "SHIPPED":
        value: Any = {cls.schema_name: cls for cls in (
            __getattr__("Refund"), __getattr__("SupportTicket"), __getattr__("CodingSession"))}
    elif name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'schemas' has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = ["SHIPPED", "CodingSession", "DomainState", "Pinned", "Refund", "SupportTicket",
           "pin"]
