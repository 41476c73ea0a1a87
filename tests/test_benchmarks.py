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
]


@pytest.mark.slow
@pytest.mark.parametrize("script, args, figure", SMOKE)
def test_benchmark_runs_and_prints_its_figures(script: str, args: list[str], figure: str
                                               ) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert figure in json.loads(done.stdout.strip().splitlines()[-1])
