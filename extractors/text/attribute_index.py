"""A faster matcher for spaCy's ``attribute_ruler``: the same matches, found by lookup.

The English pipelines' ``attribute_ruler`` maps each fine-grained tag to its coarse
part of speech and morphology, and fixes a few lemmas ("gonna", "let's"), with about 180
one- and two-token patterns. spaCy runs them through its general ``Matcher``, which
tries every pattern at every token: a fifth of the parse stage's time on a short turn.
Those patterns only test attributes for equality, membership (``IN``, ``NOT_IN``) or a ``REGEX``,
so an index from attribute values to the patterns that want them finds the same
matches in time proportional to the tokens.

:class:`AttributeIndex` replaces only the matching: :meth:`AttributeIndex.__call__`
hands its matches, in the order ``AttributeRuler.match`` returns them, to the ruler's
own ``set_annotations``, so the attributes are written by spaCy's code.
:meth:`AttributeIndex.of` returns None for a ruler with any pattern it does not
understand (an ``OP``, another predicate, another attribute): that ruler runs as it is.
``tests/test_nlp.py`` checks that the matches equal the ruler's on the dev corpus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from extractors.text.guard import Guarded, rx

if TYPE_CHECKING:
    from spacy.pipeline import AttributeRuler
    from spacy.tokens import Doc

#: Token attributes a pattern may test here, as the Matcher reads them
#: (``Doc.to_array`` names; TEXT is ORTH).
ATTRIBUTES = ("ORTH", "LOWER", "NORM", "TAG", "POS", "DEP", "LEMMA", "IS_SPACE")
_ALIASES = {"TEXT": "ORTH"}
_STRING_ATTRIBUTES = frozenset(ATTRIBUTES) - {"IS_SPACE"}
#: Attributes tried first as a pattern's index key: the most selective.
_KEY_ORDER = ("LOWER", "ORTH", "NORM", "LEMMA", "TAG", "POS", "DEP", "IS_SPACE")
#: Strings whose regex answers a test remembers.
MEMO_SIZE = 65_536


@dataclass(frozen=True)
class _Test:
    """One attribute test of one token: equal to, one of, none of, or matching a regex."""

    column: int
    values: frozenset[int] = frozenset()
    negated: bool = False
    regex: Guarded | None = None
    #: A regex test's answer per string (by its hash): words recur across turns.
    seen: dict[int, bool] = field(default_factory=dict, compare=False)

    def matches_text(self, value: int, doc: Doc) -> bool:
        """Whether this regex test matches the string whose hash is ``value``."""
        assert self.regex is not None
        answer = self.seen.get(value)
        if answer is None:
            if len(self.seen) >= MEMO_SIZE:
                self.seen.clear()
            answer = self.seen[value] = self.regex.search(doc.vocab.strings[value]) is not None
        return answer


@dataclass(frozen=True)
class _Pattern:
    """One alternative of one ruler entry: its entry number and its tokens' tests."""

    entry: int
    tokens: tuple[tuple[_Test, ...], ...]


