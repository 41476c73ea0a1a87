"""The benchmark scripts still run (on tiny inputs): their figures are measured by hand,
but a script broken by a change of the code would only be found when someone needs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

SMOKE = [
    ("bench_ingest.py", ["--limit", "2", "--passes", "1"], "turn_ms_median"),
    ("bench_compact.py", ["--tokens", "3000", "--repeats", "1"], "compression_ratio"),
    ("bench_patterns.py", ["--limit", "5", "--repeat", "1", "--pipeline-limit", "2"],
     "dev_turns"),
    ("bench_stress.py", ["--quick"], "writers"),
    ("bench_long_session.py", ["--quick"], "planted_present_pct"),
    ("bench_acts.py", ["--limit", "5"], "turn_ms_mean"),
    ("bench_startup.py", ["--runs", "1"], "open"),
]


@pytest.mark.slow
@pytest.mark.parametrize("script, args, figure", SMOKE)
def test_benchmark_runs_and_prints_its_figures(script: str, args: list[str], figure: str
                                               ) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert figure in json.loads(done.stdout.strip().splitlines()[-1])


def _sgd_questions():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import sgd_questions
    finally:
        sys.path.pop(0)
    return sgd_questions


def test_sgd_question_gold_follows_the_eval_readme():
    """A user question answered by an INFORM of its slot, an agent's yes/no proposal
    answered by AFFIRM, and a question a failed booking cut short (open)."""
    acts = [
        {"turn": 1, "role": "user", "acts": [{"act": "REQUEST", "slot": "phone_number",
                                              "values": []}]},
        {"turn": 2, "role": "assistant", "acts": [{"act": "INFORM", "slot": "phone_number",
                                                   "values": ["415"]},
                                                  {"act": "REQUEST", "slot": "pickup",
                                                   "values": ["Long Beach"]}]},
        {"turn": 3, "role": "user", "acts": [{"act": "AFFIRM", "slot": "", "values": []},
                                             {"act": "REQUEST", "slot": "address",
                                              "values": []}]},
        {"turn": 4, "role": "assistant", "acts": [{"act": "NOTIFY_FAILURE", "slot": "",
                                                   "values": []}]},
    ]
    gold = _sgd_questions().questions({"acts": acts})
    assert gold == [
        {"turn": 0, "asker": "user", "slot": "phone_number", "answered_turn": 1},
        {"turn": 1, "asker": "assistant", "slot": "pickup", "answered_turn": 2},
        {"turn": 2, "asker": "user", "slot": "address", "answered_turn": None},
    ]

