"""Prefilter gates: what a turn's tokens are, and that gates never change extraction."""

from __future__ import annotations

import json
import re
import sys

import pytest
import regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from extractors.base import TurnView
from extractors.text.gates import (
    _FOLD_TO_ASCII,
    DIGIT,
    gate,
    matches_from,
    start_positions,
    tokens,
    words_of,
)
from extractors.values.amount_patterns import PATTERNS as AMOUNT_PATTERNS
from extractors.values.amounts import RegexAmounts
from extractors.values.datetime_patterns import PATTERNS as DATETIME_PATTERNS
from extractors.values.datetimes import RegexDatetimes
from extractors.values.id_patterns import PATTERNS as ID_PATTERNS
from extractors.values.identifiers import RegexIdentifiers
from scratchpad.messages import read_corpus
from tests.conftest import DATA, EXAMPLES

PAIRS = [
    (RegexAmounts(), RegexAmounts(prefilter=False)),
    (RegexIdentifiers(), RegexIdentifiers(prefilter=False)),
    (RegexDatetimes(), RegexDatetimes(prefilter=False)),
]


def same_output(text: str) -> None:
    turn = TurnView(thread="t", number=1, role="user", text=text)
    for gated, ungated in PAIRS:
        assert gated.extract(turn) == ungated.extract(turn), (gated.name, text)


@pytest.mark.parametrize(("text", "present", "absent"), [
    ("Order_id 4521, ok?", {"order", "id", "_", ",", "?", " ", DIGIT, "<ddd>"}, {"o", "O"}),
    ("call me at 3pm or 14h30", {"pm", "h", DIGIT}, {"<ddd>", "<a.m>"}),
    ("at 3 a.m. sharp", {"a", "m", ".", "<a.m>", "<w.w>"}, {"<ddd>"}),
    ("see example.com", {"example", "com", "<w.w>"}, {DIGIT}),
    ("ref AB12", {"<A0>", DIGIT}, {"<h0>", "<ddd>"}),
    ("commit 3fa9c1e", {"<h0>", "commit"}, {"<A0>"}),
    ("€930 zł Kč", {"€", "ł", "č", "z", "k", DIGIT, "<ddd>"}, set()),
    ("٣ days", {DIGIT, "days"}, set()),
    ("ſeconds, \u212aelvin, İnvoice", {"seconds", "kelvin", "invoice"}, set()),
    ("", set(), {DIGIT}),
])
def test_tokens(text: str, present: set[str], absent: set[str]) -> None:
    found = tokens(text)
    assert present <= found
    assert not absent & found


def test_gate_is_a_conjunction_of_any_of_clauses() -> None:
    g = gate(DIGIT, "ending ends last")
    assert g.admits(tokens("card ending 4471"))
    assert not g.admits(tokens("card ending soon"))
    assert not g.admits(tokens("card 4471"))
    assert gate().admits(frozenset())
    with pytest.raises(ValueError, match="at least one token"):
        gate("")


def test_words_of_takes_the_first_letter_run_or_first_character() -> None:
    assert words_of("pounds sterling", "US$", "€", "Fr.") == {"pounds", "us", "€", "fr"}


@pytest.mark.slow
def test_every_non_ascii_letter_the_patterns_fold_to_ascii_is_mapped() -> None:
    folding = regex.compile(r"(?i)[a-z]")
    found = {chr(c) for c in range(128, sys.maxunicode + 1)
             if folding.fullmatch(chr(c))}
    assert found == {chr(c) for c in _FOLD_TO_ASCII}


def _corpus_texts() -> list[str]:
    texts = []
    for path in (DATA / "sgd_dev.jsonl", DATA / "values_labelled.jsonl"):
        texts += [m["content"] or "" for row in read_corpus(path) for m in row["messages"]]
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            content = json.loads(line).get("content") if line.strip() else None
            if isinstance(content, str):
                texts.append(content)
    return texts


@pytest.mark.slow
def test_gates_change_nothing_on_the_corpora() -> None:
    texts = _corpus_texts()
    assert len(texts) > 19_000
    for text in texts:
        same_output(text)


def _for_re(source: str) -> str:
    """Return a pattern source that stdlib ``re`` (which hypothesis generates from) takes:
    lookbehinds dropped (``re`` wants them fixed-width) and group names removed unless a
    backreference needs them (``regex`` allows a name twice). Dropping a lookbehind only
    widens what is generated; the property below checks the real pattern."""
    out, i, depth_class = [], 0, False
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            out.append(source[i:i + 2])
            i += 2
            continue
        if depth_class:
            depth_class = ch != "]"
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            depth_class = True
            out.append(ch)
            if source[i + 1:i + 2] == "]":
                out.append("]")
                i += 1
            i += 1
            continue
        if source.startswith(("(?<=", "(?<!"), i):
            i = _group_end(source, i)
            continue
        out.append(ch)
        i += 1
    text = "".join(out)
    backrefs = set(regex.findall(r"\(\?P=(\w+)\)", text))
    return regex.sub(r"\(\?P<(\w+)>", lambda m: m.group(0) if m.group(1) in backrefs
                     else "(?:", text)


