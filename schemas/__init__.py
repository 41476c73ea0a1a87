"""Domain schemas: pydantic models (a refund, a ticket, a coding session) whose fields
are filled from a thread's pins. The machinery lands here; see the README roadmap."""
