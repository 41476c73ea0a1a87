"""Shared fixtures: an in-memory store, the session's spaCy pipeline, the example."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import strategies as st

from scratchpad import Scratchpad

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
DATA = Path(__file__).resolve().parent / "data"


#: Arbitrary text that leans on question and number punctuation, for property tests.
QUESTION_TEXT = st.text(
    alphabet=st.sampled_from(list("0123456789,.?!:;-'`> \n\tabcwhyisWhatYes€$é漢🙂"))
    | st.characters(),
    max_size=300,
) | st.from_regex(r"[0-9,]{50,400}\??", fullmatch=True)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="Rewrite golden files from the current output.")


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def nlp():
    """The spaCy pipeline the product uses; a missing model fails here, not skips."""
    from extractors.text import nlp as nlp_module

    pipeline = nlp_module.load()
    assert "ner" in pipeline.pipe_names, "the spaCy model is not installed"
    return pipeline


@pytest.fixture
def pad():
    with Scratchpad(":memory:") as p:
        yield p


@pytest.fixture(scope="session")
def espresso_path() -> Path:
    return EXAMPLES / "espresso.jsonl"


@pytest.fixture(scope="session")
def espresso_messages(espresso_path: Path) -> list[dict]:
    return [json.loads(line) for line in espresso_path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="session")
def espresso_pad(espresso_messages):
    """The espresso conversation ingested once per session (read-only for tests)."""
    p = Scratchpad(":memory:")
    p.ingest("espresso", espresso_messages)
    yield p
    p.close()


def check_golden(path: Path, actual: str, update: bool) -> None:
    """Compare ``actual`` byte for byte with the golden file (or rewrite it)."""
    if update or not path.exists():
        path.write_text(actual, encoding="utf-8")
        if not update:
            pytest.fail(f"golden file {path.name} was missing and has been written; re-run")
    assert actual == path.read_text(encoding="utf-8")
