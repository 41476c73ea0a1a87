"""Benchmark ingest: model load, per-turn latency as a live agent sees it, bulk throughput.

Run: ``make bench`` or ``python benchmarks/bench_ingest.py [--corpus PATH] [--limit N]``.
Prints one JSON object. Figures are wall-clock on the machine at hand; compare runs on
the same machine only.

* ``model_load_s``: loading the spaCy pipeline once per process.
* ``turn_ms_median`` / ``turn_ms_p95``: one new turn ingested into a file database
  that already holds the conversation so far (the harness's per-request cost),
  measured over every turn of the bundled example, several passes.
* ``bulk_turns_per_s``: ``extract``-style batch ingest of a corpus into memory.
* ``turn_ms_median_with_schema``: the same, with the ``refund`` schema attached (its
  state row is rewritten on every ingest).
* ``schema_refresh_ms``: rewriting one schema's state row for a long thread (the
  synthetic coding session, about 1,500 turns) with ``coding`` attached.
* ``rss_mb``: resident memory at the end.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from extractors.text import nlp as nlp_module
from scratchpad import Scratchpad
from scratchpad.messages import parse_messages, read_corpus, read_messages

ROOT = Path(__file__).resolve().parent.parent


def per_turn_latency(passes: int, schema: str | None = None) -> list[float]:
    messages = read_messages(ROOT / "examples" / "espresso.jsonl")
    timings: list[float] = []
    for _ in range(passes):
        with tempfile.TemporaryDirectory() as tmp, Scratchpad(Path(tmp) / "bench.db") as pad:
            if schema:
                pad.attach("bench", schema)
            for n in range(1, len(messages) + 1):
                started = time.perf_counter()
                pad.ingest("bench", messages[:n])
                timings.append((time.perf_counter() - started) * 1000)
    return timings


def schema_refresh(repeats: int = 20) -> tuple[int, float]:
    """(turns, median ms) of rewriting the ``coding`` state of a ~1,500-turn thread."""
    sys.path.insert(0, str(ROOT))
    from schemas import CodingSession
    from tests.synthetic_session import session

    messages = session(760)
    with tempfile.TemporaryDirectory() as tmp, Scratchpad(Path(tmp) / "bench.db") as pad:
        pad.ingest("long", messages)
        pad.attach("long", CodingSession)
        turns = pad.store.turn_count("long")
        timings = []
        for _ in range(repeats):
            started = time.perf_counter()
            pad.schemas.refresh("long", turns, [CodingSession])
            timings.append((time.perf_counter() - started) * 1000)
    return turns, statistics.median(timings)


def bulk(corpus: Path, limit: int) -> tuple[int, float]:
    rows = read_corpus(corpus)[:limit]
    turns = 0
    started = time.perf_counter()
    with Scratchpad(":memory:") as pad:
        for row in rows:
            messages = parse_messages(row["messages"])
            pad.ingest(str(row["id"]), messages)
            turns += len(messages)
    return turns, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None,
                        help="A corpus JSONL for the bulk figure (e.g. eval/dev.jsonl).")
    parser.add_argument("--limit", type=int, default=200, help="Conversations for bulk.")
    parser.add_argument("--passes", type=int, default=3, help="Passes over the example.")
    args = parser.parse_args()

    started = time.perf_counter()
    nlp_module.load()
    load_s = time.perf_counter() - started

    timings = per_turn_latency(args.passes)
    out = {
        "model_load_s": round(load_s, 3),
        "turns_timed": len(timings),
        "turn_ms_median": round(statistics.median(timings), 2),
        "turn_ms_p95": round(statistics.quantiles(timings, n=20)[18], 2),
        "turn_ms_median_with_schema": round(statistics.median(
            per_turn_latency(args.passes, schema="refund")), 2),
    }
    turns, refresh_ms = schema_refresh()
    out.update({"schema_refresh_turns": turns, "schema_refresh_ms": round(refresh_ms, 2)})
    if args.corpus:
        turns, seconds = bulk(args.corpus, args.limit)
        out.update({"bulk_turns": turns, "bulk_s": round(seconds, 2),
                    "bulk_turns_per_s": round(turns / seconds, 1)})
    out["rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
