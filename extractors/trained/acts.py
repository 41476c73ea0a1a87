"""Sentence-level dialogue acts: a spaCy ``textcat_multilabel`` model (bag of words and
bigrams, a few MB) that scores each sentence of a user or assistant turn for what it does.

========== =====================================================================
label      the sentence ...
========== =====================================================================
OFFER      puts terms forward ("I can refund €40 or send a new one")
PROMISE    binds someone to a future act ("you'll see the credit in 3 days")
GRANT      announces something done for the other party ("I've waived the fee")
DECLINE    refuses or says it cannot be done ("that isn't something we can do")
AGREE      accepts what was offered ("yes, the refund please")
ASK        asks for information ("can I have your account number?")
CONSTRAINT states how the task must be done (a user's requirement or prohibition)
========== =====================================================================

The model reads a normalized sentence (:func:`normalize`: lower case, digits as ``9``)
so that it learns shapes, not figures, after a token naming who says it (``zzuser`` or
``zzagent``): "I'll send it tonight" binds the user in a user turn and the agent in an
agent turn, and only users state constraints. It is trained by :mod:`extractors.trained.train`
(``make train``) and loaded once per process, lazily, from ``acts_model/`` beside this
module; without that directory :func:`load` returns None and the rules run alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

LABELS = ("OFFER", "PROMISE", "GRANT", "DECLINE", "AGREE", "ASK", "CONSTRAINT")
MODEL_DIR = Path(__file__).with_name("acts_model")
#: Longest sentence scored, in characters (the model reads words; more says nothing new).
MAX_CHARS = 600


#: The word that tells the model who says the sentence (no English word looks like it).
ROLE_TOKEN = {"user": "zzuser", "assistant": "zzagent"}


def normalize(sentence: str, role: str | None = None) -> str:
    """What the model reads of a sentence: lower case, every digit ``9``, after the
    speaker's token when ``role`` is given."""
    text = "".join("9" if ch.isdigit() else ch for ch in sentence[:MAX_CHARS].lower())
    return f"{ROLE_TOKEN[role]} {text}" if role in ROLE_TOKEN else text


@lru_cache(maxsize=1)
def load(path: Path = MODEL_DIR) -> Language | None:
    """The trained pipeline, or None when it is not there (the rules then run alone)."""
    if not (path / "config.cfg").is_file():
        return None
    import spacy

    return spacy.load(path)


#: Sentences whose scores a scorer remembers: the act extractor and its review read the
#: same sentence of a turn, and short replies ("Thanks!") recur across turns.
MEMO_SIZE = 4096


class ActScorer:
    """Scores sentences with the shipped act model."""

    def __init__(self, nlp: Language) -> None:
        self._nlp = nlp
        self._memo: dict[str, dict[str, float]] = {}

    @classmethod
    def shipped(cls) -> ActScorer | None:
        """The scorer of the model shipped with the package, or None without one."""
        nlp = load()
        return cls(nlp) if nlp is not None else None

    def scores(self, sentences: Sequence[str], role: str | None = None
               ) -> list[dict[str, float]]:
        """Each sentence's score per label (0 to 1), in order; a sentence already scored
        (as the model reads it) is not scored again."""
        read = [normalize(s, role) for s in sentences]
        fresh = list(dict.fromkeys(r for r in read if r not in self._memo))
        if len(self._memo) + len(fresh) > MEMO_SIZE:
            self._memo.clear()
            fresh = list(dict.fromkeys(read))
        for text, doc in zip(fresh, self._nlp.pipe(fresh), strict=True):
            self._memo[text] = {label: float(doc.cats.get(label, 0.0)) for label in LABELS}
        return [dict(self._memo[r]) for r in read]
