"""Benchmark the deterministic extractors against a bare regex scan, and the full pipeline.

Run: ``python benchmarks/bench_patterns.py [--corpus PATH] [--limit N] [--repeat R]``.
Prints one JSON object. Two sets of turns from the corpus: the turns as they are (the
dev corpus averages ~9 words a turn) and ~40-word turns (consecutive turns of a
conversation joined until they reach 40 words), since targets are stated per 40-word
turn. For each set, per-turn latency (median and p95, milliseconds) and turns/s of:

* ``patterns``: the value pattern extractors (:data:`VALUE_PATTERNS`: amounts,
  identifiers, dates/times, tool fields), run on each turn as the pipeline runs them (no
  store, no merge);
* ``other_regex``: the other extractors that need no parse (the sentence act model, the
  session cues behind the ticket and coding schemas), for scale;
* ``bare_regex``: a baseline of ten plain ``regex`` patterns (money, percent, phone,
  email, URL, code, date, time, weekday, month) scanned over the same turns;
* ``ratio_median``: patterns / bare_regex.

And ``pipeline``: each turn of the first conversations ingested, one at a time, into an
in-memory :class:`~scratchpad.Scratchpad` with every extractor (the spaCy parse
included), as a live harness calls it.

The machine this runs on is shared and noisy, so every turn is timed ``--repeat`` times
and its fastest run counts: noise only ever adds time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import regex

from extractors.base import TurnView
from extractors.registry import Registry
from scratchpad import Scratchpad
from scratchpad.messages import read_corpus

ROOT = Path(__file__).resolve().parent.parent
#: The value pattern families the speed goal is stated for.
VALUE_PATTERNS = ("amounts.regex.v1", "identifiers.regex.v1", "datetimes.regex.v1",
                  "toolfields.json.v1")
BASELINE = [regex.compile(p) for p in (
    r"[$€£]\s?\d[\d,]*(?:\.\d+)?",
    r"\d+(?:\.\d+)?\s?%",
    r"\+?\d[\d\s().-]{7,}\d",
    r"[\w.+-]+@[\w-]+\.[\w.]+",
    r"https?://\S+",
    r"\b[A-Z]{2,5}-\d{3,}\b",
    r"\b\d{1,2}/\d{1,2}/\d{2,4}\b",
    r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b",
    r"\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b",
    r"\b(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December)\s+\d{1,2}\b",
)]


def timed(texts: list[str], fn: Callable[[str], object], repeat: int) -> list[float]:
    """Milliseconds per text: the fastest of ``repeat`` runs of each."""
    best = [float("inf")] * len(texts)
    for _ in range(repeat):
        for i, text in enumerate(texts):
            started = time.perf_counter()
            fn(text)
            best[i] = min(best[i], (time.perf_counter() - started) * 1000)
    return best


def summary(ms: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(ms), 4),
            "p95_ms": round(statistics.quantiles(ms, n=20)[18], 4),
            "turns_per_s": round(len(ms) / (sum(ms) / 1000), 1)}


def joined_turns(rows: list[dict], words: int = 40) -> list[str]:
    """Consecutive turns of each conversation joined until they hold ``words`` words."""
    out = []
    for row in rows:
        current: list[str] = []
        for message in row["messages"]:
            current.append(message["content"] or "")
            if len(" ".join(current).split()) >= words:
                out.append(" ".join(current))
                current = []
    return out


def compare(texts: list[str], run_patterns: Callable[[str], None],
            run_others: Callable[[str], None], repeat: int) -> dict:
    def run_baseline(text: str) -> None:
        for pattern in BASELINE:
            list(pattern.finditer(text))

    out = {
        "turns": len(texts),
        "words_per_turn": round(statistics.mean(len(t.split()) for t in texts), 1),
        "patterns": summary(timed(texts, run_patterns, repeat)),
        "other_regex": summary(timed(texts, run_others, repeat)),
        "bare_regex": summary(timed(texts, run_baseline, repeat)),
    }
    out["ratio_median"] = round(out["patterns"]["median_ms"] / out["bare_regex"]["median_ms"], 1)
    return out


def pipeline(rows: list[dict]) -> dict:
    ms: list[float] = []
    with Scratchpad(":memory:") as pad:
        pad.ingest("warm-up", rows[0]["messages"][:1])
        for n, row in enumerate(rows):
            messages = row["messages"]
            for k in range(1, len(messages) + 1):
                started = time.perf_counter()
                pad.ingest(f"c{n}", messages[:k])
                ms.append((time.perf_counter() - started) * 1000)
    return {"conversations": len(rows), **summary(ms)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "tests" / "data" / "sgd_dev.jsonl")
    parser.add_argument("--limit", type=int, default=300, help="conversations to read")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pipeline-limit", type=int, default=40,
                        help="conversations ingested turn by turn for the pipeline figure")
    args = parser.parse_args()
    rows = read_corpus(args.corpus)[: args.limit]
    registry = Registry.shipped()
    names = [n for n in registry.available() if not registry.create([n])[0].needs_doc]
    others = [n for n in names if n not in VALUE_PATTERNS]

    def runner(chosen: list[str]) -> Callable[[str], None]:
        extractors = registry.create(chosen)

        def run(text: str) -> None:
            view = TurnView(thread="b", number=1, role="assistant", text=text)
            for extractor in extractors:
                extractor.extract(view, None)
        return run

    run_patterns, run_others = runner(list(VALUE_PATTERNS)), runner(others)
    turns = [m["content"] or "" for row in rows for m in row["messages"]]
    run_patterns(turns[0])  # warm caches
    run_others(turns[0])
    out = {
        "patterns": list(VALUE_PATTERNS),
        "other_regex": others,
        "dev_turns": compare(turns, run_patterns, run_others, args.repeat),
        "turns_40_words": compare(joined_turns(rows), run_patterns, run_others, args.repeat),
        "pipeline": pipeline(rows[: args.pipeline_limit]),
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
