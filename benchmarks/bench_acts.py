"""What the sentence act model adds to a turn: load time, and per-turn time of the
``acts.textcat.v1`` extractor on real turns (the dev corpus and the blind commitment set):
its own candidates, plus its review of the constraints the rules found in the turn.

Run: ``python benchmarks/bench_acts.py [--limit N]``. Prints one JSON object: model load
seconds, turns scored, and per-turn milliseconds (mean, median, p95) over user and
assistant turns (tool turns cost nothing: the model does not read them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extractors.base import TurnView  # noqa: E402
from extractors.dialogue.act_clauses import ActClauses  # noqa: E402
from extractors.dialogue.constraints import ConstraintRules  # noqa: E402
from extractors.trained.acts import ActScorer  # noqa: E402
from scratchpad.extraction import TurnProcessor  # noqa: E402
from scratchpad.messages import read_corpus  # noqa: E402

CORPORA = [ROOT / "tests" / "data" / "sgd_dev.jsonl",
           ROOT / "tests" / "data" / "commitments_blind.jsonl"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=400, help="conversations per corpus")
    args = parser.parse_args()
    started = time.perf_counter()
    scorer = ActScorer.shipped()
    load_s = time.perf_counter() - started
    if scorer is None:
        raise SystemExit("no act model shipped: run make train")
    extractor = ActClauses(scorer)
    views = []
    for corpus in CORPORA:
        for row in read_corpus(corpus)[:args.limit]:
            for n, m in enumerate(row["messages"], 1):
                if m.get("role") in ("user", "assistant") and isinstance(m.get("content"), str):
                    views.append(TurnView(thread="b", number=n, role=m["role"],
                                          text=m["content"]))
    # what the rules found in each turn (not timed): the review reads their constraints
    rules = TurnProcessor([ConstraintRules()], [])
    found = [rules.extract(view, doc) for view, doc in zip(views, rules.annotate(views),
                                                           strict=True)]
    extractor.review(views[0], extractor.extract(views[0]))  # the first call warms
    times = []
    for view, candidates in zip(views, found, strict=True):
        t = time.perf_counter()
        extractor.review(view, [*candidates, *extractor.extract(view)])
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print(json.dumps({"model_load_s": round(load_s, 3), "turns": len(times),
                      "turn_ms_mean": round(statistics.fmean(times), 3),
                      "turn_ms_median": round(statistics.median(times), 3),
                      "turn_ms_p95": round(times[int(len(times) * 0.95)], 3)}))


if __name__ == "__main__":
    main()
