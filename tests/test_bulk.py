"""Bulk extraction on several processes gives the records one process gives, in order."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from scratchpad.bulk import MIN_PER_WORKER, run_corpus
from scratchpad.cli import cli
from scratchpad.messages import InputError, read_corpus
from tests.conftest import DATA

CORPUS = DATA / "commitments_labelled.jsonl"


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    rows = read_corpus(CORPUS)
    assert len(rows) >= 2 * MIN_PER_WORKER  # enough for two workers to start
    return rows


def test_two_workers_give_the_same_records_in_the_same_order(rows) -> None:
    one = [(row["id"], records) for row, records in run_corpus(rows, workers=1)]
    two = [(row["id"], records) for row, records in run_corpus(rows, workers=2)]
    assert [i for i, _ in two] == [row["id"] for row in rows]
    assert sum(len(records) for _, records in one) > 100
    assert two == one


def test_bad_input_fails_before_any_work_with_the_line_named(rows) -> None:
    broken = [*rows[:20], {"id": "bad", "_line": 21, "messages": [{"role": "robot"}]}]
    with pytest.raises(InputError, match=r"corpus:21"):
        list(run_corpus(broken, workers=2))


def test_a_small_corpus_runs_in_this_process(rows, monkeypatch) -> None:
    import multiprocessing

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started for a small corpus")

    monkeypatch.setattr(multiprocessing.context.BaseContext, "Pool", no_pool)
    out = list(run_corpus(rows[: MIN_PER_WORKER], workers=2))
    assert len(out) == MIN_PER_WORKER


def test_extract_prints_the_same_bytes_with_any_number_of_workers(tmp_path) -> None:
    runner = CliRunner()
    outputs = []
    for workers in ("1", "2"):
        result = runner.invoke(cli, ["extract", str(CORPUS), "--json", "--workers", workers])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert outputs[0] == outputs[1]
    assert len(outputs[0].splitlines()) == len(read_corpus(CORPUS))
    assert all(json.loads(line)["records"] is not None for line in outputs[0].splitlines())


def test_workers_must_be_positive() -> None:
    result = CliRunner().invoke(cli, ["extract", str(CORPUS), "--workers", "0"])
    assert result.exit_code != 0 and "--workers" in result.output