class AttributeIndex:
    """The matches of an ``AttributeRuler``, by lookup (see the module's docstring)."""

    def __init__(self, ruler: AttributeRuler, keyed: dict[int, dict[int, list[_Pattern]]],
                 unkeyed: list[_Pattern]) -> None:
        self.ruler = ruler
        self._unkeyed = unkeyed
        #: Per attribute tested first: (its column, patterns by the value they want).
        self._by_column = sorted(keyed.items())
        strings = ruler.vocab.strings
        self._match_ids = [strings.add(str(n)) for n in range(len(ruler.attrs))]

    @classmethod
    def of(cls, ruler: AttributeRuler) -> AttributeIndex | None:
        """The index of ``ruler``'s patterns, or None if one is beyond it."""
        strings = ruler.vocab.strings
        columns = {name: n for n, name in enumerate(ATTRIBUTES)}
        keyed: dict[int, dict[int, list[_Pattern]]] = {}
        unkeyed: list[_Pattern] = []
        for entry, spec in enumerate(ruler.patterns):
            alternatives: Any = spec["patterns"]  # (typed loosely in spaCy's stubs)
            for alternative in alternatives:
                if not isinstance(alternative, list) or not alternative:
                    return None
                tokens = []
                for token in alternative:
                    tests = _tests(token, columns, strings)
                    if tests is None:
                        return None
                    tokens.append(tests)
                pattern = _Pattern(entry, tuple(tokens))
                key = _key(tokens[0])
                if key is None:
                    unkeyed.append(pattern)
                else:
                    by_value = keyed.setdefault(key.column, {})
                    for value in key.values:
                        by_value.setdefault(value, []).append(pattern)
        return cls(ruler, keyed, unkeyed)

    def matches(self, doc: Doc) -> list[tuple[int, int, int, int]]:
        """``(entry, match id, start, end)`` of every match, sorted as
        ``AttributeRuler.match`` sorts them."""
        rows: list[list[int]] = doc.to_array(list(ATTRIBUTES)).tolist()
        found: set[tuple[int, int, int]] = set()
        size = len(rows)
        for i, row in enumerate(rows):
            candidates = [hit for column, by_value in self._by_column
                          if (hit := by_value.get(row[column]))]
            if self._unkeyed:
                candidates.append(self._unkeyed)
            for patterns in candidates:
                for pattern in patterns:
                    end = i + len(pattern.tokens)
                    if end <= size and _holds(pattern, rows, doc, i):
                        found.add((pattern.entry, i, end))
        return sorted((entry, self._match_ids[entry], start, end)
                      for entry, start, end in found)

    def __call__(self, doc: Doc) -> Doc:
        """Annotate ``doc`` as the ruler does: these matches, the ruler's own writing."""
        self.ruler.set_annotations(doc, self.matches(doc))
        return doc


def _holds(pattern: _Pattern, rows: Sequence[Sequence[int]], doc: Doc, start: int) -> bool:
    """Whether ``pattern`` matches the tokens from ``start`` on."""
    for k, tests in enumerate(pattern.tokens):
        row = rows[start + k]
        for test in tests:  # (inline: the equality tests run at every token)
            if test.regex is None:
                if (row[test.column] in test.values) == test.negated:
                    return False
            elif not test.matches_text(row[test.column], doc):
                return False
    return True


def _tests(token: Mapping[str, Any], columns: Mapping[str, int], strings: Any
           ) -> tuple[_Test, ...] | None:
    """The tests of one pattern token, or None if it uses what this index does not do."""
    out = []
    for raw_name, wanted in token.items():
        name = _ALIASES.get(raw_name.upper(), raw_name.upper())
        if name not in columns:
            return None  # OP, an extension, another attribute
        column = columns[name]

        def encode(value: Any, attribute: str = name) -> int | None:
            if attribute in _STRING_ATTRIBUTES:
                return int(strings.add(value)) if isinstance(value, str) else None
            return int(value) if isinstance(value, bool) else None

        if isinstance(wanted, dict):
            if len(wanted) != 1:
                return None
            (op, value), = wanted.items()
            if op in ("IN", "NOT_IN") and isinstance(value, list):
                encoded = [encode(v) for v in value]
                if any(e is None for e in encoded):
                    return None
                out.append(_Test(column, frozenset(e for e in encoded if e is not None),
                                 negated=op == "NOT_IN"))
            elif op == "REGEX" and isinstance(value, str) and name in _STRING_ATTRIBUTES:
                out.append(_Test(column, regex=rx(value)))
            else:
                return None
        else:
            code = encode(wanted)
            if code is None:
                return None
            out.append(_Test(column, frozenset({code})))
    return tuple(sorted(out, key=lambda t: t.regex is not None))  # regexes last: dearer


def _key(tests: Sequence[_Test]) -> _Test | None:
    """The test of a pattern's first token to index it under: an equality or
    membership test on the most selective attribute; None when it has none."""
    plain = [t for t in tests if t.regex is None and not t.negated]
    if not plain:
        return None
    return min(plain, key=lambda t: _KEY_ORDER.index(ATTRIBUTES[t.column]))
