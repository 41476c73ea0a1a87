"""One guarded-regex helper: every pattern call goes through it, and the patterns that
skip its timeout on short texts have earned it."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.registry import Registry
from extractors.text import guard
from extractors.text.guard import DECLARED_LINEAR, LONG_TEXT, TIMEOUT, Guarded, rx
from tests.conftest import ROOT

PACKAGES = ("scratchpad", "extractors", "schemas")
MATCHING = frozenset({"compile", "search", "match", "fullmatch", "finditer", "findall", "sub",
                      "subn", "split", "splititer", "scanner", "template"})


def product_modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")
                  if p != ROOT / "extractors" / "text" / "guard.py")


def direct_calls(path: Path) -> list[str]:
    """Calls of ``re``/``regex`` matching functions, ``import re``, and ``timeout=`` given
    to a pattern method: what must go through the guard instead."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "re" for a in node.names):
            found.append(f"{path.name}:{node.lineno} imports re")
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        func = node.func
        if (isinstance(func.value, ast.Name) and func.value.id in ("re", "regex")
                and func.attr in MATCHING):
            found.append(f"{path.name}:{node.lineno} calls {func.value.id}.{func.attr}")
        if func.attr in MATCHING and any(k.arg == "timeout" for k in node.keywords):
            found.append(f"{path.name}:{node.lineno} passes timeout= to .{func.attr}")
    return found


def test_no_module_matches_a_pattern_outside_the_guard() -> None:
    offences = [hit for path in product_modules() for hit in direct_calls(path)]
    assert offences == []


def test_the_scan_catches_what_it_looks_for(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import re\nimport regex\nregex.search('a', 'b')\nP.finditer(t, timeout=1)\n")
    assert len(direct_calls(bad)) == 3


def every_linear_pattern() -> list[Guarded]:
    Registry.shipped()  # imports every shipped module, so every pattern is compiled
    return list(DECLARED_LINEAR)


def adversarial(pattern: Guarded) -> list[str]:
    """Texts just under LONG_TEXT (where nothing but linearity bounds a scan): runs of
    each character the pattern names, and alternations of the usual troublemakers."""
    size = LONG_TEXT - 1_000
    literal = {ch for ch in pattern.pattern if ch in string.printable and not ch.isspace()}
    pieces = sorted(literal) + [" ", "9", "1,", "1.", "a-", "A-", "/a", "+1 ", "a ", "Aa",
                                "€1", "(", "((", "a.", "ab1", "\n", "-", "_a"]
    return [(piece * (size // len(piece) + 1))[:size] for piece in pieces]


@pytest.mark.slow
def test_patterns_declared_linear_never_need_the_timeout() -> None:
    """A pattern with ``linear=True`` runs unguarded below LONG_TEXT characters: on texts
    just under that, it must finish far inside the timeout it skips."""
    slow = []
    for pattern in every_linear_pattern():
        for text in adversarial(pattern):
            try:
                for _ in pattern._compiled.finditer(text, timeout=TIMEOUT / 4):
                    pass
            except TimeoutError:
                slow.append((pattern.pattern[:60], text[:12]))
                break
    assert slow == []


def test_guarded_calls_time_out_and_find_all_gives_up_quietly(caplog) -> None:
    evil = rx(r"(?:a|aa)+b")
    text = "a" * 5_000
    with pytest.raises(TimeoutError):
        evil.search(text)
    assert guard.find_all(evil, text, name="evil", where="turn 3") == []
    assert "pattern 'evil' timed out on turn 3" in caplog.text


def test_the_budget_grows_with_the_text_not_faster() -> None:
    plain, linear = rx(r"\d+"), rx(r"\d+", linear=True)
    assert plain._timeout("12") == pytest.approx(TIMEOUT, abs=1e-3)
    assert linear._timeout("12") is None
    long = "1," * 500_000
    assert linear._timeout(long) == plain._timeout(long) == pytest.approx(TIMEOUT + 2.0)
    assert len(linear.findall(long)) == 500_000


def test_module_functions_match_the_regex_module() -> None:
    assert guard.search(r"b+", "abbc").span() == (1, 3)
    assert guard.findall(r"\d", "a1b2") == ["1", "2"]
    assert guard.sub(r"\s+", " ", "a  b\n c") == "a b c"
    assert guard.split(r",\s*", "a, b,c") == ["a", "b", "c"]
    assert guard.fullmatch(r"[a-z]+", "abc") and not guard.match(r"\d", "a1")
    assert [m.group() for m in guard.finditer(r"\w+", "hi there")] == ["hi", "there"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abcdefgiknoprstuyUSDEFGBP $€£_2 ſ")), max_size=40))
def test_any_of_finds_what_their_union_finds(text: str) -> None:
    """The amounts' "turn talks money" check, alternative by alternative, answers as the
    one union pattern it replaced."""
    from extractors.values.amount_patterns import _MONEY_TURN

    union = rx("|".join(f"(?:{part.pattern})" for part in _MONEY_TURN.parts))
    assert (_MONEY_TURN.search(text) is None) == (union.search(text) is None)


def test_any_of_returns_the_first_alternative_that_matches() -> None:
    either = guard.AnyOf(rx(r"\d+"), rx(r"[a-z]+"))
    found = either.search("AB cd 12")
    assert found is not None and found.group() == "12"
    assert either.search("AB --") is None
