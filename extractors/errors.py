"""Exceptions. Every failure a user can cause is a :class:`ScratchpadError` whose
message is one line naming the bad value and the fix. The root class and the errors the
extractor layer raises live here, at the bottom of the layers; :mod:`scratchpad.errors`
is their public face and adds the core's own."""

from __future__ import annotations


class ScratchpadError(Exception):
    """Root of every error Scratchpad raises on purpose."""


class UnknownExtractorError(ScratchpadError):
    """An extractor name that is not registered."""

    def __init__(self, name: str, valid: list[str]):
        super().__init__(
            f"Unknown extractor {name!r}. Available: {', '.join(valid)}. "
            f"Run 'scratchpad extractors'."
        )
        self.name = name


class ModelLoadError(ScratchpadError):
    """A spaCy model named explicitly could not be loaded."""


class PatternError(ScratchpadError):
    """A user pattern that cannot be used: bad regex, bad field, duplicate name."""

    def __init__(self, problem: str, *, name: str | None = None, source: str | None = None):
        where = f"{source}: " if source else ""
        which = f"pattern {name!r}: " if name else ""
        super().__init__(f"{where}{which}{problem}")
        self.name = name
        self.source = source


class DuplicateNameError(ScratchpadError):
    """A second extractor or resolver registered under a name already taken."""

    def __init__(self, what: str, name: str):
        super().__init__(f"{what.capitalize()} name {name!r} is already registered; "
                         f"choose another name or use a fresh Registry.")
        self.name = name
