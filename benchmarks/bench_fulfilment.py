"""What the fulfilment model adds to a turn: the time of
:func:`extractors.dialogue.fulfilment.learned_fulfilment` on every turn of real
conversations (the blind commitment set, all splits), measured inside the pipeline so that
each call sees the pending commitments the lifecycle really holds at that turn.

Run: ``python benchmarks/bench_fulfilment.py``. Prints one JSON object: turns, pending
commitments scored, and per-turn milliseconds (mean, median, p95, max).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extractors.dialogue import commitment_lifecycle  # noqa: E402
from scratchpad.bulk import run_corpus  # noqa: E402
from scratchpad.messages import read_corpus  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "commitments_blind.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=400, help="conversations")
    args = parser.parse_args()
    rows = read_corpus(CORPUS)[: args.limit]
    timings: list[float] = []
    pending = 0
    real = commitment_lifecycle.learned_fulfilment

    def timed(turn: Any, records: Any, model: Any) -> Any:
        nonlocal pending
        started = time.perf_counter()
        out = real(turn, records, model)
        timings.append((time.perf_counter() - started) * 1000)
        pending += len(records)
        return out

    commitment_lifecycle.learned_fulfilment = timed
    try:
        list(run_corpus(rows, source=CORPUS.name))
    finally:
        commitment_lifecycle.learned_fulfilment = real
    ordered = sorted(timings)
    print(json.dumps({
        "conversations": len(rows), "turns": len(timings), "pending_scored": pending,
        "ms_per_turn": {"mean": round(statistics.fmean(timings), 3),
                        "median": round(statistics.median(timings), 3),
                        "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 3),
                        "max": round(ordered[-1], 3)},
    }))


if __name__ == "__main__":
    main()
