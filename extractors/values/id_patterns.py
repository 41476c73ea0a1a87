"""Identifier patterns: the :class:`IdPattern` type, the one reader of pattern files, and
the shipped table.

The shipped patterns are data: ``identifier_patterns.toml`` next to this module, read at
import into :data:`PATTERNS` by :func:`read_patterns`, the same function that reads a
user's ``--patterns`` file (``Registry.load_patterns``); :func:`build_pattern` checks and
compiles one pattern for both. The file format, its fields and which of them a user file
may use are in ``docs/patterns.md``; the named validators and normalizers a file refers to
are in :mod:`extractors.values.validators`.

Each :class:`IdPattern` is a name, a compiled ``regex`` pattern, a score and a subtype,
plus optional checks: ``context`` (a regex that must match in the few words before the
match, same sentence), ``needs`` (a regex that must match somewhere in the turn),
``veto`` (a regex that must not match just before), ``validator`` (a predicate on the
matched value: a checksum, a range) and ``group`` (the named group that is the span,
when the pattern also matches its context). ``family`` selects the extractor's handler;
``generic`` is the data-only path that user patterns take too. Every shipped pattern is
linear-time (compiled ``linear=True``, held to it by ``tests/test_guard.py``); a user's
runs under the timeout.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import regex

from extractors.errors import PatternError
from extractors.text.gates import ALWAYS, Gate, gate, words_of
from extractors.text.guard import Guarded, rx
from extractors.values.pattern_checks import compile_in_child, nested_repeat
from extractors.values.validators import NORMALIZERS, VALIDATORS, Normalizer, Validator


@dataclass(frozen=True)
class IdPattern:
    """One named, scored identifier pattern with its optional checks."""

    name: str
    pattern: Guarded
    score: float
    family: str = "generic"
    subtype: str = "reference"
    context: Guarded | None = None
    needs: Guarded | None = None
    veto: Guarded | None = None
    validator: Validator | None = None
    group: str | None = None
    normalize: Normalizer | None = None
    user: bool = False
    #: What a turn must hold for the pattern to match at all (:mod:`extractors.text.gates`).
    gate: Gate = ALWAYS


#: Program names that make "run X ..." a command even without flags.
TOOLS: frozenset[str] = frozenset(
    "pytest python python3 pip pip3 uv poetry npm npx yarn pnpm node deno bun git make cmake "
    "cargo rustc go docker docker-compose kubectl helm terraform ansible ruff mypy black flake8 "
    "tox nox bash sh zsh ls cd cat grep rg find curl wget psql mysql sqlite3 redis-cli alembic "
    "django-admin manage.py rails rake bundle gem mvn gradle dotnet java javac gcc clang "
    "ssh scp rsync tar chmod chown systemctl journalctl brew apt apt-get dnf yum pre-commit "
    "jest vitest mocha eslint prettier tsc webpack vite sed awk jq aws gcloud az".split())

#: Keys a ``[[pattern]]`` table of a user's file may hold.
FIELDS: frozenset[str] = frozenset(
    {"name", "regex", "subtype", "score", "context", "context_regex", "needs", "veto",
     "validator", "normalize", "ignore_case"})
#: ... and of the shipped file, whose patterns may also pick a handler and declare a gate.
SHIPPED_FIELDS: frozenset[str] = FIELDS | {"family", "gate"}
#: The extractor's handlers (:class:`extractors.values.identifiers.RegexIdentifiers`).
FAMILIES: frozenset[str] = frozenset(
    {"generic", "email", "url", "phone", "phone_context", "hash", "path", "code", "command",
     "table", "branch"})
_NAME = rx(r"[A-Za-z][\w.-]{0,63}")
_SUBTYPE = rx(r"[a-z][a-z0-9_]{0,39}")
_FRAGMENT_NAME = rx(r"[a-z][a-z0-9_]{0,63}")
_FRAGMENT_REF = rx(r"\{([a-z][a-z0-9_]{0,63})\}")
MAX_REGEX = 2000

PatternSource = str | os.PathLike[str] | Traversable


def context_words(words: Sequence[str]) -> Guarded:
    """Return a regex that finds any of ``words`` (escaped, case-insensitive) in a window."""
    alternatives = "|".join(regex.escape(w.strip()).replace(r"\ ", r"\s+")
                            for w in sorted(words, key=len, reverse=True) if w.strip())
    return rx(rf"(?i)(?<!\w)(?:{alternatives})(?!\w)")


# --- gate tokens a file computes from a fragment ------------------------------------------

def alternatives(text: str) -> frozenset[str]:
    """Every alternative of a ``|``-separated list, as written."""
    return frozenset(text.split("|"))


def spelled(text: str) -> frozenset[str]:
    """Every word an alternation of words with at most one optional letter each matches
    ("docx?" gives "doc" and "docx")."""
    out = set()
    for alt in text.split("|"):
        if "?" in alt:
            i = alt.index("?")
            out |= {alt[:i - 1] + alt[i + 1:], alt[:i] + alt[i + 1:]}
        else:
            out.add(alt)
    return frozenset(out)


def first_words(text: str) -> frozenset[str]:
    """The token each alternative of a ``|``-separated list brings to a turn
    (:func:`extractors.text.gates.words_of`)."""
    return words_of(*text.split("|"))


def numbered(text: str) -> frozenset[str]:
    """Each word of a whitespace-separated list, alone and glued to a number word
    ("order", "ordernumber", "orderno", "ordernum", "orderid", "ordercode")."""
    return frozenset(word + glued for word in text.split()
                     for glued in ("", "number", "no", "num", "id", "code"))


#: What a gate clause ``{helper = "..."}`` may name.
GATE_TOKENS: dict[str, Callable[[str], frozenset[str]]] = {
    "alternatives": alternatives, "spelled": spelled, "first_words": first_words,
    "numbered": numbered,
}


# --- reading a file -----------------------------------------------------------------------

def read_patterns(path: PatternSource, *, shipped: bool = False) -> list[IdPattern]:
    """Read and check every ``[[pattern]]`` of a TOML file; return them in file order.

    ``shipped`` reads the shipped table: its fields may also hold ``family`` and ``gate``,
    and its regexes are verbose and linear. Raises :class:`PatternError` naming the file,
    the pattern and the problem.
    """
    source = os.fspath(path) if isinstance(path, str | os.PathLike) else str(path)
    try:
        with (open(source, "rb") if isinstance(path, str | os.PathLike)
              else path.open("rb")) as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise PatternError(f"cannot read the file ({exc.strerror})", source=source) from None
    except tomllib.TOMLDecodeError as exc:
        raise PatternError(f"not valid TOML ({exc})", source=source) from None
    extra = sorted(set(data) - {"pattern", "fragments"})
    if extra:
        raise PatternError(f"unknown top-level key {extra[0]!r}; use [[pattern]] tables",
                           source=source)
    fragments = _fragments(data.get("fragments", {}), source)
    entries = data.get("pattern", [])
    if not isinstance(entries, list) or not entries:
        raise PatternError("no [[pattern]] tables", source=source)
    fields = SHIPPED_FIELDS if shipped else FIELDS
    checked = []

    def expanded(entry: dict[str, Any], key: str) -> str | None:
        return None if entry.get(key) is None else _expand(entry[key], fragments)

    for i, entry in enumerate(entries, 1):
        name = entry.get("name") if isinstance(entry.get("name"), str) else None
        label = name or f"#{i}"
        unknown = sorted(set(entry) - fields)
        if unknown:
            raise PatternError(f"unknown field {unknown[0]!r} (valid: "
                               f"{', '.join(sorted(fields))})", name=label, source=source)
        for key in ("name", "regex"):
            if not isinstance(entry.get(key), str):
                raise PatternError(f"field {key!r} must be a string", name=label, source=source)
        for key in ("context_regex", "needs", "veto", "normalize", "family"):
            if not isinstance(entry.get(key, ""), str):
                raise PatternError(f"field {key!r} must be a string", name=label, source=source)
        context = entry.get("context", [])
        if not (isinstance(context, list) and all(isinstance(w, str) for w in context)):
            raise PatternError("field 'context' must be a list of strings", name=label,
                               source=source)
        checked.append(_build(
            entry["name"], _expand(entry["regex"], fragments),
            subtype=entry.get("subtype", "reference"), score=entry.get("score", 0.8),
            context=context, context_regex=expanded(entry, "context_regex"),
            needs=expanded(entry, "needs"), veto=expanded(entry, "veto"),
            validator=entry.get("validator"),
            normalize=entry.get("normalize"), ignore_case=entry.get("ignore_case", False),
            family=entry.get("family", "generic"),
            gate_clauses=entry.get("gate"), fragments=fragments, shipped=shipped,
            source=source))
    names = [p.name for p in checked]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise PatternError("name used twice in this file", name=dup, source=source)
    return checked


def _fragments(table: object, source: str) -> dict[str, str]:
    """Check the ``[fragments]`` table: names to strings (a list of strings is joined)."""
    if not isinstance(table, dict):
        raise PatternError("[fragments] must be a table", source=source)
    out = {}
    for name, value in table.items():
        if not _FRAGMENT_NAME.fullmatch(name):
            raise PatternError(f"fragment name {name!r} must be lower-case letters, digits "
                               "or '_'", source=source)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = "".join(value)
        if not isinstance(value, str):
            raise PatternError(f"fragment {name!r} must be a string or a list of strings",
                               source=source)
        out[name] = value
    return out


def _expand(text: str, fragments: dict[str, str]) -> str:
    """Replace each ``{name}`` of a fragment of the file by its text (other braces stay)."""
    if not fragments:
        return text
    return _FRAGMENT_REF.sub(lambda m: fragments.get(m.group(1), m.group(0)), text)


# --- building one pattern -----------------------------------------------------------------

def build_pattern(name: str, pattern: str, *, subtype: object = "reference",
                  score: object = 0.8, context: Sequence[str] = (),
                  context_regex: str | None = None, needs: str | None = None,
                  veto: str | None = None, validator: Validator | str | None = None,
                  normalize: Normalizer | str | None = None, ignore_case: object = False,
                  source: str | None = None) -> IdPattern:
    """Check and compile one user pattern (see ``docs/patterns.md`` for the fields)."""
    return _build(name, pattern, subtype=subtype, score=score, context=context,
                  context_regex=context_regex, needs=needs, veto=veto, validator=validator,
                  normalize=normalize, ignore_case=ignore_case, source=source)


def _build(name: str, pattern: str, *, subtype: object, score: object,
           context: Sequence[str], context_regex: str | None, needs: str | None,
           veto: str | None, validator: Validator | str | None,
           normalize: Normalizer | str | None, ignore_case: object, source: str | None,
           family: str = "generic", gate_clauses: object = None,
           fragments: dict[str, str] | None = None, shipped: bool = False) -> IdPattern:
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
    if family not in FAMILIES:
        raise fail(f"unknown family {family!r} (valid: {', '.join(sorted(FAMILIES))})")
    if not isinstance(pattern, str) or not pattern:
        raise fail("regex must be a non-empty string")
    if len(pattern) > MAX_REGEX:
        raise fail(f"regex is longer than {MAX_REGEX} characters")
    case = regex.IGNORECASE if ignore_case else 0
    if not shipped:  # a user's regex could be costly to compile, not only to run
        problem = nested_repeat(pattern) or compile_in_child(pattern, regex.V0 | case)
        if problem:
            raise fail(f"regex refused: {problem}")
    try:
        compiled = (rx(pattern, regex.VERBOSE | regex.V0 | case, linear=True) if shipped
                    else rx(pattern, regex.V0 | case, lazy=False))
    except regex.error as exc:
        raise fail(f"invalid regex ({exc})") from None
    # (the shipped patterns compile at first use; tests/test_id_patterns.py holds them
    # to the same two checks)
    if not shipped and compiled.search("") is not None:
        raise fail("regex matches the empty string")
    words = [w for w in context if w.strip()]
    if words and context_regex is not None:
        raise fail("give 'context' or 'context_regex', not both")
    return IdPattern(
        name=name, pattern=compiled, score=float(score), family=family, subtype=subtype,
        context=context_words(words) if words else _check_regex(context_regex, fail, shipped),
        needs=_check_regex(needs, fail, shipped), veto=_check_regex(veto, fail, shipped),
        validator=_named(validator, VALIDATORS, "validator", fail),
        group="id" if "id" in compiled.groupindex else None,
        normalize=_named(normalize, NORMALIZERS, "normalizer", fail), user=not shipped,
        gate=_gate(gate_clauses, fragments or {}, fail))


def _check_regex(text: str | None, fail: Callable[[str], PatternError],
                 shipped: bool = False) -> Guarded | None:
    """Compile a turn or context check (not verbose, under the timeout): a user's now, a
    shipped one at its first use."""
    if text is None:
        return None
    try:
        return rx(text, lazy=shipped)
    except regex.error as exc:
        raise fail(f"invalid regex in a check ({exc})") from None


def _named(value: Any, table: dict[str, Any], what: str,
           fail: Callable[[str], PatternError]) -> Any:
    """Look a validator or normalizer up by name; pass a callable (or None) through."""
    if isinstance(value, str):
        if value not in table:
            raise fail(f"unknown {what} {value!r} (valid: {', '.join(sorted(table))})")
        return table[value]
    if value is None or callable(value):
        return value
    raise fail(f"{what} must be a callable or the name of a shipped {what}")


def _gate(clauses: object, fragments: dict[str, str],
          fail: Callable[[str], PatternError]) -> Gate:
    """Build a gate from a list of clauses: a string of tokens, a list of tokens, or a
    ``{helper = "..."}`` table naming one of :data:`GATE_TOKENS`."""
    if clauses is None:
        return ALWAYS
    if not isinstance(clauses, list) or not clauses:
        raise fail("gate must be a non-empty list of clauses")
    built: list[str | Iterable[str]] = []
    for clause in clauses:
        if isinstance(clause, str):
            built.append(_expand(clause, fragments))
        elif isinstance(clause, list) and all(isinstance(t, str) for t in clause):
            built.append(clause)
        elif isinstance(clause, dict) and len(clause) == 1:
            ((helper, arg),) = clause.items()
            if helper not in GATE_TOKENS:
                raise fail(f"unknown gate helper {helper!r} (valid: "
                           f"{', '.join(sorted(GATE_TOKENS))})")
            if not isinstance(arg, str):
                raise fail(f"gate helper {helper!r} takes a string")
            built.append(GATE_TOKENS[helper](_expand(arg, fragments)))
        else:
            raise fail("a gate clause is a string of tokens, a list of tokens or a "
                       "{helper = \"...\"} table")
    try:
        return gate(*built)
    except ValueError as exc:
        raise fail(str(exc)) from None


#: The shipped table (read from the package, so it works from a wheel or a zip too).
SHIPPED_FILE: Traversable = resources.files("extractors.values") / "identifier_patterns.toml"
#: The shipped identifier patterns, in file order (which breaks ties between overlaps).
PATTERNS: tuple[IdPattern, ...] = tuple(read_patterns(SHIPPED_FILE, shipped=True))
