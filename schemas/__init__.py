"""Domain schemas: pydantic models (a refund, a ticket, a coding session) whose fields
are filled from a thread's pins. See :mod:`schemas.base` for declaring your own.

Shipped so far: :class:`schemas.refund.Refund`. ``SHIPPED`` maps each schema's name (as
``scratchpad state --schema`` takes it) to its class.
"""

from __future__ import annotations

from schemas.base import DomainState, Pinned, pin
from schemas.refund import Refund

SHIPPED: dict[str, type[DomainState]] = {Refund.schema_name: Refund}

__all__ = ["SHIPPED", "DomainState", "Pinned", "Refund", "pin"]
