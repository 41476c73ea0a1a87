"""User identifier patterns: build one from its fields, or read a TOML file of them.

This module checks and compiles; a :class:`extractors.registry.Registry` holds what it
builds (``registry.add_pattern(...)``, ``registry.load_patterns("patterns.toml")``). A
user pattern joins the identifier extractor (``identifiers.regex.v1``) and is checked
after the shipped patterns; where two candidates overlap, the higher score wins.

Regexes compile with the ``regex`` module and run under the extractor's timeout; a
named group ``id`` narrows the span to that group. See ``docs/patterns.md``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Sequence

import regex

from extractors.errors import PatternError
from extractors.text.guard import rx
from extractors.values.id_patterns import VALIDATORS, IdPattern, Validator, context_words

#: Keys a ``[[pattern]]`` table may hold.
FIELDS: frozenset[str] = frozenset(
    {"name", "regex", "subtype", "score", "context", "validator", "ignore_case"})
_NAME = rx(r"[A-Za-z][\w.-]{0,63}")
_SUBTYPE = rx(r"[a-z][a-z0-9_]{0,39}")
MAX_REGEX = 2000


def read_patterns(path: str | os.PathLike[str]) -> list[IdPattern]:
    """Read and check every ``[[pattern]]`` of a TOML file; return them in file order.

    Raises :class:`PatternError` naming the file, the pattern and the problem.
    """
    source = os.fspath(path)
    try:
        with open(source, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise PatternError(f"cannot read the file ({exc.strerror})", source=source) from None
    except tomllib.TOMLDecodeError as exc:
        raise PatternError(f"not valid TOML ({exc})", source=source) from None
    extra = sorted(set(data) - {"pattern"})
    if extra:
        raise PatternError(f"unknown top-level key {extra[0]!r}; use [[pattern]] tables",
                           source=source)
    entries = data.get("pattern", [])
    if not isinstance(entries, list) or not entries:
        raise PatternError("no [[pattern]] tables", source=source)
    checked = []
    for i, entry in enumerate(entries, 1):
        name = entry.get("name") if isinstance(entry.get("name"), str) else None
        label = name or f"#{i}"
        unknown = sorted(set(entry) - FIELDS)
        if unknown:
            raise PatternError(f"unknown field {unknown[0]!r} (valid: "
                               f"{', '.join(sorted(FIELDS))})", name=label, source=source)
        for key in ("name", "regex"):
            if not isinstance(entry.get(key), str):
                raise PatternError(f"field {key!r} must be a string", name=label, source=source)
        context = entry.get("context", [])
        if not (isinstance(context, list) and all(isinstance(w, str) for w in context)):
            raise PatternError("field 'context' must be a list of strings", name=label,
                               source=source)
        checked.append(build_pattern(entry["name"], entry["regex"],
                              subtype=entry.get("subtype", "reference"),
                              score=entry.get("score", 0.8), context=context,
                              validator=entry.get("validator"),
                              ignore_case=entry.get("ignore_case", False), source=source))
    names = [p.name for p in checked]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise PatternError("name used twice in this file", name=dup, source=source)
    return checked


def build_pattern(name: str, pattern: str, *, subtype: object = "reference",
                  score: object = 0.8, context: Sequence[str] = (),
                  validator: Validator | str | None = None, ignore_case: object = False,
                  source: str | None = None) -> IdPattern:
    """Check and compile one user pattern (see ``docs/patterns.md`` for the fields)."""
    def fail(problem: str) -> PatternError:
        return PatternError(problem, name=name, source=source)

    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise fail("name must start with a letter and hold letters, digits, '_', '.', '-'")
    if not isinstance(subtype, str) or not _SUBTYPE.fullmatch(subtype):
        raise fail(f"subtype {subtype!r} must be lower-case letters, digits or '_'")
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0 < score <= 1:
        raise fail(f"score {score!r} must be a number in (0, 1]")
    if not isinstance(ignore_case, bool):
        raise fail("ignore_case must be true or false")
    if not isinstance(pattern, str) or not pattern:
        raise fail("regex must be a non-empty string")
    if len(pattern) > MAX_REGEX:
        raise fail(f"regex is longer than {MAX_REGEX} characters")
    try:
        compiled = rx(pattern, regex.V0 | (regex.IGNORECASE if ignore_case else 0))
    except regex.error as exc:
        raise fail(f"invalid regex ({exc})") from None
    if compiled.search("") is not None:
        raise fail("regex matches the empty string")
    group = "id" if "id" in compiled.groupindex else None
    check: Callable[[str], bool] | None
    if isinstance(validator, str):
        if validator not in VALIDATORS:
            raise fail(f"unknown validator {validator!r} (valid: "
                       f"{', '.join(sorted(VALIDATORS))})")
        check = VALIDATORS[validator]
    elif validator is None or callable(validator):
        check = validator
    else:
        raise fail("validator must be a callable or the name of a shipped validator")
    words = [w for w in context if w.strip()]
    return IdPattern(name=name, pattern=compiled, score=float(score), family="generic",
                     subtype=subtype, context=context_words(words) if words else None,
                     validator=check, group=group, user=True)
