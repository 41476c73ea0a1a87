"""Scratchpad's full pipeline against Presidio's AnalyzerEngine, side by side, same turns.

Run: ``pip install -e ".[bench]"`` once, then
``python benchmarks/bench_presidio.py [--corpus PATH] [--limit N]``. Prints one JSON object.

Both sides get the same ~40-word turns (consecutive dev-corpus turns joined, as in
``bench_patterns.py``) and the same spaCy model (``en_core_web_sm``, else its PyPI
re-upload). Presidio runs its default recognizers (regex + the spaCy NER) with
``analyze(text, language="en")``; Scratchpad ingests each turn as the next message of its
conversation with every extractor on (NER, dependency parse, patterns, resolvers), as a
live harness does. The two are timed turn by turn, alternately, so that the noise of a
shared machine falls on both alike.

* ``*_turn_ms_median`` / ``*_turn_ms_p95``: per-turn latency;
* ``*_turns_per_s``: the same turns, one at a time;
* ``scratchpad_bulk_turns_per_s``: ``extract``-style, whole conversations at once
  (the spaCy pass batched with ``nlp.pipe``);
* ``*_load_s``: building each engine, model load included; ``rss_mb`` at the end;
* ``scratchpad_split_ms``: where Scratchpad's turn goes, mean ms per turn: ``annotate``
  (spaCy over the sentences extractors asked for, ``needs`` included), ``needs``
  (deciding those sentences), ``extract`` (extractors and resolvers), ``store``.

Offline: Presidio's email recognizer would fetch a public-suffix list, so this sets
``TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS=""`` before importing it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from bench_patterns import joined_turns  # noqa: E402

from extractors.text import nlp as nlp_module  # noqa: E402
from scratchpad import Scratchpad  # noqa: E402
from scratchpad.evaluate import run_corpus  # noqa: E402
from scratchpad.messages import read_corpus  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def presidio_engine(model: str):
    """Presidio's AnalyzerEngine on ``model`` with its default recognizer registry."""
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    provider = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]})
    return AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])


def timed(owner: object, method: str, totals: dict[str, float], key: str) -> None:
    """Wrap ``owner.method`` so that its wall time adds up in ``totals[key]``."""
    inner = getattr(owner, method)

    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            totals[key] += time.perf_counter() - started

    setattr(owner, method, wrapper)


def summary(prefix: str, ms: list[float]) -> dict[str, float]:
    return {f"{prefix}_turn_ms_median": round(statistics.median(ms), 2),
            f"{prefix}_turn_ms_p95": round(statistics.quantiles(ms, n=20)[18], 2),
            f"{prefix}_turns_per_s": round(len(ms) / (sum(ms) / 1000), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "tests" / "data" / "sgd_dev.jsonl")
    parser.add_argument("--limit", type=int, default=120, help="conversations to read")
    args = parser.parse_args()
    rows = read_corpus(args.corpus)[: args.limit]
    conversations = [joined_turns([row]) for row in rows]
    conversations = [c for c in conversations if c]

    started = time.perf_counter()
    nlp = nlp_module.load()
    pad = Scratchpad(":memory:")
    pad.ingest("warm-up", [{"role": "user", "content": "Order A-77215, refund €930."}])
    ours_load = time.perf_counter() - started
    model = nlp.meta.get("lang", "en") + "_" + nlp.meta.get("name", "core_web_sm")
    model = next((m for m in nlp_module.DEFAULT_MODELS if m.startswith(model)), model)
    started = time.perf_counter()
    engine = presidio_engine(model)
    engine.analyze(text="Order A-77215, refund €930.", language="en")
    presidio_load = time.perf_counter() - started

    split = {"annotate": 0.0, "needs": 0.0, "extract": 0.0, "store": 0.0}
    timed(pad.processor, "annotate", split, "annotate")
    timed(pad.processor, "needs", split, "needs")
    timed(pad.processor, "process", split, "extract")
    timed(pad.store, "add_turn", split, "store")
    ours: list[float] = []
    theirs: list[float] = []
    for n, turns in enumerate(conversations):
        messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": t}
                    for i, t in enumerate(turns)]
        for k, text in enumerate(turns, 1):
            t0 = time.perf_counter()
            engine.analyze(text=text, language="en")
            t1 = time.perf_counter()
            pad.ingest(f"c{n}", messages[:k])
            t2 = time.perf_counter()
            theirs.append((t1 - t0) * 1000)
            ours.append((t2 - t1) * 1000)
    pad.close()

    bulk_rows = [{"id": f"b{n}", "messages": [{"role": "user", "content": t} for t in turns]}
                 for n, turns in enumerate(conversations)]
    started = time.perf_counter()
    count = sum(len(row["messages"]) for row, _ in run_corpus(bulk_rows))
    bulk = count / (time.perf_counter() - started)

    out = {
        "model": model,
        "turns": len(ours),
        "words_per_turn": round(statistics.mean(len(t.split()) for c in conversations
                                                for t in c), 1),
        "scratchpad_load_s": round(ours_load, 2),
        "presidio_load_s": round(presidio_load, 2),
        **summary("scratchpad", ours),
        **summary("presidio", theirs),
        "scratchpad_bulk_turns_per_s": round(bulk, 1),
        "speedup_median": round(statistics.median(theirs) / statistics.median(ours), 2),
        "scratchpad_split_ms": {k: round(v * 1000 / len(ours), 2) for k, v in split.items()},
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
