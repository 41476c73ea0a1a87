"""Identifiers: reference codes, phones, emails, URLs, paths, hosts, IBANs, commands, ...

The patterns are data (``identifier_patterns.toml``, read by
:mod:`extractors.values.id_patterns`, plus the user patterns a registry adds); this module
is the small class that runs them and the per-family checks, and the labels ("order",
"mobile") come from :mod:`extractors.values.id_labels`. Every candidate has
``value = {"normalized": ...}``: phones go to E.164 through ``phonenumbers`` when the
number carries or implies its country, codes are upper-cased, emails lower-cased, IBANs
compacted. A bare number is an identifier only next to a word that says so ("order
4921", "#4921", "call 20 7071 5029"); years, prices, clock times and counts never are.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import phonenumbers
import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind
from extractors.text import guard, spans
from extractors.text.gates import GateIndex, tokens
from extractors.text.guard import find_all, rx
from extractors.text.lexicon import function_words, words
from extractors.values.id_labels import (
    GENERIC_NOUNS,
    JSON_KEY,
    SPECIFIC_NOUNS,
    SUBTYPES,
    diff_side,
    find_label,
    phone_label,
    sentence_before,
    sentence_start,
)
from extractors.values.id_patterns import PATTERNS, TOOLS, IdPattern

if TYPE_CHECKING:
    from spacy.tokens import Doc

log = logging.getLogger(__name__)

NAME = "identifiers.regex.v1"

_PHONE_CONTEXT = rx(
    r"(?i)\b(?:phone|mobile|cell(?:phone)?|tele?phone|tel|fax|landline|whatsapp|hotline|"
    r"helpline|call(?:ed|ing)?|dial(?:led|ing)?|ring|text|sms|reach(?:ed|ing)?|contact(?:ed|ing)?|"
    r"number|no)\b\W{0,3}(?:\w+\W{1,3}){0,6}$"
)
_PHONE_CONTEXT_STRICT = rx(
    r"(?i)\b(?:phone|mobile|cell(?:phone)?|tele?phone|tel|fax|landline|whatsapp|call|dial)"
    r"\b\W{0,3}(?:\w+\W{1,3}){0,4}$"
)

_DATE_SHAPE = rx(r"^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$|^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$")
_HEX_COLOR = rx(r"^#[0-9A-F]{6}$|^#[0-9A-F]{3}$")
_HASH_CONTEXT = rx(
    r"(?i)\b(?:commit|sha|hash|revision|rev|checksum|cherry-pick|revert|checkout|reset|"
    r"bisect|show|blame|diff|deploy|deployed|deploying|rollback|build|release)\b\W{0,3}"
    r"(?:\w+\W{1,3}){0,2}$")
_GIT_CONTEXT = rx(
    r"(?i)\b(?:git|merge[ds]?|merging|commit(?:s|ted)?|checkout|rebase|push(?:ed)?|pull|"
    r"PR|repo|upstream|origin)\b")
_TABLE_AFTER_SHAPE = rx(r"(?i)\b(?:the|a|an|our|your|this|that|each|every)\s+"
                                   r"[`'\"]?[\w.]+[`'\"]?\s*$")
_CSS_CONTEXT = rx(
    r"(?i)\b(?:colou?rs?|background|css|hex|rgb|fill|stroke|border|shade|palette)\b")
#: First words of an SQL statement written in backticks ("`SELECT ... FROM ...`").
_SQL_HEADS = frozenset(
    "SELECT INSERT UPDATE DELETE CREATE DROP ALTER WITH EXPLAIN TRUNCATE GRANT REVOKE VACUUM "
    "ANALYZE REINDEX".split())
_IBAN_SHAPE = rx(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}")
#: Words that end a command written after "run" ("run pytest -k slow and then ...").
_COMMAND_STOP = function_words(
    "and then to before after first again now please instead but so if when which it on in "
    "for from once until while or")
#: Words that cannot be a table or branch name ("a table for two", "branch of the bank").
_NAME_STOP = function_words(
    "the a an for of at with is are was near by and or to in on that this which it "
    "its there here where from next should would could will can must might shall do does "
    "did has have had be") | words("top called named")
_FLAG = rx(r"^--?[A-Za-z]")
_SCRIPT = rx(r"^(?:\./|\.\./|~/|/)|\.(?:sh|py|js|ts|rb|pl|ps1|bat)$")
_ADDRESS_UNIT = rx(
    r"(?i)\b(?:street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|court|ct|"
    r"place|pl|suite|ste|apt|apartment|unit|floor|highway|hwy|alameda|plaza)\.?,?\s*$")
_PATH_CONTEXT = rx(
    r"(?i)\b(?:touch|edit|in|under|into|from|inside|modify|change|open|delete|remove|create|"
    r"directory|folder|dir|cd|ls|mkdir|rm)\s+[`'\"]?$")
#: First segments that make a one-segment absolute path ("/tmp") a path, not "/month".
_ROOTS = frozenset(
    "etc usr var tmp home opt bin sbin srv mnt dev proc lib root Users Applications "
    "Library Volumes private workspace app src data".split())
_TRAILING_URL = ".,;:!?'\")]}>"


def _best_phone(raw: str, region: str | None) -> tuple[int, str] | None:
    """Return (length kept, E.164) of the longest valid (else possible) prefix of ``raw``."""
    cuts = [m.start() for m in guard.finditer(r"[\s.-]\d", raw)] + [len(raw)]
    fallback: tuple[int, str] | None = None
    for cut in sorted(set(cuts), reverse=True):
        piece = raw[:cut]
        digits = sum(ch.isdigit() for ch in piece)
        if digits < 7:
            break
        try:
            number = phonenumbers.parse(piece, region)
        except phonenumbers.NumberParseException:
            continue
        e164 = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
        if phonenumbers.is_valid_number(number):
            return cut, e164
        if fallback is None and phonenumbers.is_possible_number(number):
            fallback = (cut, e164)
    return fallback


@dataclass(frozen=True)
class _Found:
    start: int
    end: int
    score: float
    order: int
    subtype: str
    label: str | None
    normalized: str
    why: str


class RegexIdentifiers:
    """Find reference codes, context-marked numbers, phones, emails, URLs and paths."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False
    #: Shipped patterns; user patterns (``Registry.add_pattern``) come after them.
    patterns: ClassVar[tuple[IdPattern, ...]] = PATTERNS
    #: The registry hands this extractor its user patterns.
    uses_patterns: ClassVar[bool] = True
    #: Region used to read phone numbers written without a country code.
    default_region: ClassVar[str] = "US"

    def __init__(self, prefilter: bool = True,
                 user_patterns: Sequence[IdPattern] = ()) -> None:
        #: Skip the patterns whose gate a turn fails (:mod:`extractors.text.gates`); off only
        #: to check that the gates never change the output.
        self.prefilter = prefilter
        self.user_patterns = tuple(user_patterns)
        self._gates = GateIndex([p.gate for p in self.patterns])

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return identifier candidates of one turn, without overlaps, in text order."""
        text = turn.text
        found: list[_Found] = []
        present = tokens(text)
        shipped = self.patterns
        orders = (self._gates.admitted(present) if self.prefilter
                  else range(len(shipped)))
        for order in orders:
            # Shipped patterns are linear (tests/test_value_properties.py): guarded on
            # long texts only.
            for m in find_all(shipped[order].pattern, text,
                              name=shipped[order].name, where=f"turn {turn.number}"):
                item = self._accept(text, m, shipped[order], order)
                if item is not None:
                    found.append(item)
        for order, pat in enumerate(self.user_patterns, start=len(shipped)):
            if self.prefilter and not pat.gate.admits(present):
                continue
            # A user's pattern is not known to be linear: it always runs under the guard.
            for m in find_all(pat.pattern, text, name=pat.name,
                              where=f"turn {turn.number}"):
                item = self._accept(text, m, pat, order)
                if item is not None:
                    found.append(item)
        return [
            Candidate.of(text, f.start, f.end, kind=Kind.IDENTIFIER, subtype=f.subtype,
                         score=f.score, extractor=NAME, why=f.why, label=f.label,
                         value={"normalized": f.normalized})
            for f in _select(found)
        ]

    def _accept(self, text: str, m: regex.Match[str], pat: IdPattern,
                order: int) -> _Found | None:
        start, end = m.span()
        raw = m.group(0)
        why = f"pattern {pat.name!r}"
        family = pat.family
        if family == "email":
            return _Found(start, end, pat.score, order, "email", find_label(text, start)
                          if JSON_KEY.search(text[max(0, start - 60):start]) else None,
                          raw.lower(), why)
        if family == "url":
            trimmed = raw.rstrip(_TRAILING_URL)
            if raw.endswith(")") and trimmed.count("(") > trimmed.count(")"):
                trimmed += ")"
            if len(trimmed) < 5:
                return None
            return _Found(start, start + len(trimmed), pat.score, order, "url", None, trimmed, why)
        if family == "phone" or family == "phone_context":
            return self._phone(text, m, pat, order, why)
        if family == "hash":
            if not (_HASH_CONTEXT.search(sentence_before(text, start, 50)) or len(raw) == 40):
                return None
            return _Found(start, end, pat.score, order, "commit", "commit", raw.lower(), why)
        if family == "path":
            return self._path(text, m, pat, order, why)
        if family == "code":
            return self._code(text, m, pat, order, why)
        if pat.group is not None:
            start, end = m.span(pat.group)
            if start < 0:
                return None
            raw = text[start:end]
        if family == "command":
            end = _command_end(text, m, pat, start, end)
            if end is None:
                return None
            raw = text[start:end]
        elif family == "table" or family == "branch":
            end = start + len(raw.rstrip("."))
            raw = text[start:end]
            if not _name_ok(text, start, end, pat):
                return None
            if pat.name == "table_before" and _TABLE_AFTER_SHAPE.search(
                    text[max(0, m.start() - 40):m.start()]):
                return None  # "the orders table takes ...": the name came before "table"
        return self._generic(text, start, end, raw, pat, order, why)

    def _generic(self, text: str, start: int, end: int, raw: str, pat: IdPattern,
                 order: int, why: str) -> _Found | None:
        """Apply a pattern's data checks (context, needs, validator) and normalizer."""
        if not raw or not raw.strip():
            return None
        # Searched in place, not in a slice, so a word cut by the window is not a context
        # word ("inflight" holds no "flight").
        if pat.context is not None and not pat.context.search(
                text, sentence_start(text, start), start):
            return None
        if pat.needs is not None and pat.family == "generic" and not pat.needs.search(text):
            return None
        if pat.veto is not None and pat.veto.search(text[max(0, start - 30):start]):
            return None
        try:
            if pat.validator is not None and not pat.validator(raw):
                return None
            normalized = pat.normalize(raw) if pat.normalize is not None else raw
        except Exception as exc:  # a user validator must not cost the turn
            log.warning("validator of pattern %r failed on %r: %s", pat.name, raw, exc)
            return None
        label = find_label(text, start) if JSON_KEY.search(text[max(0, start - 60):start]) \
            else None
        return _Found(start, end, pat.score, order, pat.subtype, label, normalized, why)

    def _phone(self, text: str, m: regex.Match[str], pat: IdPattern, order: int,
               why: str) -> _Found | None:
        start, raw = m.start(), m.group(0)
        digits = sum(ch.isdigit() for ch in raw)
        if _DATE_SHAPE.match(raw) or not 7 <= digits <= 15:
            return None
        before = text[max(0, start - 60):start]
        if pat.family == "phone_context":
            context = _PHONE_CONTEXT_STRICT if " " not in raw and "-" not in raw \
                else _PHONE_CONTEXT
            groups = len(guard.findall(r"\d+", raw))
            if digits < 8 or not (context.search(before) or JSON_KEY.search(before)
                                  or groups >= 5):
                return None
            # No country code and not a NANP shape: the country is unknown, keep digits.
            normalized = "".join(ch for ch in raw if ch.isdigit())
            return _Found(start, m.end(), pat.score, order, "phone",
                          phone_label(text, start), normalized, why)
        best = _best_phone(raw, None if raw.startswith("+") else self.default_region)
        if best is None:
            return None
        return _Found(start, start + best[0], pat.score, order, "phone",
                      phone_label(text, start), best[1], why)

    def _path(self, text: str, m: regex.Match[str], pat: IdPattern, order: int,
              why: str) -> _Found | None:
        raw = m.group(0).rstrip(".,;:")
        if not raw or not any(ch.isalpha() for ch in raw):
            return None
        segments = [s for s in guard.split(r"[/\\]", raw) if s]
        if not segments:
            return None
        if pat.name == "path_relative":
            has_ext = guard.search(r"\.[A-Za-z][A-Za-z0-9]{0,7}$", segments[-1]) is not None
            if not (has_ext or raw.endswith("/") or len(segments) >= 3):
                return None
            if any(s.isdigit() for s in segments):
                return None
        if pat.name == "path_unix" and len(segments) == 1 and not raw.startswith(("~", ".")) \
                and "." not in segments[0] and segments[0] not in _ROOTS:
            return None
        if pat.name == "path_relative" and len(segments) == 1 and "." not in segments[0]:
            before = text[max(0, m.start() - 30):m.start()]
            if not _PATH_CONTEXT.search(before) and before[-1:] not in ("`", "'", '"'):
                return None
        start = m.start()
        if side := diff_side(text, start):  # "--- a/src/app.py": the file is src/app.py
            start, raw = start + side, raw[side:]
        return _Found(start, start + len(raw), pat.score, order, "path",
                      find_label(text, start) if JSON_KEY.search(
                          text[max(0, start - 60):start]) else None, raw, why)

    def _code(self, text: str, m: regex.Match[str], pat: IdPattern, order: int,
              why: str) -> _Found | None:
        start, end = m.span()
        raw = m.group(0)
        if pat.name == "context_number":
            start, end = m.span("id")
            raw = m.group("id")
            if _DATE_SHAPE.match(raw):
                return None
            label = SPECIFIC_NOUNS.get(m.group("ctx").lower(), "reference")
            if m.group("ctx").lower() in GENERIC_NOUNS:
                label = find_label(text, m.start("ctx")) or "reference"
        else:
            if _DATE_SHAPE.match(raw) or (_HEX_COLOR.match(raw) and (
                    not raw[1:].isdigit() or _CSS_CONTEXT.search(text[max(0, start - 60):start]))):
                return None  # "#FFF" or "color: #333" is a colour; "closes #512" is not
            if raw.startswith("#") and _ADDRESS_UNIT.search(text[max(0, start - 30):start]):
                return None  # "22 Center Street #57": a unit number, not a reference
            label = find_label(text, start)
            if pat.name == "code" and sum(ch.isdigit() for ch in raw) < 4 and label is None:
                return None
            if pat.name == "slash_reference" and (label is None or sum(
                    ch.isdigit() for ch in raw) < 4):
                return None  # "TRV/88/551203" after "policy"; not "A/B/C" or "TCP/IP"
            if pat.name == "alnum_code" and label is None and _IBAN_SHAPE.fullmatch(raw):
                return None  # an IBAN shape whose checksum failed: not a reference either
        subtype = label if label in SUBTYPES else "reference"
        normalized = raw.lower() if pat.name == "uuid" else raw.lstrip("#").upper()
        return _Found(start, end, pat.score, order, subtype, label, normalized, why)