def _group_end(source: str, start: int) -> int:
    """Return the index just after the group that opens at ``start``."""
    depth, i, in_class = 0, start, False
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError(f"unbalanced group at {start}")


SHIPPED = (*AMOUNT_PATTERNS, *DATETIME_PATTERNS, *ID_PATTERNS)


def _matching_text(pattern: regex.Pattern[str]) -> st.SearchStrategy[str]:
    """Text that holds a match of (the ``re`` version of) ``pattern``, with arbitrary
    text around it."""
    return st.from_regex(re.compile(_for_re(pattern.pattern),
                                    pattern.flags & (re.VERBOSE | re.IGNORECASE)))


@pytest.mark.slow
@pytest.mark.parametrize("pat", SHIPPED, ids=lambda p: p.name)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_gates_change_nothing_on_text_generated_from_each_pattern(pat, data) -> None:
    # Checked on extraction, not on the bare match: a gate may also hold the words a
    # pattern's context or turn-wide check needs, which a bare match does not.
    same_output(data.draw(_matching_text(pat.pattern)))


def _gate_tokens() -> list[str]:
    """Every word and character any shipped gate names, to build texts that pass gates."""
    out: set[str] = set()
    for pat in (*AMOUNT_PATTERNS, *DATETIME_PATTERNS, *ID_PATTERNS):
        for clause in pat.gate.clauses:
            out |= {t for t in clause if not t.startswith("<")}
    return sorted(out)


#: Pieces that pass the gates, pieces that make matches, and pieces that sit next to them
#: (letters glued to a word, non-ASCII case folds), so that hypothesis probes the edges.
PIECES = st.one_of(
    st.sampled_from(_gate_tokens()),
    st.sampled_from(_gate_tokens()).map(str.upper),
    st.sampled_from(_gate_tokens()).map(str.title),
    st.sampled_from([
        "0", "7", "12", "930", "4471", "1,240.00", "2026", "0x", " ", " ", "\n", ".", ",", ":",
        "-", "/", "#", "@", "$", "€", "%", "*", "`", '"', "=", "_", "+", "(", ")", "'", "\\",
        "a.m.", "P.M.", "o'clock", "ſ", "\u212a", "İ", "re", "in", "pre", "x", "AB", "Z",
        "deadbeef", "feature/", "v1.2.3", "3fa9c1e", "A-77215", "www.", "http://", "~/",
        "C:\\", "\\\\srv\\", "é", "٣", "Ü", "the ", "of ", "next ", "between ", " and ",
        "half past ", "per cent", "one hundred ", "£12.50", "CHF 89.–", "ending in ",
    ]),
)
TEXTS = st.lists(PIECES, max_size=40).map("".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
@example("0GBP\u212a")  # a Kelvin sign: a letter to lower(), none to [A-Za-z]
def test_gates_change_nothing_on_arbitrary_text(text: str) -> None:
    same_output(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_gates_change_nothing_on_unicode_text(text: str) -> None:
    same_output(text)


# --- start positions (extractors.text.gates.start_positions) ---------------------------------

STARTED = [p for p in DATETIME_PATTERNS if p.starts]


def _same_matches_from_starts(pat, text: str) -> None:
    positions = start_positions(text, pat.starts)
    if positions is None:
        return
    assert [m.span() for m in matches_from(pat.pattern, text, positions)] == [
        m.span() for m in pat.pattern.finditer(text)], (pat.name, text)


@pytest.mark.parametrize(("text", "words", "expected"), [
    ("The 3rd, then 45 and x7", frozenset({"the", DIGIT}), [0, 4, 14, 22]),
    ("bathe in the sea", frozenset({"the"}), [9]),
    ("Thursday thu", frozenset({"thu"}), [9]),
    ("ſeven days", frozenset({"seven"}), None),
    ("İn the morning", frozenset({"in"}), None),
    ("café at noon", frozenset({"at", "noon"}), [5, 8]),
])
def test_start_positions(text: str, words: frozenset[str], expected) -> None:
    assert start_positions(text, words) == expected


def test_every_datetime_pattern_names_its_starts() -> None:
    assert len(STARTED) == len(DATETIME_PATTERNS)


@pytest.mark.slow
def test_starts_change_no_match_on_the_corpora() -> None:
    texts = _corpus_texts()
    for pat in STARTED:
        for text in texts:
            _same_matches_from_starts(pat, text)


@pytest.mark.slow
@pytest.mark.parametrize("pat", STARTED, ids=lambda p: p.name)
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_starts_change_no_match_on_generated_text(pat, data) -> None:
    text = data.draw(_matching_text(pat.pattern) | st.text(max_size=80) | TEXTS)
    _same_matches_from_starts(pat, text)
