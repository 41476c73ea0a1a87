"""Benchmark the deterministic (pattern) extractors alone against a bare regex scan.

Run: ``python benchmarks/bench_patterns.py [--corpus PATH] [--limit N]``. Prints one JSON
object with per-turn latency (median, p95, in milliseconds) and turns/s for:

* ``patterns``: every registered extractor that does not need the spaCy parse, run on
  each turn as the pipeline runs it (no store, no merge);
* ``bare_regex``: a baseline of ten plain ``regex`` patterns (money, percent, phone,
  email, URL, code, date, time, weekday, month) scanned over the same turns;
* the mean words per turn, since the targets are stated for ~40-word turns.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import regex

import extractors as registry
from extractors.base import TurnView
from scratchpad.messages import read_corpus

ROOT = Path(__file__).resolve().parent.parent
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


def timed(texts: list[str], fn) -> list[float]:
    out = []
    for text in texts:
        started = time.perf_counter()
        fn(text)
        out.append((time.perf_counter() - started) * 1000)
    return out


def summary(ms: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(ms), 4),
            "p95_ms": round(statistics.quantiles(ms, n=20)[18], 4),
            "turns_per_s": round(len(ms) / (sum(ms) / 1000), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "tests" / "data" / "sgd_dev.jsonl")
    parser.add_argument("--limit", type=int, default=300)
    args = parser.parse_args()
    texts = [m["content"] or "" for row in read_corpus(args.corpus)[: args.limit]
             for m in row["messages"]]
    names = [n for n in registry.available() if not registry.create([n])[0].needs_doc]
    pattern_extractors = registry.create(names)

    def run_patterns(text: str) -> None:
        view = TurnView(thread="b", number=1, role="assistant", text=text)
        for extractor in pattern_extractors:
            extractor.extract(view, None)

    def run_baseline(text: str) -> None:
        for pattern in BASELINE:
            list(pattern.finditer(text))

    run_patterns(texts[0])  # warm caches
    out = {
        "turns": len(texts),
        "words_per_turn": round(statistics.mean(len(t.split()) for t in texts), 1),
        "extractors": names,
        "patterns": summary(timed(texts, run_patterns)),
        "bare_regex": summary(timed(texts, run_baseline)),
    }
    out["ratio_median"] = round(out["patterns"]["median_ms"] / out["bare_regex"]["median_ms"], 1)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
