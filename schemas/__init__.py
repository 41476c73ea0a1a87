"""Domain schemas: pydantic models (a refund, a ticket, a coding session) whose fields
are filled from a thread's pins.

Not written yet: the package exists so the distribution's layout is final. The README's
"Not yet" section says what is planned.
"""