def _command_end(text: str, m: regex.Match[str], pat: IdPattern, start: int,
                 end: int) -> int | None:
    """Return where a command starting at ``start`` ends, or None if it is not a command."""
    tokens = text[start:end].split(" ")
    if pat.name == "command_run":
        kept: list[str] = []
        for token in tokens:
            if token.lower() in _COMMAND_STOP:
                break
            stripped = token.rstrip(".,;:!?)")
            if stripped != token:
                if stripped:
                    kept.append(stripped)
                break
            kept.append(token)
        tokens = kept
    if not tokens or not tokens[0]:
        return None
    head = tokens[0]
    flags = any(_FLAG.match(t) for t in tokens[1:])
    sql = pat.name == "command_backticks" and head.upper() in _SQL_HEADS and len(tokens) >= 3
    if not (head in TOOLS or _SCRIPT.search(head) or sql or
            (flags and guard.fullmatch(r"[a-z][\w.-]{0,40}", head))):
        if pat.name == "command_backticks":
            before = sentence_before(text, m.start(), 30)
            if not (len(tokens) >= 2 and guard.search(r"(?i)\b(?:run|running|execute|type|"
                                                      r"command)\W{0,3}$", before)):
                return None
        else:
            return None
    return start + len(" ".join(tokens))


def _name_ok(text: str, start: int, end: int, pat: IdPattern) -> bool:
    """Return True if a table or branch name is a name, not a function word."""
    name = text[start:end]
    if name.lower() in _NAME_STOP or name.isdigit():
        return False
    quoted = text[start - 1:start] in ("`", "'", '"')
    if pat.family == "table":
        return quoted or "_" in name or (pat.needs is not None and
                                         pat.needs.search(text) is not None)
    if "/" in name or quoted:
        return True
    special = any(ch in name for ch in "-_.") and name == name.lower()
    return special or (name == name.lower() and _GIT_CONTEXT.search(text) is not None)


def _select(found: list[_Found]) -> list[_Found]:
    """Keep non-overlapping finds: best score, then longest, then pattern order."""
    preferred = sorted(found, key=lambda f: (-f.score, f.start - f.end, f.order, f.start))
    return spans.select(preferred, lambda f: (f.start, f.end))
