"""Domain schemas: pydantic models (a refund, a ticket, a coding session) whose fields
are filled from a thread's pins. See :mod:`schemas.base` for declaring your own.

Shipped: :class:`schemas.refund.Refund` (``refund``),
:class:`schemas.ticket.SupportTicket` (``ticket``) and
:class:`schemas.coding.CodingSession` (``coding``). ``SHIPPED`` maps each schema's name
(as ``scratchpad state --schema`` takes it) to its class.
"""

from __future__ import annotations

from schemas.base import DomainState, Pinned, pin
from schemas.coding import CodingSession
from schemas.refund import Refund
from schemas.ticket import SupportTicket

SHIPPED: dict[str, type[DomainState]] = {
    cls.schema_name: cls for cls in (Refund, SupportTicket, CodingSession)}

__all__ = ["SHIPPED", "CodingSession", "DomainState", "Pinned", "Refund", "SupportTicket",
           "pin"]
