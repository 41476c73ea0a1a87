"""Exceptions. Every failure a user can cause is a :class:`ScratchpadError`
whose message is one line naming the bad value and the fix."""

from __future__ import annotations

from extractors.errors import (
    ModelLoadError,
    PatternError,
    ScratchpadError,
    UnknownExtractorError,
)

__all__ = ["InputError", "ModelLoadError", "PatternError", "ScratchpadError",
           "TurnConflictError", "UnknownExtractorError", "UnknownThreadError"]


class InputError(ScratchpadError):
    """Messages that cannot be read: bad JSON, unknown role, missing content, ..."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        super().__init__(f"{where}{message}")
        self.source = source
        self.line = line


class TurnConflictError(ScratchpadError):
    """An already-stored turn arrived again with different content."""

    def __init__(self, thread: str, turn: int):
        super().__init__(
            f"Turn {turn} of thread {thread!r} differs from the stored turn {turn}; "
            f"the thread's history was edited. Rebuild it with "
            f"'scratchpad ingest FILE --thread {thread} --rebuild' "
            f"(Python: pad.ingest(thread, messages, rebuild=True))."
        )
        self.thread = thread
        self.turn = turn


class UnknownThreadError(ScratchpadError):
    """A thread id the store has never seen."""

    def __init__(self, thread: str, known: list[str]):
        shown = ", ".join(known[:10]) + (", ..." if len(known) > 10 else "")
        super().__init__(
            f"No thread {thread!r} in this database. Known threads: {shown or '(none)'}."
        )
        self.thread = thread
