"""User identifier patterns: Registry.add_pattern in Python, load_patterns from TOML, errors,
and patterns that stay with the registry (and pad) they were added to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from extractors.base import TurnView
from extractors.registry import Registry
from extractors.values.identifiers import RegexIdentifiers
from scratchpad import Scratchpad
from scratchpad.errors import PatternError, ScratchpadError

registry = Registry()


@pytest.fixture(autouse=True)
def _clean() -> Iterator[None]:
    global registry
    registry = Registry()
    yield


def add_pattern(*args, **kwargs):
    return registry.add_pattern(*args, **kwargs)


def load_patterns(path):
    return registry.load_patterns(path)


def found(text: str) -> list[tuple[str, str, str]]:
    turn = TurnView(thread="t", number=1, role="user", text=text)
    extractor = RegexIdentifiers(user_patterns=registry.patterns)
    return [(c.text, c.subtype, c.value["normalized"]) for c in extractor.extract(turn)]


def test_add_pattern_registers_with_the_extractor() -> None:
    assert found("badge emp.004211 lost") == []
    add_pattern("employee_id", r"\bemp\.\d{6}\b", subtype="employee", score=0.9)
    assert found("badge emp.004211 lost") == [("emp.004211", "employee", "emp.004211")]


def test_context_and_id_group_and_validator() -> None:
    add_pattern("locker", r"(?:locker|box) (?P<id>\d{3})\b", subtype="locker",
                context=["gym"], validator=lambda v: v != "000")
    assert found("at the gym, locker 512 is mine") == [("512", "locker", "512")]
    assert found("locker 512 is mine") == []
    assert found("at the gym, locker 000 is mine") == []


def test_named_validator() -> None:
    add_pattern("account_iban", r"ACCT:(?P<id>[A-Z0-9]{15,34})", subtype="account",
                validator="iban", score=0.99)
    assert found("ACCT:DE89370400440532013000") == [
        ("DE89370400440532013000", "account", "DE89370400440532013000")]
    assert found("ACCT:DE00370400440532013000") == []


def test_load_patterns_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "patterns.toml"
    path.write_text(
        '[[pattern]]\nname = "employee_id"\nregex = \'\\bEMP-\\d{6}\\b\'\n'
        'subtype = "employee"\nscore = 0.9\n\n'
        '[[pattern]]\nname = "room"\nregex = \'\\b[A-D]\\d{3}\\b\'\nsubtype = "room"\n'
        'context = ["room", "meeting in"]\n',
        encoding="utf-8")
    loaded = load_patterns(path)
    assert [p.name for p in loaded] == ["employee_id", "room"]
    assert found("EMP-000042 booked room B204") == [
        ("EMP-000042", "employee", "EMP-000042"), ("B204", "room", "B204")]
    assert found("grade B204") == []
    load_patterns(path)  # loading again replaces, it does not raise


@pytest.mark.parametrize(
    "body, problem",
    [
        ('[[pattern]]\nname = "bad"\nregex = "(unclosed"\n', "invalid regex"),
        ('[[pattern]]\nname = "empty"\nregex = "x*"\n', "matches the empty string"),
        ('[[pattern]]\nname = "s"\nregex = "x"\nscore = 2\n', "score 2"),
        ('[[pattern]]\nname = "s"\nregex = "x"\nsubtype = "Bad Type"\n', "subtype"),
        ('[[pattern]]\nname = "s"\nregex = "x"\ncolour = "red"\n', "unknown field 'colour'"),
        ('[[pattern]]\nname = "s"\nregex = "x"\nvalidator = "crc"\n', "unknown validator"),
        ('[[pattern]]\nname = "s"\nregex = "x"\nnormalize = "title"\n', "unknown normalizer"),
        ('[[pattern]]\nname = "s"\nregex = "x"\nfamily = "path"\n', "unknown field 'family'"),
        ('[[pattern]]\nname = "s"\nregex = "x"\ngate = ["x"]\n', "unknown field 'gate'"),
        ('[[pattern]]\nname = "s"\nregex = "x"\nneeds = "(x"\n', "invalid regex"),
        ('[fragments]\nA = "x"\n[[pattern]]\nname = "s"\nregex = "x"\n', "fragment name"),
        ('[[pattern]]\nname = "s"\nregex = "x"\ncontext = "word"\n', "context"),
        ('[[pattern]]\nname = "email"\nregex = "x"\n', "shipped pattern"),
        ('[[pattern]]\nregex = "x"\n', "'name' must be a string"),
        ('[[pattern]]\nname = "a"\nregex = "x"\n[[pattern]]\nname = "a"\nregex = "y"\n',
         "used twice"),
        ("name = 'x'\n", "unknown top-level key"),
        ("[[pattern\n", "not valid TOML"),
    ],
)
def test_bad_files_raise_one_line_errors(tmp_path: Path, body: str, problem: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(PatternError) as info:
        load_patterns(path)
    message = str(info.value)
    assert isinstance(info.value, ScratchpadError)
    assert "\n" not in message
    assert str(path) in message and problem in message


def test_checks_normalizer_and_fragments_in_a_user_file(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(
        "[fragments]\nrooms = '[A-D]\\d{3}'\n\n"
        "[[pattern]]\nname = 'room'\nregex = '\\b(?i:{rooms})\\b'\nsubtype = 'room'\n"
        "needs = '(?i)\\bmeeting\\b'\nveto = '(?i)grade\\W*$'\nnormalize = 'upper'\n",
        encoding="utf-8")
    assert [p.name for p in load_patterns(path)] == ["room"]
    assert found("meeting in b204") == [("b204", "room", "B204")]
    assert found("meeting: grade b204") == []
    assert found("in b204") == []


def test_missing_file_and_duplicates() -> None:
    with pytest.raises(PatternError, match="cannot read"):
        load_patterns("no/such/patterns.toml")
    add_pattern("x1", r"\bXQ\d{3}\b")
    with pytest.raises(PatternError, match="already registered"):
        add_pattern("x1", r"\bXQ\d{4}\b")
    add_pattern("x1", r"\bXQ\d{4}\b", replace=True)
    assert found("XQ1234") == [("XQ1234", "reference", "XQ1234")]


def test_slow_user_pattern_times_out_without_raising() -> None:
    add_pattern("evil", r"(?:a|aa)+b", subtype="evil")
    text = "a" * 5_000
    assert found(text) == []


def test_patterns_belong_to_the_registry_and_pad_they_were_added_to(tmp_path: Path) -> None:
    text = [{"role": "user", "content": "My badge EMP.004211 stopped working."}]
    mine = Registry.default()
    mine.add_pattern("employee_id", r"\bEMP\.\d{6}\b", subtype="employee", score=0.9)
    with Scratchpad(":memory:", registry=mine) as pad:
        pad.ingest("t", text)
        assert [r.subtype for r in pad.records("t", kind="identifier")] == ["employee"]
    with Scratchpad(":memory:") as other:  # another pad: shipped patterns only
        other.ingest("t", text)
        assert [r.subtype for r in other.records("t", kind="identifier")] != ["employee"]
    path = tmp_path / "p.toml"
    path.write_text('[[pattern]]\nname = "room"\nregex = \'\\b[A-D]\\d{3}\\b\'\n'
                    'subtype = "room"\n', encoding="utf-8")
    with Scratchpad(":memory:", patterns=[path]) as pad:
        pad.ingest("t", [{"role": "user", "content": "Meet in B204."}])
        assert [r.text for r in pad.records("t", kind="identifier")] == ["B204"]
    assert mine.patterns[0].name == "employee_id" and Registry.default().patterns == ()
